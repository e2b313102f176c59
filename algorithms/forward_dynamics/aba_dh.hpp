#pragma once
// The articulated-body algorithm (Featherstone Table 7.1) on Denavit-Hartenberg frames with
// axial-screw transforms (section 10.3.1, optimisations 1-3; App. A.4): for a revolute joint
// S_i = e_3 in D_i coordinates, so U_i = I^A_i S_i is column 3 of I^A_i, D_i its element
// (3,3), and I^a_i = I^A_i - U_i U_i^T / D_i has a zero row and column 3 (App. A.4, "Articulated-
// Body Inertias with Zero-Valued Rows and Columns"); ^lambda X*_i I^a_i ^iX_lambda is two
// axial-screw transforms of a compact articulated inertia (Table A.4's formula, Table A.5's
// costs), and every vector transform is two axial screws, 2 (10m + 6a).
// Domain of the fast path: DH-expressible models whose joints are all revolute (GU(n), the
// DH robots, revolute trees); anything else is handed to aba. General links of a tree (not
// their parent's DH child) use aba's general 6x6 congruence (aba_detail::congruence_add).
// Cost per body of a chain and the gap to Table 10.1's best ABA row: README.md.
#include <string_view>

#include "forward_dynamics/aba.hpp"

namespace rbd {

// bias_force for v = [0 0 qd 0 0 0] (a revolute child of the base): qd^2 [e_z x Ibar e_z;
// -(h_x, h_y, 0)]. 5m.
template <class S> RBD_INLINE Vec6<S> bias_force_spin(const Inertia<S>& I, const S& qd) {
  const S qd2 = qd * qd;
  return (Vec6<S>() << -(qd2 * I.Ibar(1, 2)), qd2 * I.Ibar(0, 2), S(0), -(qd2 * I.h[0]), -(qd2 * I.h[1]), S(0)).finished();
}

struct AbaDh {
  static constexpr std::string_view name = "aba_dh";
  static constexpr std::string_view summary =
      "Articulated-body algorithm on Denavit-Hartenberg frames with axial-screw transforms (Featherstone 10.3.1, A.4)";
  static constexpr std::string_view complexity = "O(n)";
  static constexpr bool dh_frames = true;  // counted on cases::gu_dh too (verify/opcounts.cpp)
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // A model off the fast path (no DH form, or a joint that is not revolute) is handed to aba
  // (see rnea_dh's fallback_to).
  template <class S> static std::string_view fallback_to(const Model<S>& model) {
    return fast_path(model, DhFrames<S>::try_build(model)) ? std::string_view() : Aba::name;
  }

  template <class S> static bool fast_path(const Model<S>& model, const DhFrames<S>& dh) {
    if (!dh.expressible) return false;
    for (const auto& j : model.joint)
      if (j.type != JointType::Revolute) return false;
    return true;
  }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    DhFrames<S>& dh = ws.dh;
    if (!fast_path(model, dh)) { Aba::run<S>(model, q, qd, tau, f_ext, qdd, ws); return; }  // general fallback
    dh.check_source(model, name);
    const auto& parent = model.parent;
    std::vector<DhScrew<S>>& Z = dh.screw;
    std::vector<Abi<S>>& IA = dh.IA;
    // Pass 1, base to tips: v_i (Eq. 7.34), c_i (7.35), I^A_i = I_i, p^A_i (7.36).
    for (int i = 0; i < model.nb; ++i) {
      const DhBody<S>& b = dh.body[i];
      const int lambda = parent[i];
      const S qdi = qd[model.v_idx[i]];
      Vec6<S>& v = ws.v[i];
      Vec6<S>& c = ws.c[i];
      if (b.link != DhLink::General) dh_screw(b, S(q[model.q_idx[i]]), b.link == DhLink::Dh, Z[i]);
      if (b.link == DhLink::Root) {
        v.setZero(); v[2] = qdi;                                      // v = s qd (v_0 = 0)
        c.setZero();                                                  // c = v x s qd = 0
      } else {
        if (b.link == DhLink::Dh) {
          v = ws.v[lambda];
          screw_apply_motion<0>(b.xrot, b.a, v[0], v[1], v[2], v[3], v[4], v[5]);
          screw_apply_motion<2>(Z[i].z, Z[i].d, v[0], v[1], v[2], v[3], v[4], v[5]);
        } else {
          jcalc_xup(b.zjoint, q.segment(model.q_idx[i], 1), b.C, ws.jk[i], ws.Xup[i]);
          v = ws.Xup[i].apply(ws.v[lambda]);
        }
        v[2] += qdi;                                                  //   + s qd
        c << v[1] * qdi, -(v[0] * qdi), S(0), v[4] * qdi, -(v[3] * qdi), S(0);  // v x (e_3 qd)
      }
      IA[i] = Abi<S>::from_inertia(b.I);
      ws.pA[i] = b.link == DhLink::Root ? bias_force_spin(b.I, qdi) : bias_force(b.I, v);  // v x* I v
      if (f_ext) ws.pA[i] -= b.P.apply_force((*f_ext)[i]);            //   - f^x_i (F_i -> D_i)
    }
    // Pass 2, tips to base: U = column 3 of I^A, D = I^A_33, u, I^a, p^a (Eqs. 7.43-7.48).
    for (int i = model.nb - 1; i >= 0; --i) {
      const DhBody<S>& b = dh.body[i];
      Abi<S>& A = IA[i];
      Vec6<S>& pA = ws.pA[i];
      Vec6<S> U;                                                      // U = I^A e_3 (no arithmetic)
      U << A.Is(0, 2), A.Is(1, 2), A.Is(2, 2), A.H(2, 0), A.H(2, 1), A.H(2, 2);
      ws.U[i] = U;
      const S Dinv = S(1) / U[2];                                     // D^-1
      const S u = tau[model.v_idx[i]] - pA[2];                        // u = tau - S^T p^A
      ws.Dinv[i](0, 0) = Dinv;
      ws.u[i][0] = u;
      const int p = parent[i];
      if (p < 0) continue;
      // I^a = I^A - U D^-1 U^T: row and column 3 are exactly zero; the other 15 entries of
      // the lower triangle cost 1m + 1a each, with W = U D^-1 (5m).
      constexpr int idx[5] = {0, 1, 3, 4, 5};
      S W[6];
      for (int r : idx) W[r] = U[r] * Dinv;
      Abi<S> Ia;
      auto get = [&](int r, int col) -> S {                           // I^A entry (r, col), r >= col
        if (r < 3) return A.Is(r, col);
        if (col < 3) return A.H(col, r - 3);
        return A.M(r - 3, col - 3);
      };
      auto set = [&](int r, int col, const S& x) {
        if (r < 3) { Ia.Is(r, col) = Ia.Is(col, r) = x; return; }
        if (col < 3) { Ia.H(col, r - 3) = x; return; }
        Ia.M(r - 3, col - 3) = Ia.M(col - 3, r - 3) = x;
      };
      for (int r : idx)
        for (int col : idx)
          if (col <= r) set(r, col, get(r, col) - W[r] * U[col]);
      for (int k = 0; k < 3; ++k) { Ia.Is(2, k) = Ia.Is(k, 2) = S(0); Ia.H(2, k) = S(0); }
      // p^a = p^A + I^a c + U D^-1 u (Eq. 7.48); c_3 = c_6 = 0 and row 3 of I^a is zero, and
      // p^a_3 = p^A_3 + u = tau exactly.
      const Vec6<S>& c = ws.c[i];
      Vec6<S> pa;
      for (int r : idx) {
        auto Iarc = [&](int col) { return col <= r ? get_ia(Ia, r, col) : get_ia(Ia, col, r); };
        pa[r] = pA[r] + ((Iarc(0) * c[0] + Iarc(1) * c[1]) + (Iarc(3) * c[3] + Iarc(4) * c[4])) + W[r] * u;
      }
      pa[2] = tau[model.v_idx[i]];
      if (b.link == DhLink::Dh) {                                     // ^lambda X*_i (I^a, p^a)
        screw_transpose_abi<2, 2>(Z[i].z, Z[i].d, Ia);                 //   scrz of I^a: 28m + 34a (zeros kept)
        screw_transpose_abi<0, 2>(b.xrot, b.a, Ia);                    //   scrx: 32m + 28a
        screw_transpose_force<2>(Z[i].z, Z[i].d, pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]);
        screw_transpose_force<0>(b.xrot, b.a, pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]);
        add_abi(Ia, IA[p]);
      } else {
        Mat6<S> IAp = IA[p].matrix();
        aba_detail::congruence_add<S>(ws.Xup[i], Ia.matrix(), IAp);
        IA[p] = Abi<S>::from_matrix(IAp);
        pa = ws.Xup[i].apply_transpose(pa);
      }
      ws.pA[p] += pa;
    }
    // Pass 3, base to tips: a' = ^iX_lambda a_lambda + c, qdd = D^-1 (u - U^T a'), a = a' + s qdd.
    for (int i = 0; i < model.nb; ++i) {
      const DhBody<S>& b = dh.body[i];
      const int lambda = parent[i];
      Vec6<S> a;
      if (b.link == DhLink::Root) {                                   // ^iX_0 a_0 = [0; rz(q) E_C (-g)]
        const AxialRotation<S>& R = Z[i].z;
        a << S(0), S(0), S(0), R.c * b.gC[0] + R.s * b.gC[1], R.c * b.gC[1] - R.s * b.gC[0], b.gC[2];
      } else {
        if (b.link == DhLink::Dh) {
          a = ws.a[lambda];
          screw_apply_motion<0>(b.xrot, b.a, a[0], a[1], a[2], a[3], a[4], a[5]);
          screw_apply_motion<2>(Z[i].z, Z[i].d, a[0], a[1], a[2], a[3], a[4], a[5]);
        } else {
          a = ws.Xup[i].apply(ws.a[lambda]);
        }
        const Vec6<S>& c = ws.c[i];
        a[0] += c[0]; a[1] += c[1]; a[3] += c[3]; a[4] += c[4];       //   + c (c_3 = c_6 = 0)
      }
      const Vec6<S> U = ws.U[i].col(0);
      const S Ua = b.link == DhLink::Root ? S(U[3] * a[3] + U[4] * a[4] + U[5] * a[5]) : S(U.dot(a));  // U^T a'
      const S qddi = ws.Dinv[i](0, 0) * (ws.u[i][0] - Ua);
      qdd[model.v_idx[i]] = qddi;
      a[2] += qddi;
      ws.a[i] = a;
    }
  }

 private:
  template <class S> static S get_ia(const Abi<S>& A, int r, int col) {  // r >= col
    if (r < 3) return A.Is(r, col);
    if (col < 3) return A.H(col, r - 3);
    return A.M(r - 3, col - 3);
  }
  template <class S> static void add_abi(const Abi<S>& A, Abi<S>& acc) {  // 21a
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c <= r; ++c) {
        acc.Is(c, r) = acc.Is(r, c) = acc.Is(r, c) + A.Is(r, c);
        acc.M(c, r) = acc.M(r, c) = acc.M(r, c) + A.M(r, c);
      }
    acc.H += A.H;
  }
};

}  // namespace rbd
