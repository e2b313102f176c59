#pragma once
// Denavit-Hartenberg body frames for the optimised variants of Featherstone section 10.3.1
// (optimisations 1-3): a precomputed "DH view" of a general Model, built once per model
// (Workspace::resize) and read by crba_dh, rnea_dh, aba_dh.
//
// The idea (section 4.3, Figure 4.8, App. A.4): the joint-space quantities (H, tau, qdd) do
// not depend on where each body's coordinate frame sits, so every body frame F_i may be
// replaced by a constant re-choice D_i = P_i F_i (^{D_i}X_{F_i} = P_i) as long as the joint
// keeps a fixed axis in it. rbdlab chooses P_i = Z_i R_i:
//  - R_i, a rotation taking the joint axis to e_z (identity for z joints, a cyclic
//    permutation for x and y joints), so S_i = e_3 (revolute) or e_6 (prismatic);
//  - Z_i = scrz(phi_i, delta_i), a screw about that axis (it commutes with X_J(q_i)), which
//    puts D_i's origin at the foot of the common normal to the axis of one chosen child c
//    (the "DH child") and D_i's x axis along that normal (rule 3 of section 4.3).
// Then ^{D_c}X_{D_i} = X_J(q_c) C_c with C_c = scrz(theta_c, d_c) scrx(alpha_c, a_c): two
// axial screws, the x one constant, the z one merging with the joint's own screw, i.e.
//   ^cX_i = scrz(q_c + theta_c, d_c) scrx(alpha_c, a_c)          (revolute c)
//   ^cX_i = scrz(theta_c, q_c + d_c) scrx(alpha_c, a_c)          (prismatic c)
//   ^cX_i = scrz(q_c + theta_c, h q_c + d_c) scrx(alpha_c, a_c)  (helical c, pitch h).
// theta_c is the DH angle offset: zero when the model's joint zero is the DH zero (as for a
// chain built from DH parameters, cases/dh.hpp, cases/gu_dh.hpp), otherwise one addition per
// joint at run time. A leaf's own screw is free, so leaves get theta = d = 0.
// Children other than the DH child ("general" links, section 10.3.2) and children of the base
// keep a general constant C_i (their transforms cost what the general algorithms pay).
//
// Expressible models: every joint revolute, prismatic or helical (one screw axis). For any
// other joint (planar, spherical, free, cylindrical) build() throws ModelError naming the
// body, and try_build() returns a view with expressible = false and that reason, on which the
// DH variants fall back to their general counterparts.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/axial_screw.hpp"
#include "model/model.hpp"

namespace rbd {

// The run-time z screw of a DH link: rotation (one-time part included) and translation.
template <class S> struct DhScrew {
  AxialRotation<S> z;
  S d = S(0), md = S(0);
};

enum class DhLink {
  Root,     // child of the base: C general (never transformed by the CRBA)
  Dh,       // the DH child of its parent: C = scrz(theta, d) scrx(alpha, a)
  General,  // any other child: C general (section 10.3.2's "g" transforms)
};

template <class S> struct DhBody {
  DhLink link = DhLink::Root;
  Joint<S> zjoint;              // the joint in D coordinates: same type and pitch, axis e_z
  Transform<S> C;               // ^{D_i}X_{D_lambda(i)} at q_i = 0: ^iX_lambda(i) = X_J(q_i) C
  Transform<S> P;               // ^{D_i}X_{F_i}: the model's body frame to the DH frame
  Inertia<S> I;                 // body inertia in D_i coordinates
  S mc = S(0);                  // composite mass of the subtree at i (a constant)
  // link == Dh or General:
  S theta = S(0);               // DH angle offset (revolute, helical), added to q_i
  bool has_theta = false;       // false when theta is zero (no addition at run time)
  S d = S(0);                   // constant translation along z (the DH d_i, or its offset)
  AxialRotation<S> zrot;        // prismatic: the constant rotation by theta
  AxialRotation<S> xrot;        // the constant x screw's rotation by alpha (one-time part precomputed)
  S a = S(0);                   // the x screw's translation
  Vec3<S> gC = Vec3<S>::Zero(); // link == Root: C.E (-g), so ^iX_0 a_0 = [0; rz(q) gC] (a_0 = [0; -g])
  // link == General: C = scrz(theta, d) scrx(alpha, a) scrz(phi, d2), the last one constant
  AxialRotation<S> z2rot;       // rotation by phi (one-time part precomputed)
  S d2 = S(0), mc_d2 = S(0);
  Transform<S> Cg;              // xlt(d e_z) scrx(alpha, a) scrz(phi, d2): X_J C = rot(rz(q + theta)) Cg
  S mc_d = S(0), mc_a = S(0);   // mc * d and mc * a (section 10.3.1: "precomputing the products
                                // of the masses with the distance parameters")
};

template <class S> struct DhFrames {
  bool expressible = false;
  std::string reason;           // why not, when !expressible
  const void* source = nullptr; // the Model this view was built from
  std::vector<DhBody<S>> body;
  std::vector<int> dh_child;    // per body: its DH child, or -1 (leaf)
  std::vector<DhScrew<S>> screw; // run-time scratch: each body's z screw of the current call
  std::vector<Abi<S>> IA;        // run-time scratch: compact articulated inertias (aba_dh)

  // The view of a DH-expressible model; throws ModelError naming the offending body otherwise.
  static DhFrames build(const Model<S>& m) {
    DhFrames v = try_build(m);
    if (!v.expressible) throw ModelError("DH frames of model '" + m.name + "': " + v.reason);
    return v;
  }
  // The view, or expressible = false with the reason (the DH variants then fall back).
  static DhFrames try_build(const Model<S>& m);
  // Throws unless this view was built for this very model (it holds the model's constants).
  void check_source(const Model<S>& m, std::string_view who) const {
    if (source != &m)
      throw std::invalid_argument(std::string(who) + ": the workspace's DH frames were built for another model "
                                  "(construct or resize the Workspace with this model)");
  }
};

namespace detail {
namespace dh {
using std::atan2;
template <class S> S atan2_s(const S& y, const S& x) {
  if constexpr (requires { atan2(y, x); }) return S(atan2(y, x));
  else return S(std::atan2(static_cast<double>(y), static_cast<double>(x)));  // the counting scalar
}
template <class S> S eps() { return S(Eigen::NumTraits<S>::epsilon()); }

// A rotation E with E a = e_z (rows u, a x u, a). Exact permutations for coordinate axes.
template <class S> Mat3<S> align_to_z(const Joint<S>& j) {
  Mat3<S> E = Mat3<S>::Zero();
  switch (j.aligned) {
    case 2: return Mat3<S>::Identity();
    case 0: E(0, 1) = E(1, 2) = E(2, 0) = S(1); return E;  // (x, y, z) -> (y, z, x)
    case 1: E(0, 2) = E(1, 0) = E(2, 1) = S(1); return E;  // (x, y, z) -> (z, x, y)
    default: break;
  }
  const Vec3<S> a = j.axis;
  int k = 0;  // the coordinate axis least aligned with a
  for (int i = 1; i < 3; ++i)
    if (abs_(a[i]) < abs_(a[k])) k = i;
  Vec3<S> u = a.cross(Vec3<S>::Unit(k));
  u /= sqrt_(S(u.squaredNorm()));
  E.row(0) = u.transpose();
  E.row(1) = a.cross(u).transpose();
  E.row(2) = a.transpose();
  return E;
}
template <class S> Transform<S> screw_z(const S& c, const S& s, const S& d) {
  return Transform<S>{rz<S>(c, s), Vec3<S>(S(0), S(0), d)};
}
// The common normal of the z axis and the line through o with direction u (unit), both in
// the same coordinates: scrz(phi, t) with (cos phi, sin phi) = (nx, ny), the frame whose
// origin is the normal's foot on the z axis and whose x axis runs along the normal
// (section 4.3, rule 3). Returned as that screw (a coordinate transform).
template <class S> Transform<S> normal_screw(const Vec3<S>& u, const Vec3<S>& o) {
  const S w2 = u.x() * u.x() + u.y() * u.y();  // |e_z x u|^2
  S nx(1), ny(0), t(0);
  if (w2 != S(0)) {
    const S w = sqrt_(w2);
    nx = -u.y() / w;
    ny = u.x() / w;
    t = (o.z() - u.z() * u.dot(o)) / w2;
  } else {  // parallel axes: the normal through the origin (Figure 4.8, rule 3)
    const S w = sqrt_(S(o.x() * o.x() + o.y() * o.y()));
    if (w != S(0)) { nx = o.x() / w; ny = o.y() / w; }
  }
  // The normal's sign is free (rule 3's 180-degree ambiguity): take the one nearer the
  // current x axis, so a model already in DH frames keeps them (phi = 0, and theta = 0 below).
  if (nx < S(0) || (nx == S(0) && ny < S(0))) { nx = -nx; ny = -ny; }
  return screw_z(nx, ny, t);
}
// C = scrz(theta, d) scrx(alpha, a) = rot(rz(theta) rx(alpha)) xlt(a e_x + d rx(alpha)^T e_z):
// E's row 3 is (0, -s_alpha, c_alpha), its column 1 (c_theta, -s_theta, 0), r = (a, -d s_alpha,
// d c_alpha). Reads the parameters off C; dh_rebuild gives the transform they stand for.
template <class S> struct DhParams { S ct, st, ca, sa, a, d; };
template <class S> DhParams<S> dh_read(const Transform<S>& C) {
  const S ca = C.E(2, 2), sa = -C.E(2, 1);
  return {C.E(0, 0), -C.E(1, 0), ca, sa, C.r.x(), C.r.z() * ca - C.r.y() * sa};
}
template <class S> Transform<S> dh_rebuild(const DhParams<S>& p) {
  return screw_z(p.ct, p.st, p.d) * Transform<S>{rx<S>(p.ca, p.sa), Vec3<S>(p.a, S(0), S(0))};
}
// Whether C is the transform its DH parameters stand for. Each entry of C is a few products
// of O(1) rotations (and translations of the model's size), so a C of DH form leaves
// residuals of tens of eps; 1024 eps separates that from a C that is not of DH form.
template <class S> bool dh_form(const Transform<S>& C, const DhParams<S>& p) {
  const S tol = S(1024) * eps<S>();
  const Transform<S> Cr = dh_rebuild(p);
  const S scale = S(1) + C.r.cwiseAbs().maxCoeff();
  return (Cr.E - C.E).cwiseAbs().maxCoeff() <= tol && (Cr.r - C.r).cwiseAbs().maxCoeff() <= tol * scale;
}
}  // namespace dh
}  // namespace detail

template <class S> DhFrames<S> DhFrames<S>::try_build(const Model<S>& m) {
  using namespace detail::dh;
  DhFrames v;
  v.source = &m;
  for (int i = 0; i < m.nb; ++i) {
    const JointType t = m.joint[i].type;
    if (t != JointType::Revolute && t != JointType::Prismatic && t != JointType::Helical) {
      v.reason = "body " + std::to_string(i) + " '" + m.body_name[i] + "' has a " +
                 std::string(joint_type_name(t)) +
                 " joint; DH frames need every joint to be a single screw axis (revolute, prismatic, helical)";
      return v;
    }
  }
  const int nb = m.nb;
  v.body.resize(nb);
  v.dh_child.assign(nb, -1);
  v.screw.assign(nb, DhScrew<S>{});
  v.IA.assign(nb, Abi<S>{});
  // The DH child of each body: the child with the largest subtree (it is used by the most
  // columns of the CRBA, D_1 of Eq. 10.11), the first one on ties.
  std::vector<int> subtree(nb, 1);
  for (int i = nb - 1; i >= 0; --i)
    if (m.parent[i] >= 0) subtree[m.parent[i]] += subtree[i];
  for (int i = 0; i < nb; ++i) {
    const int p = m.parent[i];
    if (p >= 0 && (v.dh_child[p] < 0 || subtree[i] > subtree[v.dh_child[p]])) v.dh_child[p] = i;
  }
  // R_i and the z joint.
  std::vector<Transform<S>> R(nb);
  for (int i = 0; i < nb; ++i) {
    R[i] = Transform<S>{align_to_z(m.joint[i]), Vec3<S>::Zero()};
    Joint<S> z = m.joint[i];
    z.axis = Vec3<S>(S(0), S(0), S(1));
    z.aligned = 2;
    v.body[i].zjoint = z;
    v.body[i].link = m.parent[i] < 0 ? DhLink::Root : (v.dh_child[m.parent[i]] == i ? DhLink::Dh : DhLink::General);
  }
  auto G = [&](int i) {  // ^{A_i}X_{A_lambda(i)}, A = R F (aligned, not yet screwed)
    const int p = m.parent[i];
    return p < 0 ? Transform<S>(R[i] * m.Xtree[i]) : Transform<S>(R[i] * m.Xtree[i] * R[p].inverse());
  };
  // Z_i from the DH child's axis line (origin o, direction u, in A_i coordinates): origin at
  // the foot of the common normal on i's axis, x along the normal.
  std::vector<Transform<S>> P(nb);
  for (int i = 0; i < nb; ++i) {
    const int c = v.dh_child[i];
    if (c < 0) { P[i] = R[i]; continue; }  // leaves: fixed below
    const Transform<S> Gc = G(c);
    P[i] = normal_screw<S>(Gc.E.row(2).transpose(), Gc.r) * R[i];
  }
  for (int i = 0; i < nb; ++i) {
    DhBody<S>& b = v.body[i];
    const int p = m.parent[i];
    auto C_of = [&] { return p < 0 ? Transform<S>(P[i] * m.Xtree[i]) : Transform<S>(P[i] * m.Xtree[i] * P[p].inverse()); };
    b.C = C_of();
    if (b.link == DhLink::Root) { b.gC = b.C.E * Vec3<S>(-m.gravity); b.P = P[i]; continue; }
    // A child other than the DH child may still be of DH form (e.g. siblings on one axis).
    if (b.link == DhLink::General && dh_form(b.C, dh_read(b.C))) b.link = DhLink::Dh;
    // A general link: C = C1 scrz(phi, t) with scrz(phi, t) = Z2 the normal to i's axis in
    // lambda's coordinates, and C1 of DH form (three axial screws, section 10.3.2's "g").
    Transform<S> Z2;
    if (b.link == DhLink::General) Z2 = normal_screw<S>(b.C.E.row(2).transpose(), b.C.r);
    auto C1_of = [&] { return b.link == DhLink::General ? Transform<S>(b.C * Z2.inverse()) : b.C; };
    DhParams<S> d = dh_read(C1_of());
    if (v.dh_child[i] < 0) {  // a leaf: its own screw is free, so make theta = d = 0
      P[i] = screw_z(d.ct, d.st, d.d).inverse() * P[i];
      b.C = C_of();
      d = dh_read(C1_of());
      d.ct = S(1); d.st = S(0); d.d = S(0);  // zero up to rounding by construction
    }
    if (!dh_form(C1_of(), d)) {
      // Not reproduced to 1024 eps. Seen on valid models whose consecutive joint axes are nearly
      // (not exactly) parallel: the common normal is then far away, a and d are large, and their
      // rounding exceeds the check's tolerance. The model is fine; only its DH form is
      // ill-conditioned, so the DH variants fall back, as for any model they cannot express,
      // instead of the whole model failing to load (it used to throw here).
      v.body.clear();
      v.reason = "body " + std::to_string(i) + " '" + m.body_name[i] +
                 "': the DH decomposition does not reproduce the link transform to 1024 eps "
                 "(nearly parallel joint axes make it ill-conditioned)";
      return v;
    }
    b.C = b.link == DhLink::General ? Transform<S>(dh_rebuild(d) * Z2) : dh_rebuild(d);
    b.xrot.set(d.ca, d.sa);
    b.a = d.a;
    b.d = d.d;
    if (b.zjoint.type == JointType::Prismatic) {
      b.zrot.set(d.ct, d.st);
    } else {
      // For a model built in DH frames (theta_i = q_i) the normal's sign rule gives
      // s_theta = 0 exactly, so the addition q_i + theta_i is skipped without perturbing
      // anything.
      b.theta = atan2_s(d.st, d.ct);
      b.has_theta = b.theta != S(0);
    }
    if (b.link == DhLink::General) {
      b.z2rot.set(Z2.E(0, 0), Z2.E(0, 1));
      b.d2 = Z2.r.z();
      // X_J C = rot(rz(q + theta)) Cg with Cg = xlt(d e_z) scrx(alpha, a) scrz(phi, t) (the
      // translation along z commutes with the joint's rotation), composed at run time.
      b.Cg = Transform<S>{Mat3<S>::Identity(), Vec3<S>(S(0), S(0), d.d)} *
             Transform<S>{rx<S>(d.ca, d.sa), Vec3<S>(d.a, S(0), S(0))} * Z2;
    }
    b.P = P[i];
  }
  // Inertias in D coordinates (I_D = (^F X_D)^T I_F ^F X_D) and composite masses, summed in
  // the order the CRBA sums them (so mc equals the run-time composite mass to the last bit).
  for (int i = 0; i < nb; ++i) {
    v.body[i].I = transform_transpose(P[i].inverse(), m.I[i]);
    v.body[i].mc = v.body[i].I.m;
  }
  for (int i = nb - 1; i >= 0; --i)
    if (m.parent[i] >= 0) v.body[m.parent[i]].mc += v.body[i].mc;
  for (auto& b : v.body) {
    b.mc_d = b.mc * b.d;
    b.mc_a = b.mc * b.a;
    b.mc_d2 = b.mc * b.d2;
  }
  v.expressible = true;
  return v;
}

// scrz of ^iX_lambda(i) for a DH link from q_i: revolute: angle q + theta (the addition only
// when theta != 0), translation d; prismatic: constant rotation, translation q + d;
// helical: angle q + theta, translation h q + d. `full` also computes the one-time part
// (cs, s^2, ...) that inertia rotations need (2m + 3a), and md = m^c d.
template <class S> RBD_INLINE void dh_screw(const DhBody<S>& b, const S& q, bool full, DhScrew<S>& out) {
  switch (b.zjoint.type) {
    case JointType::Prismatic:
      out.z = b.zrot;
      out.d = q + b.d;
      if (full) out.md = b.mc * out.d;
      return;
    case JointType::Helical: {
      const S ang = b.has_theta ? S(q + b.theta) : q;
      const CosSin<S> cs = cos_sin_(ang);
      if (full) out.z.set(cs.c, cs.s);
      else { out.z.c = cs.c; out.z.s = cs.s; }
      out.d = b.zjoint.pitch * q + b.d;
      if (full) out.md = b.mc * out.d;
      return;
    }
    default: {
      const S ang = b.has_theta ? S(q + b.theta) : q;
      const CosSin<S> cs = cos_sin_(ang);
      if (full) out.z.set(cs.c, cs.s);
      else { out.z.c = cs.c; out.z.s = cs.s; }
      out.d = b.d;
      out.md = b.mc_d;
      return;
    }
  }
}

}  // namespace rbd
