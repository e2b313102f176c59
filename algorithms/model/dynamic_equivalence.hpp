#pragma once
// Dynamic equivalence, Featherstone section 9.7. Moving an inertia I_delta from body i to its
// parent leaves the equation of motion unchanged when I_delta meets Eq. 9.30 for joint i:
//   I_delta S = 0,   X_J^T I_delta X_J = I_delta (every q),   S^T (v x* I_delta v) = 0 (every v),
// which depend on the joint type only, provided S is constant in the successor's coordinates.
// Section 9.7's procedure then walks the tree from the tips, subtracting from each body the
// member of its joint's family (Table 9.7) that zeroes the most of its ten inertia parameters
// and adding it to the parent, so the model's cost falls where code exploits the zeros
// (rnea_equivalent, inverse_dynamics/rnea_equivalent.hpp). The result's bodies may have zero or
// negative mass by design: the model is marked InertiaKind::DynamicallyEquivalent.
//
// Table 9.7 prints the families for a z axis. Here they are written for the joint's axis a
// (unit, body coordinates), as linear combinations of basis inertias, each of which meets
// Eq. 9.30 (the checks are in verify/test_dynamic_equivalence.cpp, at random q and v):
//   revolute     a particle at the origin (mass m), a first moment s a along the axis (the
//                table's m c_z: two particles on the axis), and the rotational inertia
//                k (1 - a a^T) of particles on the axis: three parameters;
//   prismatic    any pure rotational inertia [Ibar 0; 0 0] (translation-invariant): six;
//   spherical    a particle at the origin: one;
//   helical, cylindrical, planar (rotation about z)
//                k (1 - a a^T) only: these joints both turn about a and slide, so the family is
//                what the revolute and the prismatic families share (not in Table 9.7);
//   free         none (any inertia moves with a free body).
// Zeroing a parameter needs it to be a coordinate of the family, so the rotational terms
// are used only where the axis is a coordinate axis (Joint::aligned); on another axis the
// revolute row still zeroes the mass and leaves the first moment perpendicular to a.
#include <cstdint>
#include <limits>

#include "model/model.hpp"

namespace rbd {

// The member of joint j's family (above) that zeroes the most parameters of I (section 9.7's
// best_match). Which of the two moments perpendicular to an aligned axis is zeroed is a free
// choice (both zero the same count); here it is the one on the next coordinate axis.
template <class S> Inertia<S> best_match(const Joint<S>& j, const Inertia<S>& I) {
  Inertia<S> d;  // all zero: the empty family
  const auto perpendicular_moments = [&](int axis) {
    const int p = (axis + 1) % 3;
    const S k = I.Ibar(p, p);
    d.Ibar = k * Mat3<S>::Identity();  // k (1 - a a^T) with a the coordinate axis `axis`
    d.Ibar(axis, axis) = S(0);
  };
  switch (j.type) {
    case JointType::Revolute:
      d.m = I.m;
      if (j.aligned >= 0) {
        d.h[j.aligned] = I.h[j.aligned];
        perpendicular_moments(j.aligned);
      } else {
        d.h = j.axis.dot(I.h) * j.axis;
      }
      break;
    case JointType::Prismatic: d.Ibar = I.Ibar; break;
    case JointType::Spherical: d.m = I.m; break;
    case JointType::Helical:
    case JointType::Cylindrical:
      if (j.aligned >= 0) perpendicular_moments(j.aligned);
      break;
    case JointType::Planar: perpendicular_moments(2); break;  // Planar turns about z (joint.hpp)
    case JointType::Free: break;
  }
  return d;
}

// The ten inertia parameters (m, h, the six of Ibar) that are exactly zero, as a bit set:
// bit 0 m, bits 1-3 h, bits 4-9 Ibar_xx, Ibar_yy, Ibar_zz, Ibar_xy, Ibar_xz, Ibar_yz.
inline constexpr int kInertiaParameters = 10;
template <class S> std::uint16_t zero_parameters(const Inertia<S>& I) {
  const S p[kInertiaParameters] = {I.m,         I.h[0],      I.h[1],      I.h[2],      I.Ibar(0, 0),
                                   I.Ibar(1, 1), I.Ibar(2, 2), I.Ibar(0, 1), I.Ibar(0, 2), I.Ibar(1, 2)};
  std::uint16_t z = 0;
  for (int k = 0; k < kInertiaParameters; ++k)
    if (p[k] == S(0)) z |= std::uint16_t(1u << k);
  return z;
}
inline int count_zero_parameters(std::uint16_t zeros) { return __builtin_popcount(zeros); }

// Section 9.7's procedure: for i = N_B..1, I_delta = best_match(jtype(i), I_i), I_i -= I_delta,
// I_lambda(i) += I_delta. I_delta is in body i's coordinates; by Eq. 9.30's second condition
// it is the same matrix in the joint's predecessor frame, so X_T(i) alone carries it to the
// parent (X_T^T I_delta X_T, Table A.2). A body on the fixed base passes its I_delta to the
// base, which does not move: the base's equation is not part of the system.
template <class S> Model<S> dynamically_equivalent(const Model<S>& model) {
  Model<S> e = model;
  e.inertia_kind = InertiaKind::DynamicallyEquivalent;
  for (int i = e.nb - 1; i >= 0; --i) {
    const Inertia<S> d = best_match(e.joint[i], e.I[i]);
    Inertia<S>& I = e.I[i];
    I.m -= d.m;
    I.h -= d.h;
    I.Ibar -= d.Ibar;
    if (e.parent[i] >= 0) add_transform_transpose(e.Xtree[i], d, e.I[e.parent[i]]);
  }
  // (mass, com, Icom) as far as I defines them (model.hpp, InertiaKind): NaN without mass.
  const S nan = S(std::numeric_limits<double>::quiet_NaN());  // every scalar here takes a double NaN
  for (int i = 0; i < e.nb; ++i) {
    const Inertia<S>& I = e.I[i];
    e.mass[i] = I.m;
    if (I.m != S(0)) {
      e.com[i] = I.h / I.m;
      const Mat3<S> cx = skew<S>(e.com[i]);
      e.Icom[i] = I.Ibar + I.m * cx * cx;  // Eq. 2.63 inverted: Ibar = Ic - m cx cx
    } else {
      e.com[i].setConstant(nan);
      e.Icom[i].setConstant(nan);
    }
  }
  return e;
}

// A body inertia with its zero pattern, multiplied as code written for that pattern would be
// (section 9.7: "a predictable pattern of zero-valued parameters, which can be exploited by
// writing code for each special case"): a product with a parameter known to be zero is not
// formed, and a sum of k formed products costs k - 1 additions. The pattern is fixed when the
// model is, so the tests of it are branches on integers, not arithmetic.
template <class S> struct PatternedInertia {
  Inertia<S> I;
  std::uint16_t zeros = 0;

  RBD_INLINE bool nz(int k) const { return !(zeros >> k & 1u); }
  RBD_INLINE bool nz_h(int r) const { return nz(1 + r); }
  RBD_INLINE bool nz_Ibar(int r, int c) const {
    if (r == c) return nz(4 + r);
    return nz(r + c == 1 ? 7 : r + c == 2 ? 8 : 9);  // xy, xz, yz
  }

  // I v = [Ibar w + h x vl; m vl - h x w], (h x u)_r = h_r1 u_r2 - h_r2 u_r1 (r1, r2 = r+1, r+2).
  RBD_INLINE Vec6<S> operator*(const Vec6<S>& v) const {
    Vec6<S> out;
    for (int r = 0; r < 3; ++r) {
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
      Sum top, bottom;
      for (int c = 0; c < 3; ++c) top.add(nz_Ibar(r, c), I.Ibar(r, c), v[c]);
      top.add(nz_h(r1), I.h[r1], v[3 + r2]);
      top.sub(nz_h(r2), I.h[r2], v[3 + r1]);
      bottom.add(nz(0), I.m, v[3 + r]);
      bottom.sub(nz_h(r1), I.h[r1], v[r2]);
      bottom.add(nz_h(r2), I.h[r2], v[r1]);
      out[r] = top.value();
      out[3 + r] = bottom.value();
    }
    return out;
  }

 private:
  struct Sum {
    S s = S(0);
    bool empty = true;
    RBD_INLINE void add(bool formed, const S& c, const S& x) {
      if (!formed) return;
      if (empty) s = c * x; else s += c * x;
      empty = false;
    }
    RBD_INLINE void sub(bool formed, const S& c, const S& x) {
      if (!formed) return;
      if (empty) s = -(c * x); else s -= c * x;
      empty = false;
    }
    RBD_INLINE S value() const { return s; }
  };
};

// The equivalent model's inertias with their patterns, built once per model (as Workspace's
// Denavit-Hartenberg view is), for the variants that exploit them.
template <class S> struct EquivalentInertias {
  std::vector<PatternedInertia<S>> body;
  int zeros = 0;  // parameters zeroed over the whole model (beyond those already zero)

  static EquivalentInertias build(const Model<S>& m) {
    EquivalentInertias out;
    const Model<S> e = dynamically_equivalent(m);
    for (int i = 0; i < m.nb; ++i) {
      out.body.push_back({e.I[i], zero_parameters(e.I[i])});
      out.zeros += count_zero_parameters(out.body.back().zeros) - count_zero_parameters(zero_parameters(m.I[i]));
    }
    return out;
  }
};

}  // namespace rbd
