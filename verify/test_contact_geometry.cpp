// Contact geometry (Featherstone section 11.6; algorithms/contact_geometry/): the narrow-phase
// queries of spheres, boxes, capsules and planes, their conversion to PointContacts and the
// minimal-set rule of Figure 11.7.
//  a. every pair in closed-form configurations, each scene placed by a random rigid motion (the
//     hand geometry is written in a scene frame; the expected points are the motion's image);
//  b. invariance: the same random motion applied to both shapes moves the points and normals
//     with it and keeps the distances (double and Reference);
//  c. symmetry: (b, a) gives the points of (a, b) seen from the other side;
//  d. the distance is a true distance: separated pairs against brute-force sampling of both
//     surfaces; every pair, apart or overlapping, against a sampled maximum over directions of
//     the gap between the two shapes' projections (the separating-axis value, which for convex
//     shapes peaks at the signed distance); the witness points on (or in) the solids;
//  e. one query in Reference to 40 digits;
//  f. the conversion to PointContacts: phi = distance through the suite's own contact_gaps on a
//     Model, and a box resting on the ground or on another box held by the contact family's LCP;
//  g. the minimal-set rule on Figure 11.7's cases (a)-(d), and NNLS on closed forms;
//  h. refusals; the queries compile and count in the op-counting scalar.
//
// Precision. The queries are at most a few hundred roundings on numbers of order 1 (lengths in
// [0.1, 3]), through three composed rotations (shape pose, body pose, scene motion): double
// results carry errors of ~1e-15, and 1e-12 leaves a margin of ~1e3. Reference carries ~50
// digits; 1e-40 leaves ~1e10 for the same few hundred roundings, while a wrong formula errs at
// O(1e-3 .. 1).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/random.hpp"
#include "contact_dynamics/contact_lemke.hpp"
#include "contact_geometry/collide.hpp"
#include "contact_geometry/minimal_set.hpp"
#include "contact_geometry/point_contacts.hpp"
#include "contact_simulation/gaps.hpp"
#include "core/counting_scalar.hpp"
#include "core/so3.hpp"
#include "frames/quaternion.hpp"
#include "model/model.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/message_of.hpp"

namespace test_contact_geometry {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::geometry;
using R = Reference;
using V3 = Vec3<double>;

namespace {

constexpr double kTol = 1e-12;  // double: see the header
const R kTolR("1e-40");         // Reference: see the header

// ---- scenes: hand geometry in a scene frame, placed in the world by a rigid motion ----

// A rigid motion x -> Q x + t of the whole scene.
template <class S> struct Motion {
  Mat3<S> Q = Mat3<S>::Identity();
  Vec3<S> t = Vec3<S>::Zero();
  Vec3<S> point(const Vec3<S>& x) const { return Q * x + t; }
  Vec3<S> dir(const Vec3<S>& x) const { return Q * x; }
};

// A body pose ^iX_0 after the motion: world' = Q world + t, so E' = E Q^T and r' = Q r + t.
template <class S> Transform<S> moved(const Transform<S>& X, const Motion<S>& G) {
  return Transform<S>{Mat3<S>(X.E * G.Q.transpose()), G.point(X.r)};
}

// A uniformly random rotation in S: a unit quaternion drawn in double, cast exactly and
// normalised in S (frames/quaternion.hpp's matrix), so it is a rotation to S's own precision.
template <class S> Mat3<S> random_rotation(cases::Rng& rng) {
  const Eigen::Vector4d q = rng.unit_quaternion();
  const Quaternion<S> p{S(q[0]), Vec3<S>(S(q[1]), S(q[2]), S(q[3]))};
  return ((S(1) / sqrt_(p.squared_norm())) * p).matrix();
}
template <class S> Vec3<S> random_point(cases::Rng& rng, double half) {
  return Vec3<S>(S(rng.uniform(-half, half)), S(rng.uniform(-half, half)), S(rng.uniform(-half, half)));
}
template <class S> Motion<S> random_motion(cases::Rng& rng) { return Motion<S>{random_rotation<S>(rng), random_point<S>(rng, 2)}; }
template <class S> Transform<S> random_transform(cases::Rng& rng) {
  return Transform<S>{random_rotation<S>(rng), random_point<S>(rng, 1)};
}

// The frame with world = c + Rot x, as a body pose.
template <class S> Transform<S> frame_pose(const Mat3<S>& Rot, const Vec3<S>& c) { return Transform<S>{Rot.transpose(), c}; }

// Rotation by angle about a unit axis (core/so3.hpp's exp).
template <class S> Mat3<S> rot(const Vec3<S>& axis, const S& angle) { return so3::exp<S>(Vec3<S>(axis * angle)); }

template <class S> struct Rig {
  cases::Rng rng;
  Motion<S> G;
  explicit Rig(std::uint64_t seed) : rng(seed), G(random_motion<S>(rng)) {}
  // Puts shape x at scene placement (Rot, c): on a random body pose, with the shape pose that
  // completes it, so that both transforms are exercised. Returns the body pose.
  template <class X> Transform<S> put(X& x, const Mat3<S>& Rot, const Vec3<S>& c) {
    const Transform<S> desired = moved(frame_pose<S>(Rot, c), G);
    const Transform<S> body = random_transform<S>(rng);
    x.pose = desired * body.inverse();
    return body;
  }
};

struct Expect {
  V3 point, normal;
  double distance;
};

// Every expected point (scene coordinates) matched by a computed one, one to one.
void check_points(const ContactSet<double>& got, const std::vector<Expect>& want, const Motion<double>& G,
                  double tol = kTol) {
  REQUIRE(got.points.size() == want.size());
  std::vector<bool> used(got.points.size(), false);
  for (const Expect& e : want) {
    const V3 p = G.point(e.point), n = G.dir(e.normal);
    bool found = false;
    for (std::size_t k = 0; k < got.points.size() && !found; ++k) {
      const ContactPoint<double>& g = got.points[k];
      if (!used[k] && (g.point - p).norm() <= tol && (g.normal - n).norm() <= tol && std::abs(g.distance - e.distance) <= tol)
        used[k] = found = true;
    }
    INFO("expected point " << e.point.transpose() << " normal " << e.normal.transpose() << " distance " << e.distance);
    for (const auto& g : got.points)
      INFO("got " << G.Q.transpose() * (g.point - G.t) << " / " << (G.Q.transpose() * g.normal).transpose() << " / "
                  << g.distance);
    CHECK(found);
  }
}

const double kMargin = 1e-9;  // far above the ~1e-15 round-off of a face's corners, far below any gap tested
const double kS2 = std::sqrt(0.5);

}  // namespace

// ---------------------------------------------------------------------------------------------
// a. Closed forms.
// ---------------------------------------------------------------------------------------------

TEST_CASE("contact geometry: sphere against a tilted plane", "[contact_geometry]") {
  // The plane through p0 with unit normal n (tilted by 0.7 rad about (1, 2, 0)); a sphere of
  // radius r with its centre h along n from p0 and 0.4 along the plane: distance h - r along n,
  // the point c - r n.
  Rig<double> rig(11);
  const V3 n = rot<double>(V3(1, 2, 0).normalized(), 0.7) * V3::UnitZ();
  const V3 p0(0.3, -0.2, 0.1), along = n.cross(V3::UnitX()).normalized();
  for (double h : {1.5, 0.6, 0.45}) {  // apart, touching, sunk by 0.15
    Plane<double> a;
    a.normal = V3::UnitZ();
    a.offset = 0.25;  // the plane z = 0.25 of its shape frame, which is turned to n
    const Mat3<double> Rp = rot<double>(V3(1, 2, 0).normalized(), 0.7);
    const Transform<double> Xa = rig.put(a, Rp, V3(p0 - 0.25 * n));
    Sphere<double> b;
    b.radius = 0.6;
    const V3 c = p0 + h * n + 0.4 * along;
    const Transform<double> Xb = rig.put(b, Mat3<double>::Identity(), c);
    check_points(collide<double>(a, Xa, b, Xb, kMargin), {{V3(c - 0.6 * n), n, h - 0.6}}, rig.G);
  }
}

TEST_CASE("contact geometry: box against a plane on a face, an edge and a corner", "[contact_geometry]") {
  // The ground z = 0 (scene frame); a box of half extents (a, b, c) with its centre at height z0.
  Rig<double> rig(12);
  const double ha = 0.3, hb = 0.2, hc = 0.5, z0 = 0.9;
  Plane<double> ground;
  const Transform<double> Xg = rig.put(ground, Mat3<double>::Identity(), V3::Zero());
  Box<double> box;
  box.half_extents = V3(ha, hb, hc);
  SECTION("on a face, turned about the vertical: its four bottom corners at z0 - c") {
    const Mat3<double> Rb = rot<double>(V3::UnitZ(), 0.8);
    const Transform<double> Xb = rig.put(box, Rb, V3(0.1, 0.2, z0));
    std::vector<Expect> want;
    for (double sx : {-1.0, 1.0})
      for (double sy : {-1.0, 1.0}) want.push_back({V3(0.1, 0.2, z0) + Rb * V3(sx * ha, sy * hb, -hc), V3::UnitZ(), z0 - hc});
    check_points(collide<double>(ground, Xg, box, Xb, kMargin), want, rig.G);
  }
  SECTION("on an edge (turned by theta about x): the two ends of the lowest edge") {
    // A corner (+-a, y, z) turned by theta about x has height y sin(theta) + z cos(theta); the
    // lowest, at y = -b, z = -c, is -(b sin(theta) + c cos(theta)), and the next is higher by
    // 2 b sin(theta) or 2 c cos(theta).
    const double th = 0.35;
    const Mat3<double> Rb = rot<double>(V3::UnitX(), th);
    const Transform<double> Xb = rig.put(box, Rb, V3(0, 0, z0));
    const double d = z0 - (hb * std::sin(th) + hc * std::cos(th));
    std::vector<Expect> want;
    for (double sx : {-1.0, 1.0}) want.push_back({V3(V3(0, 0, z0) + Rb * V3(sx * ha, -hb, -hc)), V3::UnitZ(), d});
    check_points(collide<double>(ground, Xg, box, Xb, kMargin), want, rig.G);
  }
  SECTION("on a corner (the diagonal vertical): one point at z0 - |h|") {
    // The rotation taking the corner direction (-a, -b, -c)/|h| to -z.
    const V3 diag = V3(ha, hb, hc).normalized();
    const V3 axis = diag.cross(V3::UnitZ());
    const Mat3<double> Rb = rot<double>(V3(axis.normalized()), std::acos(diag.z()));
    REQUIRE((Rb * diag - V3::UnitZ()).norm() < 1e-15);
    const Transform<double> Xb = rig.put(box, Rb, V3(0, 0, z0));
    const double d = z0 - V3(ha, hb, hc).norm();
    check_points(collide<double>(ground, Xg, box, Xb, kMargin), {{V3(0, 0, d), V3::UnitZ(), d}}, rig.G);
  }
  SECTION("sunk on a face: the four corners, each at minus the depth") {
    const Transform<double> Xb = rig.put(box, Mat3<double>::Identity(), V3(0, 0, hc - 0.05));
    const ContactSet<double> got = collide<double>(ground, Xg, box, Xb, kMargin);
    CHECK(got.points.size() == 4);
    for (const auto& p : got.points) CHECK(std::abs(p.distance + 0.05) <= kTol);
    CHECK(std::abs(got.distance + 0.05) <= kTol);
  }
}

TEST_CASE("contact geometry: capsule against a plane lying, standing and tilted", "[contact_geometry]") {
  Rig<double> rig(13);
  const double h = 0.7, r = 0.2;
  Plane<double> ground;
  const Transform<double> Xg = rig.put(ground, Mat3<double>::Identity(), V3::Zero());
  Capsule<double> cap;
  cap.half_length = h;
  cap.radius = r;
  SECTION("lying along y at height z0: the two ends of the core, lowered by r") {
    const double z0 = 0.5;
    const Transform<double> Xc = rig.put(cap, rot<double>(V3::UnitX(), M_PI / 2), V3(0.1, 0, z0));
    check_points(collide<double>(ground, Xg, cap, Xc, kMargin),
                 {{V3(0.1, h, z0 - r), V3::UnitZ(), z0 - r}, {V3(0.1, -h, z0 - r), V3::UnitZ(), z0 - r}}, rig.G);
  }
  SECTION("standing, and tilted by 0.4 rad about x: the lower end only") {
    for (double th : {0.0, 0.4}) {
      const double z0 = 1.0;
      const Mat3<double> Rc = rot<double>(V3::UnitX(), th);
      const Transform<double> Xc = rig.put(cap, Rc, V3(0, 0, z0));
      const V3 end = V3(0, 0, z0) - h * (Rc * V3::UnitZ());
      check_points(collide<double>(ground, Xg, cap, Xc, kMargin), {{V3(end - r * V3::UnitZ()), V3::UnitZ(), end.z() - r}},
                   rig.G);
    }
  }
}

TEST_CASE("contact geometry: sphere-sphere and sphere-capsule", "[contact_geometry]") {
  Rig<double> rig(14);
  Sphere<double> s1, s2;
  s1.radius = 0.4;
  s2.radius = 0.7;
  const V3 c1(0.1, 0.2, 0.3), c2(1.0, -0.5, 0.9);
  const Transform<double> X1 = rig.put(s1, Mat3<double>::Identity(), c1), X2 = rig.put(s2, rot<double>(V3::UnitY(), 1.0), c2);
  const V3 u = (c2 - c1).normalized();
  check_points(collide<double>(s1, X1, s2, X2, kMargin), {{V3(c2 - 0.7 * u), u, (c2 - c1).norm() - 1.1}}, rig.G);

  // A capsule along x from -1 to 1 (radius 0.25) and a sphere (radius 0.4): beside its middle at
  // (0.3, 0, 0.9), the closest core point is (0.3, 0, 0): distance 0.9 - 0.65; beyond its end at
  // (1.6, 0.8, 0), the end (1, 0, 0): distance |(0.6, 0.8, 0)| - 0.65 = 0.35.
  Capsule<double> cap;
  cap.half_length = 1.0;
  cap.radius = 0.25;
  const Transform<double> Xc = rig.put(cap, rot<double>(V3::UnitY(), M_PI / 2), V3::Zero());
  const Transform<double> Xs = rig.put(s1, Mat3<double>::Identity(), V3(0.3, 0, 0.9));
  check_points(collide<double>(s1, Xs, cap, Xc, kMargin), {{V3(0.3, 0, 0.25), -V3::UnitZ(), 0.25}}, rig.G);
  const Transform<double> Xs2 = rig.put(s1, Mat3<double>::Identity(), V3(1.6, 0.8, 0));
  const V3 w(-0.6, -0.8, 0);  // from the sphere to the end
  check_points(collide<double>(s1, Xs2, cap, Xc, kMargin), {{V3(V3(1, 0, 0) - 0.25 * w), w, 0.35}}, rig.G);
}

TEST_CASE("contact geometry: capsule-capsule crossing, parallel and clamped", "[contact_geometry]") {
  Rig<double> rig(15);
  Capsule<double> a, b;
  a.half_length = 1.0;
  a.radius = 0.2;
  b.half_length = 0.8;
  b.radius = 0.3;
  const Mat3<double> along_x = rot<double>(V3::UnitY(), M_PI / 2), along_y = rot<double>(V3::UnitX(), -M_PI / 2);
  const Transform<double> Xa = rig.put(a, along_x, V3::Zero());
  SECTION("crossing at right angles, b above a by 0.9: one point, distance 0.9 - 0.5") {
    const Transform<double> Xb = rig.put(b, along_y, V3(0.3, -0.2, 0.9));
    check_points(collide<double>(a, Xa, b, Xb, kMargin), {{V3(0.3, 0, 0.6), V3::UnitZ(), 0.4}}, rig.G);
  }
  SECTION("crossing and sunk: distance 0.35 - 0.5") {
    const Transform<double> Xb = rig.put(b, along_y, V3(-0.4, 0.1, 0.35));
    check_points(collide<double>(a, Xa, b, Xb, kMargin), {{V3(-0.4, 0, 0.05), V3::UnitZ(), -0.15}}, rig.G);
  }
  SECTION("parallel and overlapping along x in [0.5, 1]: the two ends of the overlap") {
    // b's core from x = 0.5 to 2.1 at (y, z) = (0, 0.7): both ends of the overlap at distance 0.2.
    const Transform<double> Xb = rig.put(b, along_x, V3(1.3, 0, 0.7));
    check_points(collide<double>(a, Xa, b, Xb, kMargin),
                 {{V3(0.5, 0, 0.4), V3::UnitZ(), 0.2}, {V3(1.0, 0, 0.4), V3::UnitZ(), 0.2}}, rig.G);
  }
  SECTION("parallel, end to end: the ends' pair") {
    // b's core from x = 1.4 to 3.0 on the same line: ends 0.4 apart, distance 0.4 - 0.5.
    const Transform<double> Xb = rig.put(b, along_x, V3(2.2, 0, 0));
    check_points(collide<double>(a, Xa, b, Xb, kMargin), {{V3(1.1, 0, 0), V3::UnitX(), -0.1}}, rig.G);
  }
  SECTION("skew, with the lines' closest points beyond a's end (a clamped parameter)") {
    // b along y through (3, 0, 0.5): the lines meet over x = 3, beyond a's end x = 1; the closest
    // pair is a's end (1, 0, 0) and b's point (3, 0, 0.5): distance sqrt(4.25) - 0.5.
    const Transform<double> Xb = rig.put(b, along_y, V3(3, 0, 0.5));
    const V3 w = V3(2, 0, 0.5).normalized();
    check_points(collide<double>(a, Xa, b, Xb, kMargin), {{V3(V3(3, 0, 0.5) - 0.3 * w), w, std::sqrt(4.25) - 0.5}}, rig.G);
  }
  SECTION("skew at 60 degrees, closest points inside both: the common perpendicular") {
    // b in the plane z = 0.9 at 60 degrees to x through (0.2, 0, 0.9): the lines' common
    // perpendicular is z, at (0.2, 0, .): distance 0.9 - 0.5.
    const Mat3<double> Rb = rot<double>(V3::UnitZ(), M_PI / 3) * along_x;
    const Transform<double> Xb = rig.put(b, Rb, V3(0.2, 0, 0.9));
    check_points(collide<double>(a, Xa, b, Xb, kMargin), {{V3(0.2, 0, 0.6), V3::UnitZ(), 0.4}}, rig.G);
  }
}

TEST_CASE("contact geometry: sphere-box over a face, an edge, a corner, and inside", "[contact_geometry]") {
  // Box of half extents (0.5, 0.4, 0.3) turned by 0.6 about z at the scene origin; the sphere
  // (radius 0.2) at box coordinates p. The box is a, the sphere b.
  Rig<double> rig(16);
  Box<double> box;
  box.half_extents = V3(0.5, 0.4, 0.3);
  const Mat3<double> Rb = rot<double>(V3::UnitZ(), 0.6);
  const Transform<double> Xb = rig.put(box, Rb, V3::Zero());
  Sphere<double> s;
  s.radius = 0.2;
  // p: the centre in box coordinates; n_box: the expected normal there; d: the distance.
  auto at = [&](const V3& p, const V3& n_box, double d) {
    const Transform<double> Xs = rig.put(s, Mat3<double>::Identity(), V3(Rb * p));
    check_points(collide<double>(box, Xb, s, Xs, kMargin), {{V3(Rb * (p - 0.2 * n_box)), V3(Rb * n_box), d}}, rig.G);
  };
  at(V3(0.1, 0.2, 0.9), V3::UnitZ(), 0.4);                                  // over the top face
  at(V3(0.1, 0.7, 0.7), V3(0, 0.6, 0.8), 0.5 - 0.2);                        // over an edge: (0.3, 0.4) away
  at(V3(0.8, -0.8, -0.3 - 0.4 * std::sqrt(0.5)), V3(0.3, -0.4, -0.4 * std::sqrt(0.5)) / std::sqrt(0.33),
     std::sqrt(0.33) - 0.2);                                                                    // over a corner
  at(V3(0.45, 0.0, 0.1), V3::UnitX(), -0.05 - 0.2);                            // inside: out through x
}

TEST_CASE("contact geometry: box-box stacked, crossed, on an edge, edge across edge", "[contact_geometry]") {
  Rig<double> rig(17);
  Box<double> A, B;
  A.half_extents = V3(0.6, 0.5, 0.4);
  B.half_extents = V3(0.3, 0.2, 0.25);
  const Transform<double> XA = rig.put(A, Mat3<double>::Identity(), V3::Zero());
  SECTION("B on A's top face, turned by 0.5 about z, gap g (and sunk by g): B's four bottom corners") {
    for (double g : {0.05, 0.0, -0.02}) {
      const Mat3<double> RB = rot<double>(V3::UnitZ(), 0.5);
      const V3 cB(0.1, -0.1, 0.4 + 0.25 + g);
      const Transform<double> XB = rig.put(B, RB, cB);
      std::vector<Expect> want;
      for (double sx : {-1.0, 1.0})
        for (double sy : {-1.0, 1.0}) want.push_back({V3(cB + RB * V3(sx * 0.3, sy * 0.2, -0.25)), V3::UnitZ(), g});
      INFO("gap " << g);
      check_points(collide<double>(A, XA, B, XB, kMargin), want, rig.G);
    }
  }
  SECTION("two equal squares crossed at 45 degrees: the octagon of their intersection") {
    // A's top face |x|, |y| <= s and B's bottom face, the same square turned by 45 degrees:
    // |x +- y| <= s sqrt(2). The octagon's corners: (+-s, +-s (sqrt 2 - 1)) and the same swapped.
    Box<double> Q;
    Q.half_extents = V3(0.5, 0.5, 0.4);
    const Transform<double> XQ = rig.put(Q, Mat3<double>::Identity(), V3::Zero());
    Box<double> P = Q;
    const double g = 0.03, s = 0.5, t = 0.5 * (std::sqrt(2.0) - 1);
    const Transform<double> XP = rig.put(P, rot<double>(V3::UnitZ(), M_PI / 4), V3(0, 0, 0.8 + g));
    std::vector<Expect> want;
    for (double sa : {-1.0, 1.0})
      for (double sb : {-1.0, 1.0}) {
        want.push_back({V3(sa * s, sb * t, 0.4 + g), V3::UnitZ(), g});
        want.push_back({V3(sa * t, sb * s, 0.4 + g), V3::UnitZ(), g});
      }
    check_points(collide<double>(Q, XQ, P, XP, kMargin), want, rig.G);
  }
  SECTION("B on an edge (turned by theta about x) on A's face: the two ends of that edge") {
    const double th = 0.3, g = 0.02;
    const Mat3<double> RB = rot<double>(V3::UnitX(), th);
    const double low = 0.2 * std::sin(th) + 0.25 * std::cos(th);
    const V3 cB(-0.1, 0.1, 0.4 + low + g);
    const Transform<double> XB = rig.put(B, RB, cB);
    std::vector<Expect> want;
    for (double sx : {-1.0, 1.0}) want.push_back({V3(cB + RB * V3(sx * 0.3, -0.2, -0.25)), V3::UnitZ(), g});
    check_points(collide<double>(A, XA, B, XB, kMargin), want, rig.G);
  }
  SECTION("an edge across an edge, apart and sunk: one point on the crossing") {
    // A turned by 45 degrees about x: its top edge runs along x at y = (b1 - c1)/sqrt2, z =
    // (b1 + c1)/sqrt2. B turned by 45 degrees about y: its bottom edge runs along y at x = xB +
    // (a2 - c2)/sqrt2, z = zB - (a2 + c2)/sqrt2. Gap: the difference of the two heights.
    for (double g : {0.07, -0.01}) {
      const Transform<double> XA2 = rig.put(A, rot<double>(V3::UnitX(), M_PI / 4), V3::Zero());
      const double top = (0.5 + 0.4) * kS2, xB = 0.05, zB = top + (0.3 + 0.25) * kS2 + g;
      const Transform<double> XB = rig.put(B, rot<double>(V3::UnitY(), M_PI / 4), V3(xB, 0.0, zB));
      const V3 cross_point(xB + (0.3 - 0.25) * kS2, (0.5 - 0.4) * kS2, zB - (0.3 + 0.25) * kS2);
      INFO("gap " << g);
      check_points(collide<double>(A, XA2, B, XB, kMargin), {{cross_point, V3::UnitZ(), g}}, rig.G);
    }
  }
}

TEST_CASE("contact geometry: box-capsule lying, overhanging, standing, across an edge", "[contact_geometry]") {
  Rig<double> rig(18);
  Box<double> A;
  A.half_extents = V3(0.6, 0.5, 0.4);
  const Transform<double> XA = rig.put(A, Mat3<double>::Identity(), V3::Zero());
  Capsule<double> C;
  C.half_length = 0.3;
  C.radius = 0.1;
  const Mat3<double> along_x = rot<double>(V3::UnitY(), M_PI / 2);
  SECTION("lying along x on the top face at gap g (and sunk): both ends of the core") {
    for (double g : {0.05, -0.03}) {
      const Transform<double> XC = rig.put(C, along_x, V3(0.1, 0.2, 0.5 + g));
      check_points(collide<double>(A, XA, C, XC, kMargin),
                   {{V3(-0.2, 0.2, 0.4 + g), V3::UnitZ(), g}, {V3(0.4, 0.2, 0.4 + g), V3::UnitZ(), g}}, rig.G);
    }
  }
  SECTION("lying over the face's edge x = 0.6: the core clipped there") {
    const Transform<double> XC = rig.put(C, along_x, V3(0.5, 0.0, 0.52));
    check_points(collide<double>(A, XA, C, XC, kMargin),
                 {{V3(0.2, 0, 0.42), V3::UnitZ(), 0.02}, {V3(0.6, 0, 0.42), V3::UnitZ(), 0.02}}, rig.G);
  }
  SECTION("standing on the face: the lower end") {
    const Transform<double> XC = rig.put(C, Mat3<double>::Identity(), V3(0.2, 0.1, 0.4 + 0.3 + 0.1 + 0.04));
    check_points(collide<double>(A, XA, C, XC, kMargin), {{V3(0.2, 0.1, 0.44), V3::UnitZ(), 0.04}}, rig.G);
  }
  SECTION("across the box's top edge (A turned 45 degrees about y), at right angles: one point") {
    // A's top edge runs along y at x = (c - a)/sqrt2, z = (a + c)/sqrt2; the core runs along x at
    // height zc over it (from 0.25 before the edge to 0.35 after, so the edge is its closest
    // feature): distance zc - (a + c)/sqrt2 - r, at the crossing.
    const Transform<double> XA2 = rig.put(A, rot<double>(V3::UnitY(), M_PI / 4), V3::Zero());
    const double x = (0.4 - 0.6) * kS2, top = (0.6 + 0.4) * kS2, zc = top + 0.25;
    const Transform<double> XC = rig.put(C, along_x, V3(x + 0.05, 0.1, zc));
    check_points(collide<double>(A, XA2, C, XC, kMargin), {{V3(x, 0.1, zc - 0.1), V3::UnitZ(), 0.15}}, rig.G);
  }
}

// ---------------------------------------------------------------------------------------------
// b-d. Random pairs: invariance, symmetry, true distance.
// ---------------------------------------------------------------------------------------------

namespace {

// A random sphere, box or capsule (kind 0, 1, 2) on body `body` whose frame is placed at world
// (Rot, c) through a random body pose; sizes in [0.15, 0.6].
template <class S> struct Placed {
  Shape<S> shape;
  Transform<S> X;
};
template <class S> Placed<S> random_shape(cases::Rng& rng, int kind, int body, const Vec3<S>& c) {
  const Transform<S> desired = frame_pose<S>(random_rotation<S>(rng), c);
  const Transform<S> X = random_transform<S>(rng);
  const Transform<S> pose = desired * X.inverse();
  auto size = [&] { return S(rng.uniform(0.15, 0.6)); };
  if (kind == 0) return {Sphere<S>{body, pose, size(), "s"}, X};
  if (kind == 1) return {Box<S>{body, pose, Vec3<S>(size(), size(), size()), "b"}, X};
  const S h = size();
  return {Capsule<S>{body, pose, h, S(size() / S(2)), "c"}, X};
}

template <class S> ContactSet<S> query(const Placed<S>& a, const Placed<S>& b, const S& margin) {
  return collide<S>(a.shape, a.X, b.shape, b.X, margin);
}

// The radius a shape's core is grown by (0 for a box).
template <class S> S grown_radius(const Shape<S>& x) {
  return std::visit(
      [](const auto& y) -> S {
        using T = std::decay_t<decltype(y)>;
        if constexpr (std::is_same_v<T, Sphere<S>> || std::is_same_v<T, Capsule<S>>) return y.radius;
        else return S(0);
      },
      x);
}

// Two random shapes of the given kinds, b's centre at a random direction from a's, between 0
// and `spread` away: some apart, some overlapping. Pairs whose cores (a sphere's centre, a
// capsule's segment, a box) come within 0.05 of each other are drawn again: where the normal is
// the direction of a difference of length delta, it carries an error of ~eps |x| / delta, an
// ill-conditioning of the problem (the direction between two nearly coincident points), not of
// the code, and at delta >= 0.05 it stays below kTol.
template <class S> std::pair<Placed<S>, Placed<S>> random_pair(cases::Rng& rng, int ka, int kb, double spread) {
  for (;;) {
    const Vec3<S> ca = random_point<S>(rng, 1);
    const V3 u = rng.unit_vector();
    const Vec3<S> cb = ca + S(rng.uniform(0, spread)) * Vec3<S>(S(u.x()), S(u.y()), S(u.z()));
    std::pair<Placed<S>, Placed<S>> out{random_shape<S>(rng, ka, 0, ca), random_shape<S>(rng, kb, 1, cb)};
    const S core = query(out.first, out.second, S(0)).distance + grown_radius(out.first.shape) + grown_radius(out.second.shape);
    if (abs_(core) >= S(0.05)) return out;
  }
}

// Scenes with several points (faces and lines in contact), placed by a random motion: a box on a
// box turned about the common normal, a box on the ground, a capsule on a box, two parallel
// capsules, each with a small gap or overlap g.
template <class S> std::pair<Placed<S>, Placed<S>> resting_pair(cases::Rng& rng, int which, const S& g) {
  const Motion<S> G = random_motion<S>(rng);
  auto put = [&](Shape<S> x, const Mat3<S>& Rot, const Vec3<S>& c, int body) {
    const Transform<S> X = random_transform<S>(rng);
    std::visit([&](auto& y) { y.body = body; y.pose = moved(frame_pose<S>(Rot, c), G) * X.inverse(); }, x);
    return Placed<S>{x, X};
  };
  const Mat3<S> I = Mat3<S>::Identity(), turn = rot<S>(Vec3<S>::UnitZ(), S(0.4));
  const Mat3<S> along_x = rot<S>(Vec3<S>::UnitY(), pi_<S>() / S(2));
  const Box<S> big{-1, {}, Vec3<S>(S(0.6), S(0.5), S(0.4)), "big"}, small{-1, {}, Vec3<S>(S(0.3), S(0.2), S(0.25)), "small"};
  const Capsule<S> cap{-1, {}, S(0.3), S(0.1), "cap"};
  switch (which) {
    case 0: return {put(big, I, Vec3<S>::Zero(), 0), put(small, turn, Vec3<S>(S(0.1), S(0), S(0.65) + g), 1)};
    case 1: return {put(Plane<S>{}, I, Vec3<S>::Zero(), -1), put(small, turn, Vec3<S>(S(0), S(0), S(0.25) + g), 1)};
    case 2: return {put(big, I, Vec3<S>::Zero(), 0), put(cap, along_x, Vec3<S>(S(0), S(0.1), S(0.5) + g), 1)};
    default: return {put(cap, along_x, Vec3<S>::Zero(), 0), put(cap, along_x, Vec3<S>(S(0.2), S(0), S(0.2) + g), 1)};
  }
}

// The largest difference between two contact sets after moving the first by G: the pair
// distances, and each point of the first against its nearest counterpart in the second (|G p1 -
// p2|, |Q n1 - n2|, |d1 - d2|); 1 if the counts differ. Unordered: a face contact's corners may
// come in another order.
template <class S> S moved_difference(const ContactSet<S>& one, const ContactSet<S>& two, const Motion<S>& G) {
  if (one.points.size() != two.points.size()) return S(1);
  S e = abs_(S(one.distance - two.distance));
  for (const ContactPoint<S>& p : one.points) {
    S nearest = S(1);
    for (const ContactPoint<S>& q : two.points) {
      S x = S((G.point(p.point) - q.point).cwiseAbs().maxCoeff());
      x = std::max<S>(x, S((G.dir(p.normal) - q.normal).cwiseAbs().maxCoeff()));
      x = std::max<S>(x, abs_(S(p.distance - q.distance)));
      nearest = std::min<S>(nearest, x);
    }
    e = std::max<S>(e, nearest);
  }
  return e;
}

// Invariance of one pair under a random motion. Base-fixed shapes (body -1) are moved through
// their shape pose: the base's own pose is the identity by definition.
template <class S> S invariance_error(cases::Rng& rng, const Placed<S>& a, const Placed<S>& b, const S& margin) {
  const Motion<S> G = random_motion<S>(rng);
  auto move = [&](const Placed<S>& x) {
    Placed<S> y = x;
    const int body = std::visit([](const auto& z) { return z.body; }, x.shape);
    if (body >= 0)
      y.X = moved(x.X, G);
    else  // world = c + R x through the pose alone (X is the identity... or any: pose * X moves by G)
      std::visit([&](auto& z) { z.pose = moved(Transform<S>(z.pose * x.X), G) * x.X.inverse(); }, y.shape);
    return y;
  };
  return moved_difference<S>(query(a, b, margin), query(move(a), move(b), margin), G);
}

}  // namespace

TEST_CASE("contact geometry: invariance under a rigid motion of both shapes (double and Reference)", "[contact_geometry]") {
  cases::Rng rng(21);
  SECTION("double: random pairs of every kind, and resting scenes with 2 to 8 points") {
    // Tolerance kTol: the header's.
    for (int ka = 0; ka < 3; ++ka)
      for (int kb = 0; kb < 3; ++kb)
        for (int trial = 0; trial < 8; ++trial) {
          const auto [a, b] = random_pair<double>(rng, ka, kb, 1.6);
          INFO("kinds " << ka << " " << kb << " trial " << trial);
          const double e = invariance_error<double>(rng, a, b, kMargin);
          INFO("error " << e << " points " << query(a, b, kMargin).points.size() << " distance " << query(a, b, kMargin).distance);
          CHECK(e <= kTol);
        }
    for (int which = 0; which < 4; ++which)
      for (double g : {0.03, 0.0, -0.02}) {
        const auto [a, b] = resting_pair<double>(rng, which, g);
        INFO("scene " << which << " gap " << g << ": " << query(a, b, kMargin).points.size() << " points");
        CHECK(query(a, b, kMargin).points.size() >= 2);
        CHECK(invariance_error<double>(rng, a, b, kMargin) <= kTol);
      }
  }
  SECTION("Reference: to 1e-40") {
    const R margin("1e-30");  // above Reference's round-off as kMargin is above double's
    for (int ka = 0; ka < 3; ++ka)
      for (int kb = 0; kb < 3; ++kb) {
        const auto [a, b] = random_pair<R>(rng, ka, kb, 1.6);
        INFO("kinds " << ka << " " << kb);
        CHECK(invariance_error<R>(rng, a, b, margin) <= kTolR);
      }
    for (int which = 0; which < 4; ++which) {
      const auto [a, b] = resting_pair<R>(rng, which, R(0));
      INFO("scene " << which);
      CHECK(query(a, b, margin).points.size() >= 2);
      CHECK(invariance_error<R>(rng, a, b, margin) <= kTolR);
    }
  }
}

namespace {

// Each point of `one` has its mirror in `two`: the same pair of witness points the other way
// round, the normal reversed, the same distance (unordered: a face contact may be clipped from
// either face, which gives the same polygon in another order).
void check_mirror(const ContactSet<double>& one, const ContactSet<double>& two) {
  CHECK(std::abs(one.distance - two.distance) <= kTol);
  REQUIRE(one.points.size() == two.points.size());
  for (const auto& p : one.points) {
    bool found = false;
    for (const auto& q : two.points)
      found = found || ((q.point - p.on_a()).norm() <= kTol && (q.normal + p.normal).norm() <= kTol &&
                        std::abs(q.distance - p.distance) <= kTol);
    INFO("point " << p.point.transpose() << " normal " << p.normal.transpose() << " distance " << p.distance);
    CHECK(found);
  }
}

}  // namespace

TEST_CASE("contact geometry: swapping the pair reverses the normals and keeps the distances", "[contact_geometry]") {
  // For sphere-sphere, capsule-capsule and box-box the two orders run the same code on swapped
  // data; for the other pairs collide() turns one order round (contact_set.hpp's flipped).
  cases::Rng rng(22);
  for (int ka = 0; ka < 3; ++ka)
    for (int kb = 0; kb < 3; ++kb)
      for (int trial = 0; trial < 8; ++trial) {
        const auto [a, b] = random_pair<double>(rng, ka, kb, 1.6);
        INFO("kinds " << ka << " " << kb << " trial " << trial);
        for (const auto& p : query(b, a, kMargin).points) INFO("swapped: " << p.point.transpose() << " / " << p.normal.transpose() << " / " << p.distance);
        check_mirror(query(a, b, kMargin), query(b, a, kMargin));
      }
  for (int which = 0; which < 4; ++which)
    for (double g : {0.03, -0.02}) {
      const auto [a, b] = resting_pair<double>(rng, which, g);
      INFO("scene " << which << " gap " << g);
      check_mirror(query(a, b, kMargin), query(b, a, kMargin));
    }
}

namespace {

// ---- independent descriptions of the shapes: signed distance, support radius, surface samples ----

struct World {  // a shape in world coordinates
  int kind;     // 0 sphere, 1 box, 2 capsule
  Frame<double> F;
  V3 h;         // box: half extents; capsule: (0, 0, half length)
  double r = 0;  // sphere, capsule radius
};

World world_of(const Placed<double>& x) {
  return std::visit(
      [&](const auto& y) -> World {
        using T = std::decay_t<decltype(y)>;
        const Frame<double> F = frame_of(y.pose, x.X);
        if constexpr (std::is_same_v<T, Sphere<double>>) return World{0, F, V3::Zero(), y.radius};
        else if constexpr (std::is_same_v<T, Box<double>>) return World{1, F, y.half_extents, 0};
        else if constexpr (std::is_same_v<T, Capsule<double>>) return World{2, F, V3(0, 0, y.half_length), y.radius};
        else return World{-1, F, V3::Zero(), 0};
      },
      x.shape);
}

// Signed distance of the point x from the shape's surface (negative inside).
double sdf(const World& w, const V3& x) {
  const V3 p = w.F.R.transpose() * (x - w.F.c);
  if (w.kind == 0) return p.norm() - w.r;
  if (w.kind == 2) return V3(p.x(), p.y(), p.z() - std::clamp(p.z(), -w.h.z(), w.h.z())).norm() - w.r;
  const V3 q = p.cwiseAbs() - w.h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

// Half the length of the shape's projection on the unit v (its support about the centre).
double support(const World& w, const V3& v) {
  const V3 l = w.F.R.transpose() * v;
  if (w.kind == 0) return w.r;
  if (w.kind == 2) return w.h.z() * std::abs(l.z()) + w.r;
  return w.h.cwiseProduct(l.cwiseAbs()).sum();
}

// Points of the surface within `cover` of every surface point (each grid's half-diagonal in arc
// length): spheres and caps by latitude-longitude grids (a point is within r dtheta / 2 of the
// nearest latitude and then r dphi / 2 along it), the cylinder by rings, faces by grids.
std::vector<V3> surface_samples(const World& w, double res, double& cover) {
  std::vector<V3> out;
  cover = 0;
  const double pi = M_PI;
  auto ball = [&](const V3& c, double r, double theta_max, const V3& up_sign) {
    const int nt = std::max(2, static_cast<int>(std::ceil(theta_max * r / res))), np = std::max(4, static_cast<int>(std::ceil(2 * pi * r / res)));
    for (int i = 0; i <= nt; ++i)
      for (int j = 0; j < np; ++j) {
        const double t = theta_max * i / nt, f = 2 * pi * j / np;
        out.push_back(w.F.to_world(V3(c + r * V3(std::sin(t) * std::cos(f), std::sin(t) * std::sin(f), up_sign.z() * std::cos(t)))));
      }
    cover = std::max(cover, r * (theta_max / nt + 2 * pi / np) / 2);
  };
  if (w.kind == 0) ball(V3::Zero(), w.r, pi, V3::UnitZ());
  if (w.kind == 2) {
    ball(V3(0, 0, w.h.z()), w.r, pi / 2, V3::UnitZ());
    ball(V3(0, 0, -w.h.z()), w.r, pi / 2, -V3::UnitZ());
    const int nz = static_cast<int>(std::ceil(2 * w.h.z() / res)), np = static_cast<int>(std::ceil(2 * pi * w.r / res));
    for (int i = 0; i <= nz; ++i)
      for (int j = 0; j < np; ++j) {
        const double f = 2 * pi * j / np;
        out.push_back(w.F.to_world(V3(w.r * std::cos(f), w.r * std::sin(f), -w.h.z() + 2 * w.h.z() * i / nz)));
      }
    cover = std::max(cover, w.h.z() / nz + w.r * pi / np);
  }
  if (w.kind == 1)
    for (int k = 0; k < 3; ++k)
      for (double sgn : {-1.0, 1.0}) {
        const int a = (k + 1) % 3, b = (k + 2) % 3;
        const int na = static_cast<int>(std::ceil(2 * w.h[a] / res)), nb = static_cast<int>(std::ceil(2 * w.h[b] / res));
        for (int i = 0; i <= na; ++i)
          for (int j = 0; j <= nb; ++j) {
            V3 p;
            p[k] = sgn * w.h[k];
            p[a] = -w.h[a] + 2 * w.h[a] * i / na;
            p[b] = -w.h[b] + 2 * w.h[b] * j / nb;
            out.push_back(w.F.to_world(p));
          }
        cover = std::max(cover, w.h[a] / na + w.h[b] / nb);
      }
  return out;
}

// max over unit v of |v . (cb - ca)| - support_a(v) - support_b(v): for two convex shapes
// symmetric about their centres, the gap between their projections on v, which peaks at the
// Euclidean distance when they are apart (a separating plane) and at minus the penetration depth
// when they overlap (the least translation that parts them). Any v gives a lower bound; the
// largest of ~20000 near-uniform directions (a Fibonacci lattice) is refined by a pattern search
// that halves its step down to 1e-12 rad. (The gap has kinks where v is perpendicular to an
// edge or a core, and its peak is often at one, where the search can stall short of it: the
// result is a lower bound, used as one.)
double gap_along(const World& a, const World& b, const V3& v) {
  return std::abs(v.dot(b.F.c - a.F.c)) - support(a, v) - support(b, v);
}
double projection_gap(const World& a, const World& b) {
  auto gap = [&](const V3& v) { return gap_along(a, b, v); };
  const int N = 20000;
  V3 best = V3::UnitZ();
  double g = gap(best);
  const double golden = M_PI * (3 - std::sqrt(5.0));
  for (int i = 0; i < N; ++i) {
    const double z = 1 - 2 * (i + 0.5) / N, rr = std::sqrt(1 - z * z);
    const V3 v(rr * std::cos(golden * i), rr * std::sin(golden * i), z);
    if (gap(v) > g) g = gap(v), best = v;
  }
  for (double step = 0.05; step > 1e-12; step /= 2)
    for (bool improved = true; improved;) {
      improved = false;
      const V3 e1 = any_perpendicular<double>(best), e2 = best.cross(e1);
      for (const V3& dv : {e1, V3(-e1), e2, V3(-e2), V3(e1 + e2), V3(e1 - e2), V3(-e1 + e2), V3(-e1 - e2)}) {
        const V3 v = (best + step * dv).normalized();
        if (gap(v) > g) g = gap(v), best = v, improved = true;
      }
    }
  return g;
}

}  // namespace

TEST_CASE("contact geometry: the distance is a true distance", "[contact_geometry]") {
  cases::Rng rng(23);
  SECTION("separated pairs: brute-force sampling of both surfaces") {
    // Every pair of surface samples is at least the distance apart (to round-off, 1e-12); the
    // closest pair of samples is within cover_a + cover_b of the true closest pair (each true
    // witness has a sample within its shape's cover), so the sampled minimum exceeds the
    // distance by at most the sum of the covers.
    for (int ka = 0; ka < 3; ++ka)
      for (int kb = ka; kb < 3; ++kb)
        for (int tested = 0; tested < 4;) {
          const auto [a, b] = random_pair<double>(rng, ka, kb, 2.0);
          const ContactSet<double> got = query(a, b, kMargin);
          if (!(got.distance > 0.02)) continue;
          ++tested;
          const World wa = world_of(a), wb = world_of(b);
          double ca = 0, cb = 0;
          const std::vector<V3> sa = surface_samples(wa, 0.04, ca), sb = surface_samples(wb, 0.04, cb);
          double best = std::numeric_limits<double>::infinity();
          for (const V3& p : sa)
            for (const V3& q : sb) best = std::min(best, (p - q).squaredNorm());
          best = std::sqrt(best);
          INFO("kinds " << ka << " " << kb << ": distance " << got.distance << ", sampled " << best << ", covers " << ca
                        << " " << cb);
          CHECK(best >= got.distance - kTol);
          CHECK(best <= got.distance + ca + cb);
        }
  }
  SECTION("every pair, apart or overlapping: the largest gap between projections, and the witnesses") {
    // No direction's gap exceeds the distance: the sampled-and-refined maximum is <= distance +
    // 1e-12 (round-off). The distance is attained: the gap along the reported normal is >=
    // distance - 1e-12. (Together: the distance is the maximum over directions, i.e. the true
    // signed distance, to the search's resolution on one side and exactly on the other.) The
    // witness points: on a's and b's surfaces (|sdf| <= 1e-12) for a single point; for several,
    // inside or on each solid (a corner of a contact area cut by a face's side plane is on the
    // surface; a capsule's clipped core point lowered by r along a face normal is on the ball
    // around it, inside the capsule), none nearer than the pair's distance.
    for (int ka = 0; ka < 3; ++ka)
      for (int kb = 0; kb < 3; ++kb)
        for (int trial = 0; trial < 10; ++trial) {
          const auto [a, b] = random_pair<double>(rng, ka, kb, 1.2);
          const ContactSet<double> got = query(a, b, kMargin);
          const World wa = world_of(a), wb = world_of(b);
          const double g = projection_gap(wa, wb);
          double attained = -std::numeric_limits<double>::infinity();
          for (const auto& p : got.points) attained = std::max(attained, gap_along(wa, wb, p.normal));
          INFO("kinds " << ka << " " << kb << " trial " << trial << ": distance " << got.distance << ", projections " << g
                        << ", along the normal " << attained);
          CHECK(g <= got.distance + kTol);
          CHECK(attained >= got.distance - kTol);
          for (const auto& p : got.points) {
            INFO("point " << p.point.transpose() << " sdf_b " << sdf(wb, p.point) << " sdf_a " << sdf(wa, p.on_a()));
            if (got.points.size() == 1) {
              CHECK(std::abs(sdf(wb, p.point)) <= kTol);
              CHECK(std::abs(sdf(wa, p.on_a())) <= kTol);
              CHECK(std::abs(p.distance - got.distance) <= kTol);
            } else {
              CHECK(sdf(wb, p.point) <= kTol);
              CHECK(sdf(wa, p.on_a()) <= kTol);
              CHECK(p.distance >= got.distance - kTol);
            }
            CHECK(std::abs(p.normal.norm() - 1) <= kTol);
          }
        }
  }
}

// ---------------------------------------------------------------------------------------------
// e. Reference.
// ---------------------------------------------------------------------------------------------

TEST_CASE("contact geometry: an edge across an edge in Reference, to 40 digits", "[contact_geometry]") {
  // The box-box scene of the closed forms above in Reference, with pi and sqrt(1/2) in 50 digits:
  // A (0.6, 0.5, 0.4) turned by pi/4 about x, B (0.3, 0.2, 0.25) turned by pi/4 about y, gap g.
  const R s2 = sqrt_(R(0.5)), g("0.07"), xB("0.05");
  Box<R> A{0, {}, Vec3<R>(R("0.6"), R("0.5"), R("0.4")), "A"}, B{1, {}, Vec3<R>(R("0.3"), R("0.2"), R("0.25")), "B"};
  const R top = (R("0.5") + R("0.4")) * s2, zB = top + (R("0.3") + R("0.25")) * s2 + g;
  const Transform<R> XA = frame_pose<R>(rot<R>(Vec3<R>::UnitX(), pi_<R>() / R(4)), Vec3<R>::Zero());
  const Transform<R> XB = frame_pose<R>(rot<R>(Vec3<R>::UnitY(), pi_<R>() / R(4)), Vec3<R>(xB, R(0), zB));
  const ContactSet<R> got = collide<R>(A, XA, B, XB, R("1e-30"));
  REQUIRE(got.points.size() == 1);
  const Vec3<R> want(xB + (R("0.3") - R("0.25")) * s2, (R("0.5") - R("0.4")) * s2, zB - (R("0.3") + R("0.25")) * s2);
  CHECK(abs(R(got.distance - g)) <= kTolR);
  CHECK(abs(R(got.points[0].distance - g)) <= kTolR);
  CHECK((got.points[0].point - want).cwiseAbs().maxCoeff() <= kTolR);
  CHECK((got.points[0].normal - Vec3<R>::UnitZ()).cwiseAbs().maxCoeff() <= kTolR);
}

// ---------------------------------------------------------------------------------------------
// f. PointContacts from geometry.
// ---------------------------------------------------------------------------------------------

namespace {

// Free bodies under gravity (0, 0, -9.81), each with its centre of mass at its origin; q per body
// is [quaternion w x y z; position] (model/joint.hpp's Free joint).
Model<double> free_bodies(int n, double mass, const Mat3<double>& Ic) {
  ModelBuilder b("free bodies");
  b.gravity(V3(0, 0, -9.81));
  Joint<double> j;
  j.type = JointType::Free;
  for (int i = 0; i < n; ++i) b.add_body("body " + std::to_string(i), -1, j, Transform<double>{}, mass, V3::Zero(), Ic);
  return b.finish();
}

std::vector<Transform<double>> frames_at(const Model<double>& m, const VecX<double>& q) {
  Workspace<double> ws(m);
  simulation::body_frames<double>(m, q, ws.jk, ws.X0);
  return ws.X0;
}

}  // namespace

TEST_CASE("contact geometry: PointContacts from geometry", "[contact_geometry]") {
  SECTION("phi of every converted contact, by the suite's contact_gaps, equals the query's distance") {
    // Two free bodies at a random q: a box on body 0, a sphere and a capsule on body 1, a plane on
    // the base. Pairs: ground-box (p = base), box-sphere (p = 0, s = 1), capsule-ground (b on the
    // base: turned round so that s = 1), box-capsule. phi = n . C' - offset is the distance by
    // construction, through two changes of coordinates: 1e-12 (the header's).
    const Model<double> m = free_bodies(2, 1.0, Mat3<double>::Identity() * 0.1);
    cases::Rng rng(31);
    VecX<double> q(14);
    for (int i = 0; i < 2; ++i) {
      const Eigen::Vector4d u = rng.unit_quaternion();
      q.segment<4>(7 * i) = u;
      q.segment<3>(7 * i + 4) = V3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.5, 1.5));
    }
    const std::vector<Transform<double>> X0 = frames_at(m, q);
    const Transform<double> base{};
    const Plane<double> ground{-1, random_transform<double>(rng), V3(0.6, 0, 0.8), 0.1, "ground"};
    const Box<double> box{0, random_transform<double>(rng), V3(0.3, 0.2, 0.4), "box"};
    const Sphere<double> ball{1, random_transform<double>(rng), 0.25, "ball"};
    const Capsule<double> cap{1, random_transform<double>(rng), 0.3, 0.1, "cap"};
    PointContacts<double> contacts;
    std::vector<double> want;
    auto add = [&](const auto& a, const auto& b) {
      const Transform<double>& Xa = a.body < 0 ? base : X0[static_cast<std::size_t>(a.body)];
      const Transform<double>& Xb = b.body < 0 ? base : X0[static_cast<std::size_t>(b.body)];
      const ContactSet<double> set = collide<double>(Shape<double>(a), Xa, Shape<double>(b), Xb, kMargin);
      const PointContacts<double> c = to_point_contacts(set, a, Xa, b, Xb);
      REQUIRE(c.size() == set.points.size());
      for (std::size_t k = 0; k < c.size(); ++k) {
        contacts.push_back(c[k]);
        want.push_back(set.points[k].distance);
        CHECK(c[k].s >= 0);
        CHECK(c[k].p != c[k].s);
      }
    };
    add(ground, box);
    add(box, ball);
    add(cap, ground);
    add(box, cap);
    // Bodies, unit normals, finite numbers, and (with a friction coefficient set, as the friction
    // family would) a tangent t1 that is unit and perpendicular to the normal: throws otherwise.
    for (PointContact<double>& c : contacts) c.friction = 0.5;
    validate_contacts(m, contacts);
    Workspace<double> ws(m);
    VecX<double> phi;
    simulation::contact_gaps<double>(m, contacts, q, ws, phi);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
      INFO(contacts[k].name << ": p " << contacts[k].p << ", s " << contacts[k].s);
      CHECK(std::abs(phi[static_cast<Eigen::Index>(k)] - want[k]) <= kTol);
    }
  }
  SECTION("the contact family on geometry-derived contacts: a box on the ground, a box on a box") {
    // A box (mass 2, half sizes 0.15, 0.1, 0.25) at rest on its face, turned by 0.6 about the
    // vertical, first on the ground plane, then on a fixed box (0.4, 0.3, 0.2) whose top face is
    // at the same height. Its four corners come from the geometry; the LCP must carry the weight:
    // sum(lambda) = m g, no net moment about the centre, qdd = 0. The four normals are dependent
    // (coplanar points, parallel normals), so lambda is not unique; Lemke still gives a solution.
    // Tolerance 1e3 eps, as test_contact_dynamics.cpp's box on four corners (the same problem).
    const double mass = 2, a = 0.15, b = 0.1, c = 0.25, g = 9.81, eps = std::numeric_limits<double>::epsilon();
    const Mat3<double> Ic = V3(mass / 3 * (b * b + c * c), mass / 3 * (a * a + c * c), mass / 3 * (a * a + b * b)).asDiagonal();
    const Model<double> m = free_bodies(1, mass, Ic);
    VecX<double> q(7);
    q << std::cos(0.3), 0, 0, std::sin(0.3), 0.1, -0.2, c + 0.2;
    const Transform<double> X = frames_at(m, q)[0], base{};
    const Box<double> box{0, {}, V3(a, b, c), "box"};
    Plane<double> ground{-1, {}, V3::UnitZ(), 0.2, "ground"};
    Box<double> table{-1, frame_pose<double>(rot<double>(V3::UnitZ(), -0.3), V3(0.05, -0.1, 0.0)), V3(0.4, 0.3, 0.2), "table"};
    for (int which = 0; which < 2; ++which) {
      const ContactSet<double> set = which == 0 ? collide<double>(Shape<double>(ground), base, Shape<double>(box), X, kMargin)
                                                : collide<double>(Shape<double>(table), base, Shape<double>(box), X, kMargin);
      REQUIRE(set.points.size() == 4);
      const PointContacts<double> cs = which == 0 ? to_point_contacts(set, ground, base, box, X) : to_point_contacts(set, table, base, box, X);
      ContactWorkspace<double> ws(m);
      VecX<double> qdd;
      const VecX<double> zero = VecX<double>::Zero(6);
      ContactLemke::run<double>(m, cs, q, zero, zero, nullptr, qdd, ws);
      INFO((which == 0 ? "on the ground" : "on the table") << ": lambda " << ws.lambda.transpose() << ", qdd " << qdd.transpose());
      CHECK(qdd.cwiseAbs().maxCoeff() <= 1e3 * eps * g);
      CHECK(std::abs(ws.lambda.sum() - mass * g) <= 1e3 * eps * mass * g);
      double mx = 0, my = 0;
      for (int i = 0; i < 4; ++i) {
        mx += ws.lambda[i] * cs[static_cast<std::size_t>(i)].point[1];
        my += ws.lambda[i] * cs[static_cast<std::size_t>(i)].point[0];
        CHECK(ws.lambda[i] >= -1e3 * eps * mass * g);
      }
      CHECK(std::abs(mx) <= 1e3 * eps * mass * g);
      CHECK(std::abs(my) <= 1e3 * eps * mass * g);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// g. The minimal-set rule (section 11.6, Figure 11.7) and NNLS.
// ---------------------------------------------------------------------------------------------

TEST_CASE("contact geometry: NNLS on closed forms", "[contact_geometry]") {
  // Residuals and solutions to 1e-14: a handful of roundings on numbers of order 1.
  auto solve = [](const MatX<double>& A, const VecX<double>& b) {
    const NnlsResult<double> r = nnls<double>(A, b);
    CHECK(r.converged);
    return r;
  };
  {  // b inside the cone of the columns: exact fit.
    MatX<double> A(3, 3);
    A << 1, 0, 1, 0, 1, 1, 0, 0, 1;
    const NnlsResult<double> r = solve(A, Eigen::Vector3d(2, 3, 0));
    CHECK((r.x - Eigen::Vector3d(2, 3, 0)).norm() <= 1e-14);
    CHECK(r.residual <= 1e-14);
  }
  {  // the unconstrained solution (-1, 1) is infeasible: x = (0, 1/2), residual 1 (by hand:
     // column 2 alone fits (1, -1) by 1/2 with residual |(0, -1)|; column 1 alone is
     // perpendicular to b).
    MatX<double> A(2, 2);
    A << 1, 2, 1, 0;
    const NnlsResult<double> r = solve(A, Eigen::Vector2d(1, -1));
    CHECK((r.x - Eigen::Vector2d(0, 0.5)).norm() <= 1e-14);
    CHECK(std::abs(r.residual - 1) <= 1e-14);
  }
  {  // identity, b with a negative entry: that entry is cut to 0.
    const NnlsResult<double> r = solve(MatX<double>::Identity(3, 3), Eigen::Vector3d(1, -2, 3));
    CHECK((r.x - Eigen::Vector3d(1, 0, 3)).norm() <= 1e-14);
    CHECK(std::abs(r.residual - 2) <= 1e-14);
  }
}

namespace {

// A contact set of points with normals (the points on b, normals from a); each point's distance
// is its index, a label that survivors() reads back.
ContactSet<double> set_of(const std::vector<V3>& points, const std::vector<V3>& normals) {
  ContactSet<double> s{0, {}};
  for (std::size_t k = 0; k < points.size(); ++k)
    s.points.push_back({points[k], normals[k].normalized(), static_cast<double>(k)});
  return s;
}
std::vector<V3> same(std::size_t n, const V3& v) { return std::vector<V3>(n, v); }

// Which of `all` survive, by the labels set_of gave them.
std::vector<int> survivors(const ContactSet<double>& kept) {
  std::vector<int> out;
  for (const auto& p : kept.points) out.push_back(static_cast<int>(p.distance));
  return out;
}

// The contacts of a box of half extents (0.3, 0.2, 0.5) placed at (Rot, c) over the ground z = 0
// of a scene placed by a random motion.
ContactSet<double> box_over_ground(std::uint64_t seed, const Mat3<double>& Rot, const V3& c) {
  Rig<double> rig(seed);
  Plane<double> ground;
  const Transform<double> Xg = rig.put(ground, Mat3<double>::Identity(), V3::Zero());
  Box<double> box;
  box.half_extents = V3(0.3, 0.2, 0.5);
  const Transform<double> Xb = rig.put(box, Rot, c);
  return collide<double>(ground, Xg, box, Xb, kMargin);
}

// The tolerance on the relative NNLS residual: a dependent contact's is round-off (~1e-15), an
// independent one's in these cases is at least ~1e-2 (the smallest is the circle's 24 points: a
// point's wrench is off the cone of its neighbours by about the sagitta 1 - cos(pi / 12) ~ 0.03
// of the radius); 1e-9 sits far from both.
constexpr double kDependent = 1e-9;

}  // namespace

TEST_CASE("contact geometry: the minimal-set rule on Figure 11.7's line and surface contacts", "[contact_geometry]") {
  const V3 z = V3::UnitZ();
  SECTION("(a) an edge on a plane: five points along it, the two ends suffice") {
    const ContactSet<double> s = set_of({V3(-1, 0, 0), V3(-0.5, 0, 0), V3(0, 0, 0), V3(0.5, 0, 0), V3(1, 0, 0)}, same(5, z));
    CHECK(survivors(minimal_contact_set(s, kDependent)) == std::vector<int>{0, 4});
    // A middle point 1e-6 off the line is no longer a combination of the others (its wrench has
    // a moment about the line of 1e-6 that theirs lack): kept, its residual far above round-off.
    const ContactSet<double> off = set_of({V3(-1, 0, 0), V3(0, 1e-6, 0), V3(1, 0, 0)}, same(3, z));
    CHECK(survivors(minimal_contact_set(off, kDependent)) == std::vector<int>{0, 1, 2});
    // And the box on an edge from the geometry keeps both of its points.
    const ContactSet<double> edge = box_over_ground(41, rot<double>(V3::UnitX(), 0.35), V3(0, 0, 0.9));
    REQUIRE(edge.points.size() == 2);
    CHECK(minimal_contact_set(edge, kDependent).points.size() == 2);
  }
  SECTION("(b) an edge on the ruled surface z = x tan(y): every normal differs, none is dropped") {
    // At (0, y, 0) the surface's normal is (-tan y, 0, 1) / |.|; the wrench, scaled to a last
    // component 1, is (y, 0, y tan y, -tan y, 0, 1): the points (y, y tan y) lie on a strictly
    // convex curve, so none is a convex combination of the others.
    std::vector<V3> p, n;
    for (int k = 0; k < 7; ++k) {
      const double y = -0.6 + 0.2 * k;
      p.push_back(V3(0, y, 0));
      n.push_back(V3(-std::tan(y), 0, 1));
    }
    const ContactSet<double> s = set_of(p, n);
    CHECK(minimal_contact_set(s, kDependent).points.size() == 7);
  }
  SECTION("(c) a face whose contact area's hull is a pentagon: its five corners") {
    // A regular pentagon of radius 1, three points inside, two on its edges (midpoints).
    std::vector<V3> p;
    for (int k = 0; k < 5; ++k) p.push_back(V3(std::cos(2 * M_PI * k / 5), std::sin(2 * M_PI * k / 5), 0));
    p.push_back(V3(0.1, 0.2, 0));
    p.push_back(V3(-0.3, 0.1, 0));
    p.push_back(V3(0.2, -0.4, 0));
    p.push_back((p[0] + p[1]) / 2);
    p.push_back((p[2] + p[3]) / 2);
    const ContactSet<double> s = set_of(p, same(p.size(), z));
    CHECK(survivors(minimal_contact_set(s, kDependent)) == std::vector<int>{0, 1, 2, 3, 4});
  }
  SECTION("(d) a disc: the points on its boundary circle stay, those inside go") {
    std::vector<V3> p;
    for (int k = 0; k < 6; ++k) p.push_back(V3(0.5 * std::cos(k), 0.5 * std::sin(k), 0));  // inside
    for (int k = 0; k < 24; ++k) p.push_back(V3(std::cos(2 * M_PI * k / 24), std::sin(2 * M_PI * k / 24), 0));
    const ContactSet<double> s = set_of(p, same(p.size(), z));
    std::vector<int> want;
    for (int k = 6; k < 30; ++k) want.push_back(k);
    CHECK(survivors(minimal_contact_set(s, kDependent)) == want);
  }
  SECTION("a face from the geometry: a box's four corners stay, a redundant middle point goes") {
    ContactSet<double> face = box_over_ground(42, rot<double>(V3::UnitZ(), 0.8), V3(0.1, 0.2, 0.5));
    REQUIRE(face.points.size() == 4);
    CHECK(minimal_contact_set(face, kDependent).points.size() == 4);
    ContactPoint<double> middle = face.points[0];
    middle.point = (face.points[0].point + face.points[1].point + face.points[2].point + face.points[3].point) / 4;
    face.points.insert(face.points.begin() + 2, middle);
    for (std::size_t k = 0; k < face.points.size(); ++k) face.points[k].distance = static_cast<double>(k);  // labels
    CHECK(survivors(minimal_contact_set(face, kDependent)) == std::vector<int>{0, 1, 3, 4});
  }
  SECTION("two identical contacts: one stays; normals that differ (a wedge) all stay") {
    const ContactSet<double> twice = set_of({V3(1, 0, 0), V3(1, 0, 0), V3(-1, 0, 0)}, same(3, z));
    CHECK(survivors(minimal_contact_set(twice, kDependent)) == std::vector<int>{1, 2});
    const ContactSet<double> wedge = set_of({V3(0, 0, 0), V3(0, 0, 0), V3(0, 1, 0)}, {z, V3::UnitX(), V3(1, 0, 1)});
    CHECK(minimal_contact_set(wedge, kDependent).points.size() == 3);
  }
}

// ---------------------------------------------------------------------------------------------
// h. Refusals; the op-counting scalar.
// ---------------------------------------------------------------------------------------------

TEST_CASE("contact geometry: refusals name the shape and the field", "[contact_geometry]") {
  using verify::message_of;
  const Transform<double> I{};
  const Plane<double> ground{-1, {}, V3::UnitZ(), 0, "ground"};
  auto refused = [&](const auto& shape) {
    return message_of<std::invalid_argument>([&] { (void)collide<double>(Shape<double>(ground), I, Shape<double>(shape), I, 0.0); });
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THAT(refused(Sphere<double>{0, {}, 0.0, "ball"}), Catch::Contains("sphere 'ball': radius"));
  CHECK_THAT(refused(Sphere<double>{0, {}, -1.0, "ball"}), Catch::Contains("sphere 'ball': radius"));
  CHECK_THAT(refused(Sphere<double>{0, {}, nan, "ball"}), Catch::Contains("sphere 'ball': radius"));
  CHECK_THAT(refused(Box<double>{0, {}, V3(1, 0, 1), "crate"}), Catch::Contains("box 'crate': half_extents.y"));
  CHECK_THAT(refused(Box<double>{0, {}, V3(1, 1, -2), "crate"}), Catch::Contains("box 'crate': half_extents.z"));
  CHECK_THAT(refused(Capsule<double>{0, {}, -1.0, 0.1, "rod"}), Catch::Contains("capsule 'rod': half_length"));
  CHECK_THAT(refused(Capsule<double>{0, {}, 1.0, 0.0, "rod"}), Catch::Contains("capsule 'rod': radius"));
  Transform<double> bad{};
  bad.r.y() = nan;
  CHECK_THAT(refused(Sphere<double>{0, bad, 1.0, "ball"}), Catch::Contains("sphere 'ball': pose has a non-finite"));
  Transform<double> sheared{};
  sheared.E(0, 1) = 0.1;
  CHECK_THAT(refused(Box<double>{0, sheared, V3(1, 1, 1), "crate"}), Catch::Contains("box 'crate': pose.E is not a rotation"));
  const Sphere<double> ball{0, {}, 1.0, "ball"};
  auto plane_refused = [&](const V3& n, double offset) {
    return message_of<std::invalid_argument>(
        [&] { (void)collide<double>(Shape<double>(Plane<double>{-1, {}, n, offset, "wall"}), I, Shape<double>(ball), I, 0.0); });
  };
  CHECK_THAT(plane_refused(V3::Zero(), 0), Catch::Contains("plane 'wall': normal must be a unit vector"));
  CHECK_THAT(plane_refused(V3(2, 0, 0), 0), Catch::Contains("plane 'wall': normal must be a unit vector"));
  CHECK_THAT(plane_refused(V3(nan, 0, 1), 0), Catch::Contains("plane 'wall': normal/offset has a non-finite"));
  CHECK_THAT(plane_refused(V3::UnitZ(), nan), Catch::Contains("plane 'wall': normal/offset has a non-finite"));
  Transform<double> body{};
  body.r.x() = std::numeric_limits<double>::infinity();
  CHECK_THAT(message_of<std::invalid_argument>([&] { (void)collide<double>(Shape<double>(ground), I, Shape<double>(ball), body, 0.0); }),
             Catch::Contains("sphere 'ball': body pose has a non-finite"));
  CHECK_THAT(message_of<std::invalid_argument>([&] { (void)collide<double>(Shape<double>(ground), I, Shape<double>(ball), I, -1.0); }),
             Catch::Contains("margin must be finite and >= 0"));
  CHECK_THAT(message_of<std::invalid_argument>([&] { (void)collide<double>(Shape<double>(ground), I, Shape<double>(ground), I, 0.0); }),
             Catch::Contains("two planes have no contact points"));
  const ContactSet<double> set = collide<double>(Shape<double>(ground), I, Shape<double>(ball), I, 0.0);
  CHECK_THAT(message_of<std::invalid_argument>([&] { (void)to_point_contacts(set, -1, I, -1, I, "x"); }),
             Catch::Contains("both shapes are on body -1"));
  CHECK_THAT(message_of<std::invalid_argument>([&] { (void)positively_independent<double>(MatX<double>::Identity(6, 2), 0.0); }),
             Catch::Contains("tol must be finite and > 0"));
}

TEST_CASE("contact geometry: the queries run in the op-counting scalar", "[contact_geometry]") {
  // The same arithmetic on a double inside, counted: the distances agree with double's (to 1e-12:
  // Eigen may order a double dot product differently from the counted one), and each query costs
  // a positive number of operations.
  cases::Rng rng(51);
  for (int ka = 0; ka < 3; ++ka)
    for (int kb = 0; kb < 3; ++kb) {
      const auto [a, b] = random_pair<double>(rng, ka, kb, 1.6);
      auto to_counted = [](const Placed<double>& x) {
        return Placed<Counted>{std::visit([](const auto& y) { return Shape<Counted>(cast_shape<Counted>(y)); }, x.shape),
                               x.X.cast<Counted>()};
      };
      const Placed<Counted> ac = to_counted(a), bc = to_counted(b);
      const OpCounts before = op_counter();
      const ContactSet<Counted> got = query<Counted>(ac, bc, Counted(kMargin));
      const OpCounts used = op_counter() - before;
      INFO("kinds " << ka << " " << kb << ": " << used.m() << " m, " << used.a() << " a");
      CHECK(std::abs(got.distance.value() - query(a, b, kMargin).distance) <= kTol);
      CHECK(used.m() > 0);
    }
}

}  // namespace test_contact_geometry
