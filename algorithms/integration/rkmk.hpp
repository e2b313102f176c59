#pragma once
// Munthe-Kaas Runge-Kutta on the state space G^n x R^6n (seed 004, Eqs. 35-37), for either
// configuration group G (lie/groups.hpp). One step from X_{i-1}:
//   Psi_j = h sum_{l<j} a_jl k_l,                         Psi_1 = 0
//   k_j   = dexp^-1_{-Psi_j} F(X_{i-1} exp Psi_j),        F(X) = (V, Vdot(X)) (Eq. 3)
//   X_i   = X_{i-1} exp(h sum_j b_j k_j)
// per body: the configuration part of k is dexp^-1_{-Psi} V (left-trivialised, hence the
// minus sign of Eq. 36), the velocity part is Vdot (the algebra R^6 of the velocities is
// abelian, so its dexp is the identity, Eq. 15/24). With exact dexp^-1 the scheme has the
// order of the tableau.
#include "integration/lie/index1.hpp"
#include "integration/tableau.hpp"

namespace rbd::integration {

template <class G> struct Rkmk {
  using Group = G;
  template <class S>
  static void step(const System<S>& sys, State<S>& x, const S& h, const Tableau<S>& tab) {
    std::array<std::array<Vec6<S>, kMaxBodies>, kMaxStages> kC;
    std::array<VecV<S>, kMaxStages> kV;
    State<S> y = x;
    for (int j = 0; j < tab.s; ++j) {
      VecV<S> psiV = VecV<S>::Zero(sys.nv());
      for (int l = 0; l < j; ++l)
        if (tab.a[j][l] != S(0)) psiV += (h * tab.a[j][l]) * kV[l];
      y.V = x.V + psiV;
      std::array<Vec6<S>, kMaxBodies> psiC;
      for (int i = 0; i < sys.n; ++i) {
        psiC[i].setZero();
        for (int l = 0; l < j; ++l)
          if (tab.a[j][l] != S(0)) psiC[i] += (h * tab.a[j][l]) * kC[l][i];
        y.C[i] = j == 0 ? x.C[i] : G::template retract<S>(x.C[i], psiC[i]);
      }
      accelerations<G, S>(sys, y, kV[j]);
      for (int i = 0; i < sys.n; ++i) {
        const Vec6<S> Vi = y.V.template segment<6>(6 * i);
        kC[j][i] = j == 0 ? Vi : Vec6<S>(G::template dexp_inv<S>(Vec6<S>(-psiC[i])) * Vi);
      }
    }
    for (int i = 0; i < sys.n; ++i) {
      Vec6<S> phi = Vec6<S>::Zero();
      for (int j = 0; j < tab.s; ++j) phi += (h * tab.b[j]) * kC[j][i];
      x.C[i] = G::template retract<S>(x.C[i], phi);
    }
    for (int j = 0; j < tab.s; ++j) x.V += (h * tab.b[j]) * kV[j];
  }
};

struct RkmkSe3 : Rkmk<Se3Group> {
  static constexpr const char* name = "rkmk4_se3";
  static constexpr const char* summary = "Munthe-Kaas RK on SE(3)^n x R^6n, body-fixed twists (seed 004 Eqs. 25-29, 37)";
};
struct RkmkSo3R3 : Rkmk<So3R3Group> {
  static constexpr const char* name = "rkmk4_so3xr3";
  static constexpr const char* summary = "Munthe-Kaas RK on (SO(3)xR3)^n x R^6n, hybrid velocities (seed 004 Eqs. 30-34, 37)";
};

}  // namespace rbd::integration
