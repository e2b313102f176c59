#pragma once
// A planar kinematic tree (Featherstone chapter 4 restricted to the x-y plane, section 2.16):
// a parent array, one joint per body (revolute about z or prismatic along a unit direction in
// the plane), a tree transform per body, the body's mass, centre of mass and rotational inertia
// about the centre of mass, and gravity in the plane. Bodies are numbered so that
// parent[i] < i, -1 meaning the fixed base. Every joint has one degree of freedom, so body i's
// variable is q[i]. Independent of the spatial rbd::Model; planar/to_spatial.hpp converts.
//
// Built in double through add_body (which validates), then cast exactly to another scalar.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "planar/inertia.hpp"

namespace rbd::planar {

struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class JointType { Revolute, Prismatic };

template <class S> struct Joint {
  JointType type = JointType::Revolute;
  Vec2<S> axis = Vec2<S>(S(1), S(0));  // Prismatic: unit direction in the joint frame

  // Motion subspace S_i (Table 4.1's Rz and the prismatic row, planar coordinates):
  // [1; 0; 0] for a revolute joint, [0; a_x; a_y] for a prismatic one.
  PVec<S> subspace() const {
    return type == JointType::Revolute ? PVec<S>(S(1), S(0), S(0)) : PVec<S>(S(0), axis[0], axis[1]);
  }
};

template <class S> struct Model {
  int nb = 0;
  std::vector<int> parent;              // lambda(i), -1 for the base
  std::vector<Joint<S>> joint;
  std::vector<Transform<S>> Xtree;      // X_T(i): parent body coordinates -> joint frame
  std::vector<S> mass;
  std::vector<Vec2<S>> com;             // centre of mass in body coordinates
  std::vector<S> Icom;                  // rotational inertia about the centre of mass
  std::vector<Inertia<S>> I;            // mcI(mass, com, Icom) in compact form
  Vec2<S> gravity = Vec2<S>::Zero();    // linear part of a_g (base coordinates)

  // Adds body nb. The tree transform is e.g. xpln(theta, r) (Table A.1); a prismatic axis is
  // normalised here until its double norm is exactly 1, so that every later normalisation
  // (the spatial ModelBuilder's, a cast's) leaves it or its rounding unchanged.
  int add_body(int parent_index, Joint<S> j, const Transform<S>& XT, const S& m, const Vec2<S>& c, const S& Ic) {
    const std::string where = "planar body " + std::to_string(nb);
    if (parent_index < -1 || parent_index >= nb) throw ModelError(where + ": parent out of order");
    // (c, s) must be a rotation to rounding: the same 1e-12 the spatial ModelBuilder allows.
    if (!(abs_(S(XT.c * XT.c + XT.s * XT.s - S(1))) < S(1e-12))) throw ModelError(where + ": tree transform is not a rotation");
    if (!(m > S(0)) || !(Ic > S(0))) throw ModelError(where + ": mass and rotational inertia must be positive");
    if (j.type == JointType::Prismatic) {
      for (int it = 0; it < 8; ++it) {
        const S n = sqrt_(S(j.axis.squaredNorm()));
        if (!(n > S(0))) throw ModelError(where + ": zero prismatic axis");
        if (n == S(1)) break;
        j.axis /= n;
      }
    }
    parent.push_back(parent_index);
    joint.push_back(j);
    Xtree.push_back(XT);
    mass.push_back(m);
    com.push_back(c);
    Icom.push_back(Ic);
    I.push_back(Inertia<S>::from_com(m, c, Ic));
    return nb++;
  }

  // The exactly rigid model nearest to this one in T's precision (as rbd::Model::cast does):
  // (cos, sin) of each tree transform and each prismatic axis renormalised in T, and the
  // inertias recomputed from (mass, com, Icom) in T.
  template <class T> Model<T> cast() const {
    Model<T> o;
    o.nb = nb;
    o.parent = parent;
    auto v2 = [](const Vec2<S>& x) { return Vec2<T>(scalar_cast<T>(x[0]), scalar_cast<T>(x[1])); };
    for (int i = 0; i < nb; ++i) {
      Joint<T> j{joint[i].type, v2(joint[i].axis)};
      if (j.type == JointType::Prismatic) j.axis /= sqrt_(T(j.axis.squaredNorm()));
      o.joint.push_back(j);
      Transform<T> X = Xtree[i].template cast<T>();
      const T n = sqrt_(T(X.c * X.c + X.s * X.s));
      X.c /= n;
      X.s /= n;
      o.Xtree.push_back(X);
      o.mass.push_back(scalar_cast<T>(mass[i]));
      o.com.push_back(v2(com[i]));
      o.Icom.push_back(scalar_cast<T>(Icom[i]));
      o.I.push_back(Inertia<T>::from_com(o.mass[i], o.com[i], o.Icom[i]));
    }
    o.gravity = v2(gravity);
    return o;
  }
};

// ^iX_lambda(i) = X_J(q) X_T(i) composed directly (section 10.3.1's optimisation):
//  revolute, X_J = rot(q): rot(q) rot(theta_T) xlt(r_T) = rot(q + theta_T) xlt(r_T);
//  prismatic, X_J = xlt(q a): xlt(q a) rot(theta_T) xlt(r_T) = rot(theta_T) xlt(r_T + E_T^T a q).
template <class S> RBD_INLINE Transform<S> jcalc_xup(const Joint<S>& j, const Transform<S>& XT, const S& q) {
  if (j.type == JointType::Revolute) {
    const S cq = cos_(q), sq = sin_(q);
    return Transform<S>{cq * XT.c - sq * XT.s, sq * XT.c + cq * XT.s, XT.r};
  }
  const S ax = XT.c * j.axis[0] - XT.s * j.axis[1], ay = XT.s * j.axis[0] + XT.c * j.axis[1];  // E_T^T a
  return Transform<S>{XT.c, XT.s, Vec2<S>(XT.r[0] + ax * q, XT.r[1] + ay * q)};
}

// Products with S_i that skip its zeros and ones (S_i is e_0 for a revolute joint).
template <class S> RBD_INLINE PVec<S> S_times(const Joint<S>& j, const S& x) {  // S x
  if (j.type == JointType::Revolute) return PVec<S>(x, S(0), S(0));
  return PVec<S>(S(0), j.axis[0] * x, j.axis[1] * x);
}
template <class S> RBD_INLINE S St_times(const Joint<S>& j, const PVec<S>& f) {  // S^T f
  if (j.type == JointType::Revolute) return f[0];
  return j.axis[0] * f[1] + j.axis[1] * f[2];
}
template <class S> RBD_INLINE void add_S_times(const Joint<S>& j, const S& x, PVec<S>& m) {  // m += S x
  if (j.type == JointType::Revolute) m[0] += x;
  else { m[1] += j.axis[0] * x; m[2] += j.axis[1] * x; }
}
// I S for a rigid-body inertia: I's first column [I_O; -h_y; h_x] for a revolute joint (no
// arithmetic), [-h_y a_x + h_x a_y; m a_x; m a_y] for a prismatic one.
template <class S> RBD_INLINE PVec<S> inertia_times_S(const Inertia<S>& I, const Joint<S>& j) {
  if (j.type == JointType::Revolute) return PVec<S>(I.Io, -I.h[1], I.h[0]);
  return PVec<S>(I.h[0] * j.axis[1] - I.h[1] * j.axis[0], I.m * j.axis[0], I.m * j.axis[1]);
}
// v x (S x) (Eq. 2.76 with the zeros of S x skipped).
template <class S> RBD_INLINE PVec<S> crm_S(const PVec<S>& v, const Joint<S>& j, const S& x) {
  if (j.type == JointType::Revolute) return PVec<S>(S(0), v[2] * x, -(v[1] * x));
  const S mx = j.axis[0] * x, my = j.axis[1] * x;
  return PVec<S>(S(0), -(v[0] * my), v[0] * mx);
}

}  // namespace rbd::planar
