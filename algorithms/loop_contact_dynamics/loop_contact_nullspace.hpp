#pragma once
// Contacts on a closed-loop mechanism, loops first: section 8.5's Method 3 makes the loops'
// constraint forces vanish (qdd = G ydd + g, Eqs. 8.42-8.51, complete pivoting with a rank
// test), and the contact problem is then posed in the independent accelerations ydd, where the
// mechanism is a system with the symmetric positive-definite inertia G^T H G (Eq. 8.45) and the
// contact forces act through T_y = G^T T (Eq. 8.45's G^T applied to Eq. 11.41's T lambda):
//   G^T H G ydd = G^T (tau' - H g) + T_y lambda,   zeta_dot = T^T (G ydd + g) + T_dot^T qd.
// With G^T H G = L_y L_y^T, Y = L_y^-1 T_y and z = L_y^-1 G^T (tau' - H g), Eqs. 11.35-11.36 become
//   M = Y^T Y,   d = Y^T z + T^T g + T_dot^T qd,
// the LCP of Eq. 11.42 is solved by Cottle-Dantzig principal pivoting (contact_dynamics/dantzig.hpp),
// and ydd = L_y^-T (z + Y lambda). A contact the loops hold (G^T t_i = 0 to rank_tol times the
// sizes of G and t_i) is released from the LCP with lambda_i = 0 (steps.hpp's
// release_held_contacts); a locked mechanism (rank K = n) holds them all: qdd = g.
#include <stdexcept>
#include <string_view>

#include "closed_loop_dynamics/elimination.hpp"
#include "contact_dynamics/dantzig.hpp"
#include "loop_contact_dynamics/steps.hpp"

namespace rbd {

struct LoopContactNullspace {
  static constexpr std::string_view name = "loop_contact_nullspace";
  static constexpr std::string_view summary =
      "Loops first: qdd = G ydd + g (Method 3, Eqs. 8.42-8.51), then the contact LCP in ydd with G^T H G and T_y = "
      "G^T T (Eqs. 8.45, 11.35-11.36), solved by Cottle-Dantzig principal pivoting";
  static constexpr std::string_view complexity = "O(nd) + O(n^c n^2) + O(n^3) + O(n^2 n_c) + O(n_c^3) per pivot";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const PointContacts<S>& contacts, const VecX<S>& q,
                  const VecX<S>& qd, const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd,
                  LoopContactWorkspace<S>& ws) {
    loop_contacts::tree_loop_and_contact_terms<S>(m, loops, contacts, q, qd, tau, f_ext, ws);
    ClosedLoopWorkspace<S>& L = ws.loop;
    ContactWorkspace<S>& c = ws.contact;
    loops::eliminate<S>(L);
    loops::null_space_form<S>(L);
    const int ny = m.nv - L.rank;
    const auto G = L.G.leftCols(ny);
    c.d = c.Tdot_qd;
    c.d.noalias() += c.T.transpose() * L.g;                       // T^T g + T_dot^T qd
    qdd = L.g;
    if (ny == 0) {                                                // locked: the loops hold every contact
      c.M.setZero();
      contacts::require_finite_lcp<S>(c);
      loop_contacts::release_held_contacts<S>(
          c, [](int) { return true; },
          [&](int i) { return loop_contacts::held_d_tolerance<S>(m, c, i, L.g, qd, L.rank_tol); }, name.data());
      contacts::dantzig<S>(c);
      return;
    }
    L.col.noalias() = L.H * L.g;
    L.col = L.tau_prime - L.col;                                  // tau' - H g
    auto z = L.rhs.head(ny);
    z.noalias() = G.transpose() * L.col;                          // Eq. 8.45's right side
    L.HG.leftCols(ny).noalias() = L.H * G;
    L.Hy.topLeftCorner(ny, ny).noalias() = G.transpose() * L.HG.leftCols(ny);  // G^T H G
    Eigen::Ref<MatX<S>> Hy = L.Hy.topLeftCorner(ny, ny);
    Eigen::LLT<Eigen::Ref<MatX<S>>> llt(Hy);                      // in place: no allocation
    if (llt.info() != Eigen::Success)
      throw std::domain_error("loop_contact_nullspace: G^T H G is not positive definite (a singular mass matrix, or "
                              "NaN in q?)");
    auto Y = ws.Yy.topRows(ny);
    Y.noalias() = G.transpose() * c.T;                            // T_y = G^T T
    // A contact the loops hold has G^T t_i = 0 up to the rounding of G's entries (steps.hpp).
    S g_max = S(0);
    for (int r = 0; r < m.nv; ++r)
      for (int k = 0; k < ny; ++k) g_max = std::max(g_max, S(abs_(G(r, k))));
    for (int i = 0; i < c.nc; ++i) {
      ws.held[i] = Y.col(i).norm() <= L.rank_tol * g_max * c.T.col(i).norm();
      if (ws.held[i]) Y.col(i).setZero();  // its rounding would reach d through Y^T z
    }
    llt.matrixL().solveInPlace(Y);
    llt.matrixL().solveInPlace(z);
    c.M.noalias() = Y.transpose() * Y;                            // Eq. 11.35 in ydd
    c.d.noalias() += Y.transpose() * z;                           // Eq. 11.36 in ydd
    contacts::require_finite_lcp<S>(c);
    loop_contacts::release_held_contacts<S>(
        c, [&](int i) { return ws.held[i] != 0; },
        [&](int i) { return loop_contacts::held_d_tolerance<S>(m, c, i, L.g, qd, L.rank_tol); }, name.data());
    contacts::dantzig<S>(c);
    z.noalias() += Y * c.lambda;
    llt.matrixU().solveInPlace(z);                                // ydd = L_y^-T (z + Y lambda)
    qdd.noalias() += G * z;                                       // Eq. 8.42
  }
};

}  // namespace rbd
