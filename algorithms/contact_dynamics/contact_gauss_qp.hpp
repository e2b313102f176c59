#pragma once
// Contact dynamics as Gauss's principle of least constraint with unilateral contacts (Eq. 11.44):
// the dense route's H = L L^T, Y = L^-1 T and z = L^-1 (tau - C) (steps.hpp) turn it into a
// least-distance problem in y = L^T (qdd - qdd_0), solved by Goldfarb and Idnani's dual
// active-set method (least_distance.hpp); then qdd = L^-T (z + y) straight from the QP's
// minimizer, not from lambda through Eq. 11.41. The solver works on a QR factorization of the
// active columns of Y and never reads M (dense_lcp forms it only as the family's reported data).
#include <string_view>

#include "contact_dynamics/least_distance.hpp"
#include "contact_dynamics/steps.hpp"

namespace rbd {

struct ContactGaussQp {
  static constexpr std::string_view name = "contact_gauss_qp";
  static constexpr std::string_view summary =
      "Gauss's principle with unilateral contacts (Eq. 11.44) as a least-distance QP in y = L^T (qdd - qdd_0), H = L L^T "
      "by the CRBA, solved by Goldfarb-Idnani's dual active-set method on a QR factorization of the active columns of "
      "L^-1 T (M never factored); qdd = L^-T (L^-1 (tau - C) + y)";
  static constexpr std::string_view complexity = "O(n^3) + O(n^2 n_c) + O(n^2) per active-set change";
  static constexpr bool polynomial_op_counts = false;  // active-set changes depend on the state
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ContactWorkspace<S>& ws) {
    contacts::dense_lcp<S>(m, contacts, q, qd, tau, f_ext, ws);
    contacts::least_distance<S>(ws);
    ws.rhs = ws.z + ws.qp_y;
    ws.llt->matrixU().solveInPlace(ws.rhs);  // L^T x = z + y
    qdd = ws.rhs;
  }
};

}  // namespace rbd
