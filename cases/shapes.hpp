#pragma once
// Building blocks shared by the case generators: physical inertias of simple shapes and the
// random tree transforms and bodies of the "general" cases (GU(n), all_joints, joint:*).
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include "cases/random.hpp"
#include "model/model.hpp"

namespace rbd::cases {

// A body's inertia as ModelBuilder::add_body takes it: mass, centre of mass in body
// coordinates, rotational inertia about the centre of mass.
struct BodyInertia {
  double mass = 1;
  Vec3d com = Vec3d::Zero();
  Mat3d Icom = Mat3d::Identity();
};

// Solid cuboid with side lengths lx, ly, lz along the body axes. Its principal moments
// satisfy the triangle inequality strictly whenever all three sides are positive.
inline Mat3d box_inertia(double mass, double lx, double ly, double lz) {
  const double k = mass / 12;
  Mat3d I = Mat3d::Zero();
  I(0, 0) = k * (ly * ly + lz * lz);
  I(1, 1) = k * (lx * lx + lz * lz);
  I(2, 2) = k * (lx * lx + ly * ly);
  return I;
}

// Solid cylinder of the given radius from point `from` to point `to` (body coordinates):
// axial moment m r^2 / 2, transverse m (L^2/12 + r^2/4). Strictly satisfies the triangle
// inequality for r > 0 (transverse + axial > transverse).
inline BodyInertia rod(double mass, const Vec3d& from, const Vec3d& to, double radius) {
  const Vec3d d = to - from;
  const double L = d.norm();
  if (!(L > 0) || !(radius > 0)) throw std::invalid_argument("cases::rod: need a positive length and radius");
  const Vec3d u = d / L;
  const double axial = mass * radius * radius / 2;
  const double transverse = mass * (L * L / 12 + radius * radius / 4);
  Mat3d uu = u * u.transpose();
  Mat3d I = transverse * (Mat3d::Identity() - uu) + axial * uu;
  I = ((I + I.transpose()) / 2).eval();  // exactly symmetric
  return BodyInertia{mass, (from + to) / 2, I};
}

// Elementary Plücker transforms of Table 2.2 as Transform objects (X = rot(E) xlt(r)).
inline Transform<double> xlt(const Vec3d& r) { return Transform<double>{Mat3d::Identity(), r}; }
inline Transform<double> rot(const Mat3d& E) { return Transform<double>{E, Vec3d::Zero()}; }

// A general tree transform: uniformly random rotation, and a translation in a uniformly
// random direction with length uniform in [rmin, rmax].
inline Transform<double> random_xtree(Rng& rng, double rmin = 0.1, double rmax = 0.5) {
  Transform<double> X;
  X.E = rng.rotation();
  const Vec3d dir = rng.unit_vector();
  X.r = dir * rng.uniform(rmin, rmax);
  return X;
}

// A general body: mass uniform in [0.5, 5], centre of mass in a random direction at a
// distance uniform in [0.05, 0.15], full (non-diagonal) rotational inertia from
// Rng::inertia_about_com with box sides in [0.12, 0.4] (scale 0.4).
inline BodyInertia random_body(Rng& rng) {
  BodyInertia b;
  b.mass = rng.uniform(0.5, 5.0);
  const Vec3d dir = rng.unit_vector();
  b.com = dir * rng.uniform(0.05, 0.15);
  b.Icom = rng.inertia_about_com(b.mass, 0.4);
  return b;
}

// Shortest decimal text that reads back as exactly x (std::to_chars), for case ids: "0.5", "1.5".
inline std::string id_number(double x) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

inline int add(ModelBuilder& mb, const std::string& name, int parent, const Joint<double>& j,
               const Transform<double>& Xtree, const BodyInertia& b) {
  return mb.add_body(name, parent, j, Xtree, b.mass, b.com, b.Icom);
}

inline Joint<double> make_joint(JointType t, const Vec3d& axis = Vec3d::UnitZ(), double pitch = 0) {
  Joint<double> j;
  j.type = t;
  j.axis = axis;
  j.pitch = pitch;
  j.aligned = -1;  // ModelBuilder recomputes it from the axis
  return j;
}

}  // namespace rbd::cases
