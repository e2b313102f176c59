#pragma once
// Forward dynamics of a kinematic tree by divide-and-conquer assembly of articulated bodies with
// handles, Featherstone section 7.5 (Eqs. 7.57-7.63 and the section's "Generalizations": any
// number of handles; the algorithm of Featherstone 1999a, which the section cites: on a parallel
// computer its assembly tree runs in O(log N_B) time).
//
// An articulated body with handle set H obeys (Eq. 7.59, written for any number of handles)
//     a_h = sum_{k in H} Phi_hk f_k + b_h,      Phi_kh = Phi_hk^T,
// with each handle's acceleration and force in the coordinates of the body that carries it; here
// a handle is a body with joints to bodies outside the subassembly, f_h the sum of those joints'
// forces on it (dca_assembly_tree.hpp). A rigid body alone (a leaf) has one handle, its own frame:
// Phi = I_i^-1 and b = I_i^-1 (-p_i + T_a tau_i - sum_{children c} ^cX_i^T T_a tau_c), the active
// joint forces put in as external forces (section 7.5's convention under Eq. 7.61). The fixed
// base is a leaf too, with Phi = 0 and acceleration b = -a_g (gravity as a fictitious base
// acceleration, as in Table 7.1), joined last (dca_assembly_tree.hpp).
//
// Assembly (Eqs. 7.60-7.63): subassembly A (holding body p = lambda(j), or the base) and B
// (holding body j) are joined by joint j. Its constraint force f_3 = T lambda acts on j and
// -X^T f_3 on p, X = ^jX_p; handle 2 of the book is p's handle carried to j's coordinates,
// handle 3 is j's. With Phi_2 = X Phi^A_pp X^T, Phi_3 = Phi^B_jj and c = c_j, Table 7.1's
// velocity-product term of joint j, the constraint T^T (a_j - X a_p - c) = 0 gives (Eq. 7.62)
//     Y = T^T (Phi_2 + Phi_3) T,   W = T Y^-1 T^T,   beta = c - b^B_j + X b^A_p,
//     f_3 = W (beta + sum_{h in A} X Phi^A_ph f_h - sum_{h in B} Phi^B_jh f_h).
// Write g_h = X Phi^A_ph for a handle of A and g_h = -Phi^B_jh for one of B (Eq. 7.62's Phi_21
// and -Phi_34 when each part has one other handle). Then f_3 = W (beta + sum_h g_h f_h), and
// putting it back into each part's equation gives the joined body's (Eq. 7.63):
//     Phi^new_hk = Phi^part_hk - g_h^T W g_k     (Phi^part_hk = 0 when h, k are in different parts)
//     b^new_h    = b^part_h    - g_h^T W beta.
// On a chain with the two handles 1 (in A) and 4 (in B) these are Eq. 7.63's Phi_1^A =
// Phi_1 - Phi_12 W Phi_21, Phi_4^A = Phi_4 - Phi_43 W Phi_34, Phi_14^A = Phi_12 W Phi_34 and
// b_4^A = b_4 + Phi_43 W beta (the extraction at hand prints the b_1^A line twice; b_4^A was
// checked by substituting Eq. 7.62 into a_4 = Phi_43 f_3 + Phi_4 f_4 + b_4). A free joint has no
// constraint force (T is 6 x 0): W = 0 and the parts stay uncoupled. Handles of A and B stay
// handles of the join, except p and j when joint j was their last joint to the outside; those
// then carry no force beyond f_3, so the sum over the join's handles is the sum above.
//
// The whole tree is the last join and has no handles. Disassembly, from it down, gives every
// joint's f_3 and so every part's handle forces (A's p gains -X^T f_3, B's j gains f_3), down to
// the bodies, where a_i = Phi_i f_i + b_i and qdd_i = T_a^T (a_i - ^iX_lambda a_lambda - c_i)
// (Table 7.2's footnote 1).
//
// Serially it costs more than ABA (every join's 6x6 algebra per pair of handles, where ABA's is
// per joint), which the op counts show; its point is the O(log n) depth of the assembly tree and
// that handles may have fewer than 6 DoF.
#include <stdexcept>
#include <string>
#include <string_view>

#include "forward_dynamics/aba_inverse_inertia.hpp"

namespace rbd {

namespace dca_detail {

// X M X^T for a 6x6 M, X = ^jX_i: an inverse inertia (force -> motion) carried from body-i to
// body-j coordinates (a^j = X a^i, f^i = X^T f^j).
template <class S> Mat6<S> to_child(const Transform<S>& X, const Mat6<S>& M) {
  Mat6<S> A, out;
  for (int k = 0; k < 6; ++k) A.col(k) = X.apply(Vec6<S>(M.col(k)));       // X M
  const Mat6<S> At = A.transpose();                                       // M^T X^T
  for (int k = 0; k < 6; ++k) out.col(k) = X.apply(Vec6<S>(At.col(k)));   // X M^T X^T
  return out.transpose();                                                 // X M X^T
}

// W = T Y^-1 T^T with Y = T^T P T (P = Phi_2 + Phi_3, SPD); zero for a free joint.
template <class S> Mat6<S> constraint_coupling(const Mat6N<S>& T, const Mat6<S>& P) {
  const Eigen::Index m = T.cols();
  if (m == 0) return Mat6<S>::Zero();
  const MatN<S> Y = T.transpose() * (P * T);
  MatN<S> Yinv(m, m);
  aba_implicit_detail::spd_inverse_ldlt<S>(Y, Yinv);
  return T * (Yinv * T.transpose());
}

}  // namespace dca_detail

struct Dca {
  static constexpr std::string_view name = "dca";
  static constexpr std::string_view summary =
      "Divide-and-conquer assembly of articulated bodies with handle sets on a tree (Featherstone section 7.5, "
      "Eqs. 7.57-7.63)";
  static constexpr std::string_view complexity = "O(n) serially for bounded degree, O(log n) assembly depth";
  // A join's cost depends on how many handles its parts carry (one or two on a chain), and
  // which joins carry two depends on where the halving falls, i.e. on n's binary digits: linear
  // in n on average, not a polynomial (the op-count gate holds each n's count exactly instead).
  static constexpr bool polynomial_op_counts = false;
  // I_i^-1 for every body (as aba_inverse_inertia); any tree.
  template <class S> static bool applicable(const Model<S>& m) {
    return m.nb > 0 && m.inertia_kind == InertiaKind::Physical;
  }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    using namespace aba_detail;
    using dca_detail::constraint_coupling;
    using dca_detail::to_child;
    const int nb = model.nb;
    auto& d = ws.dca;
    if (static_cast<int>(d.tree.size()) != 2 * nb + 1)
      throw std::invalid_argument("dca: the workspace was not sized for model '" + model.name + "'");
    auto Tatau = [&](int i) { return S_mul<S>(ws.Ta[i], VecN<S>(tau.segment(model.v_idx[i], ws.Ta[i].cols()))); };
    // Leaves: v_i, c_i, ^iX_lambda, p_i as in ABA's pass 1, then each body alone (F as scratch
    // for its applied force), then the base.
    for (int i = 0; i < nb; ++i) velocity_step<S>(model, i, q, qd, f_ext, ws);
    for (int i = 0; i < nb; ++i) d.F[i][0] = Tatau(i) - ws.pA[i];                   // -p_i + T_a tau_i
    for (int i = 0; i < nb; ++i)
      if (model.parent[i] >= 0) d.F[model.parent[i]][0] -= ws.Xup[i].apply_transpose(Tatau(i));  //  - ^iX_lambda^* T_a tau_i
    for (int i = 0; i < nb; ++i) {
      aba_implicit_detail::spd_inverse_ldlt<S>(ws.IA[i], d.Phi[i][0]);             // I_i^-1
      d.b[i][0] = d.Phi[i][0] * d.F[i][0];
    }
    d.Phi[nb][0].setZero();
    d.b[nb][0] = join<S>(Vec3<S>::Zero(), Vec3<S>(-model.gravity));                // a_base = -a_g
    // Assembly, children before parents (Eqs. 7.62-7.63).
    const int n_nodes = static_cast<int>(d.tree.size());
    for (int k = nb + 1; k < n_nodes; ++k) {
      const DcaNode& node = d.tree[k];
      const int L = node.left, R = node.right, j = node.joint;
      const int nL = static_cast<int>(d.tree[L].handles.size()), nR = static_cast<int>(d.tree[R].handles.size());
      const Transform<S>& X = ws.Xup[j];
      const Mat6<S>& PhiA_pp = d.Phi[L][node.p * nL + node.p];
      const Mat6<S>& PhiB_jj = d.Phi[R][node.c * nR + node.c];
      d.W[k] = constraint_coupling<S>(ws.T[j], Mat6<S>(to_child<S>(X, PhiA_pp) + PhiB_jj));
      d.beta[k] = ws.c[j] - d.b[R][node.c] + X.apply(d.b[L][node.p]);
      const int nh = static_cast<int>(node.handles.size());
      for (int h = 0; h < nh; ++h) {
        const int s = node.source[h];
        Mat6<S>& g = d.g[k][h];
        if (s >= 0) {                                                               // g_h = X Phi^A_ph
          const Mat6<S>& P = d.Phi[L][node.p * nL + s];
          for (int col = 0; col < 6; ++col) g.col(col) = X.apply(Vec6<S>(P.col(col)));
        } else {                                                                    // g_h = -Phi^B_jh
          g = -d.Phi[R][node.c * nR + (-1 - s)];
        }
        d.Wg[k][h] = d.W[k] * g;
      }
      for (int h = 0; h < nh; ++h) {
        const int sh = node.source[h];
        d.b[k][h] = (sh >= 0 ? d.b[L][sh] : d.b[R][-1 - sh]) - d.Wg[k][h].transpose() * d.beta[k];
        for (int c = h; c < nh; ++c) {
          const int sc = node.source[c];
          Mat6<S>& P = d.Phi[k][h * nh + c];
          P = -(d.g[k][h].transpose() * d.Wg[k][c]);
          if (sh >= 0 && sc >= 0) P += d.Phi[L][sh * nL + sc];
          if (sh < 0 && sc < 0) P += d.Phi[R][(-1 - sh) * nR + (-1 - sc)];
          if (c != h) d.Phi[k][c * nh + h] = P.transpose();
        }
      }
    }
    // Disassembly, parents before children: each joint's constraint force, then each part's handle forces.
    for (int k = n_nodes - 1; k > nb; --k) {
      const DcaNode& node = d.tree[k];
      const int L = node.left, R = node.right, j = node.joint;
      Vec6<S> r = d.beta[k];
      for (std::size_t h = 0; h < node.handles.size(); ++h) r += d.g[k][h] * d.F[k][h];
      const Vec6<S> f3 = d.W[k] * r;                                                // Eq. 7.62
      d.f_joint[j] = f3;
      for (auto& f : d.F[L]) f.setZero();
      for (auto& f : d.F[R]) f.setZero();
      for (std::size_t h = 0; h < node.handles.size(); ++h) {
        const int s = node.source[h];
        (s >= 0 ? d.F[L][s] : d.F[R][-1 - s]) = d.F[k][h];
      }
      d.F[L][node.p] -= ws.Xup[j].apply_transpose(f3);                              // f_2 = -f_3, on p
      d.F[R][node.c] += f3;
    }
    // Bodies: a_i, then qdd_i (Table 7.2's footnote 1).
    for (int i = 0; i < nb; ++i) {
      ws.a[i] = d.Phi[i][0] * d.F[i][0] + d.b[i][0];
      const Vec6<S> a1 = ws.Xup[i].apply(model.parent[i] < 0 ? d.b[nb][0] : ws.a[model.parent[i]]);
      qdd.segment(model.v_idx[i], ws.Ta[i].cols()) = St_mul<S>(ws.Ta[i], Vec6<S>(ws.a[i] - a1 - ws.c[i]));
    }
  }
};

}  // namespace rbd
