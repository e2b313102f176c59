#pragma once
// Scenes with known answers for chapter 11's simulations, impacts and contact solvers
// (Featherstone sections 11.5-11.7): a ball bouncing on the ground, Newton's cradle, a stack of
// blocks, a rocking block. Each is a Model, its candidate
// point contacts (model/contact.hpp) and an initial state, in double (cast for Reference).
#include <string>
#include <vector>

#include "model/contact.hpp"
#include "model/model.hpp"

namespace rbd::cases {

struct ContactScene {
  Model<double> model;
  PointContacts<double> contacts;
  VecX<double> q, qd;
};

// A solid ball (I_c = 2/5 m r^2) on a free joint, under gravity g along -z, with its lowest point
// drop_height above the ground plane z = 0, at rest vertically and moving sideways at vx (which
// frictionless impacts leave alone). One candidate contact: the point (0, 0, -r) of the ball's
// frame against the ground, with Newton's e. A point contact is fixed in its body
// (model/contact.hpp), so it stays the lowest point only while the ball does not turn: the scene
// has no spin. (With a spin about the vertical the point stays lowest in exact arithmetic, but a
// rounding tilt of 1e-16 puts it off the normal through the centre, each impact's impulse then
// turns the ball further, and within ~40 bounces it tumbles: measured. A sphere needs the contact
// geometry of section 11.6, where the contact point is found at each instant.)
inline ContactScene bouncing_ball(double radius, double mass, double g, double drop_height, double e, double vx) {
  ModelBuilder b("bouncing ball");
  b.gravity(Vec3<double>(0, 0, -g));
  Joint<double> j;
  j.type = JointType::Free;
  b.add_body("ball", -1, j, Transform<double>{}, mass, Vec3<double>::Zero(),
             Mat3<double>::Identity() * (0.4 * mass * radius * radius));
  ContactScene s{b.finish(), PointContacts<double>(1), VecX<double>(7), VecX<double>::Zero(6)};
  s.contacts[0].s = 0;
  s.contacts[0].point = Vec3<double>(0, 0, -radius);
  s.contacts[0].restitution = e;
  s.contacts[0].name = "ball on ground";
  s.q << 1, 0, 0, 0, 0, 0, radius + drop_height;
  s.qd[3] = vx;
  return s;
}

// n equal balls (mass 1, radius r) on sliders along x, each attached to the base: balls 1..n-1 at
// rest and touching in a row, ball 0 a distance gap to the left of ball 1 and moving right at v.
// Contact k (k = 0..n-2) is between ball k (the plane x = r of its frame, normal +x) and ball
// k + 1 (its point (-r, 0, 0)), with Newton's e. Gravity (along -z) does no work on the sliders.
inline ContactScene newtons_cradle(int n, double radius, double gap, double v, double e) {
  ModelBuilder b("Newton's cradle");
  b.gravity(Vec3<double>(0, 0, -9.81));
  Joint<double> j;
  j.type = JointType::Prismatic;
  j.axis = Vec3<double>::UnitX();
  for (int k = 0; k < n; ++k)
    b.add_body("ball " + std::to_string(k), -1, j, Transform<double>{}, 1.0, Vec3<double>::Zero(),
               Mat3<double>::Identity() * (0.4 * radius * radius));
  ContactScene s{b.finish(), {}, VecX<double>(n), VecX<double>::Zero(n)};
  for (int k = 0; k < n; ++k) s.q[k] = 2 * k * radius;
  s.q[0] -= gap;
  s.qd[0] = v;
  for (int k = 0; k + 1 < n; ++k) {
    PointContact<double> c;
    c.p = k;
    c.s = k + 1;
    c.point = Vec3<double>(-radius, 0, 0);
    c.normal = Vec3<double>::UnitX();
    c.offset = radius;
    c.restitution = e;
    c.name = "balls " + std::to_string(k) + "-" + std::to_string(k + 1);
    s.contacts.push_back(c);
  }
  return s;
}

// A column of n blocks on vertical sliders (each a prismatic joint along z attached to the base),
// each of height `height`, block k of mass masses[k % masses.size()], resting on the one below
// and block 0 on the ground, under gravity g along -z, at rest. Contact 0 is block 0's bottom on
// the ground; contact k (k >= 1) is block k's bottom on the top plane of block k - 1. Each contact
// carries the weight of the blocks above it: lambda_k = g * (sum of the masses of blocks k..n-1),
// the closed form the LCP must give. The classic hard case for iterative solvers: the contacts
// are coupled in a chain, and M's conditioning grows like n^2 (and with the mass ratio).
inline ContactScene block_stack(int n, const std::vector<double>& masses, double height, double g) {
  ModelBuilder b("block stack");
  b.gravity(Vec3<double>(0, 0, -g));
  Joint<double> j;
  j.type = JointType::Prismatic;
  j.axis = Vec3<double>::UnitZ();
  for (int k = 0; k < n; ++k) {
    const double mk = masses[static_cast<std::size_t>(k) % masses.size()];
    b.add_body("block " + std::to_string(k), -1, j, Transform<double>{}, mk, Vec3<double>::Zero(),
               Mat3<double>::Identity() * (mk * height * height / 6));
  }
  ContactScene s{b.finish(), {}, VecX<double>(n), VecX<double>::Zero(n)};
  for (int k = 0; k < n; ++k) {
    s.q[k] = (k + 0.5) * height;  // block k's centre
    PointContact<double> c;
    c.p = k - 1;
    c.s = k;
    c.point = Vec3<double>(0, 0, -height / 2);
    c.normal = Vec3<double>::UnitZ();
    c.offset = k == 0 ? 0.0 : height / 2;
    c.name = k == 0 ? "block 0 on ground" : "block " + std::to_string(k) + " on block " + std::to_string(k - 1);
    s.contacts.push_back(c);
  }
  return s;
}

// A rigid rectangular block (Housner's rocking block) on rough ground under gravity g along -z:
// half-width b along y, half-height h along z, half-depth d along x, mass m, uniform density
// (I_xx = m (b^2 + h^2) / 3 about the centre, the plane section's; the other two from the box).
// Free joint, body frame at the centre. Four candidate contacts, the bottom corners (+-d, +-b, -h)
// against the ground, each with Coulomb's mu (4-facet pyramid along x and y) and e = 0 (the
// impacts of rocking are plastic: Housner 1963). The state is the block standing flat, centre at
// z = h, rocking about the edge y = -b with angular velocity omega about x (omega < 0: the edge
// y = +b comes down, this instant its impact): qd = [omega, 0, 0; v_centre], v_centre =
// omega e_x x (centre - edge) = omega (0, -h, b).
inline ContactScene rocking_block(double b, double h, double d, double mass, double g, double mu, double omega) {
  ModelBuilder mb("rocking block");
  mb.gravity(Vec3<double>(0, 0, -g));
  Joint<double> j;
  j.type = JointType::Free;
  const Vec3<double> I_c(mass * (b * b + h * h) / 3, mass * (d * d + h * h) / 3, mass * (d * d + b * b) / 3);
  mb.add_body("block", -1, j, Transform<double>{}, mass, Vec3<double>::Zero(), Mat3<double>(I_c.asDiagonal()));
  ContactScene s{mb.finish(), PointContacts<double>(4), VecX<double>(7), VecX<double>::Zero(6)};
  const char* names[] = {"corner (-d, -b)", "corner (+d, -b)", "corner (-d, +b)", "corner (+d, +b)"};
  for (int k = 0; k < 4; ++k) {
    PointContact<double>& c = s.contacts[k];
    c.s = 0;
    c.point = Vec3<double>(k % 2 == 0 ? -d : d, k < 2 ? -b : b, -h);
    c.friction = mu;
    c.restitution = 0;
    c.name = std::string("block ") + names[k];
  }
  s.q << 1, 0, 0, 0, 0, 0, h;
  s.qd << omega, 0, 0, 0, -omega * h, omega * b;
  return s;
}

}  // namespace rbd::cases
