#pragma once
// Scratch for the contact family (Featherstone chapter 11). The contacts are an argument of
// every call, like the closed-loop family's loop joints; what depends only on their structure
// (how many, which bodies) is set up by prepare() when it changes, and every matrix is sized
// for n_c contacts, so a call with the same structure as the last allocates nothing.
// It is a ForwardDynamicsWorkspace (and so a Workspace): the dense route runs the RNEA and the
// CRBA in it, the articulated-body route the ABA.
#include <Eigen/Cholesky>
#include <optional>
#include <vector>

#include "forward_dynamics/workspace.hpp"
#include "model/contact.hpp"

namespace rbd {

template <class S> struct ContactWorkspace : ForwardDynamicsWorkspace<S> {
  struct Shape {
    int p, s;
    bool operator==(const Shape&) const = default;
  };
  std::vector<Shape> shape;
  bool prepared = false;
  int nc = 0;
  // What the shared LCP solvers and checks call the problem in their errors: chapter 11's
  // acceleration LCP here, the impact family's velocity LCP there (impact_dynamics/workspace.hpp).
  const char* problem = "contact dynamics";
  const char* lcp_name = "the LCP of Eq. 11.42";
  const char* d_name = "d (Eq. 11.36)";

  // Contact kinematics (steps.hpp), per call. Base coordinates throughout, as Table 8.4.
  Forces6<S> S0;                     // every joint's S in base coordinates, by column of qd
  Forces6<S> normal;                 // n_i: the unit force along contact i's normal line (6 x n_c)
  MatX<S> T;                         // n x n_c, Eq. 11.31: t_i = (J_s^T - J_p^T) n_i (Eq. 11.25)
  VecX<S> Tdot_qd;                   // (T_dot^T qd)_i, Eq. 11.30
  // The LCP of Eq. 11.42: zeta_dot = M lambda + d.
  MatX<S> M;                         // n_c x n_c, Eq. 11.35
  VecX<S> d;                         // n_c, Eq. 11.36
  VecX<S> lambda, zeta_dot;          // the solution
  // Dense route: C and H (RNEA, CRBA), H = L L^T, Y = L^-1 T, z = L^-1 (tau - C).
  VecX<S> zero, C, rhs;
  MatX<S> Hd, Y;
  VecX<S> z;
  std::optional<Eigen::LLT<MatX<S>>> llt;
  // Articulated-body route: qdd_0 = H^-1 (tau - C) by the ABA, and R = H^-1 T by one test-force
  // pass per contact; the velocity-product accelerations a_i^vp (body coordinates).
  VecX<S> qdd0, col;
  MatX<S> R;
  std::vector<Vec6<S>> avp, ptest, atest;
  // LCP solvers (lemke.hpp, dantzig.hpp).
  MatX<S> tableau;                   // Lemke: n_c x (2 n_c + 2)
  std::vector<int> basis;            // Lemke: the basic variable of each row
  MatX<S> Mcc;                       // Dantzig: M restricted to the clamped set, factored in place
  VecX<S> dlambda, dzeta, xc;        // Dantzig: the step direction, its effect, a small solve
  std::vector<char> clamped, free_;  // Dantzig: C and NC of the principal pivoting
  std::vector<int> cidx;             // Dantzig: the clamped contacts in order
  // Goldfarb-Idnani on Eq. 11.44's least-distance form (least_distance.hpp), sized by n: at most
  // n constraints are active, their columns of Y = Q_1 R.
  MatX<S> qp_Q, qp_R;                // Q n x n orthogonal, R upper triangular in its top-left q x q
  VecX<S> qp_y, qp_dv, qp_r, qp_u;   // y = L^T (qdd - qdd_0); Q^T y_p; R^-1 dv_1; the active multipliers
  std::vector<int> qp_active;        // the active contacts, in R's column order
  int qp_drops = 0, qp_dual_steps = 0;  // the last solve's drops, and its steps with a dependent column (reported)

  ContactWorkspace() = default;
  explicit ContactWorkspace(const Model<S>& m)
      : ForwardDynamicsWorkspace<S>(m), S0(Forces6<S>::Zero(6, m.nv)), zero(VecX<S>::Zero(m.nv)),
        C(VecX<S>::Zero(m.nv)), rhs(VecX<S>::Zero(m.nv)), Hd(MatX<S>::Zero(m.nv, m.nv)), z(VecX<S>::Zero(m.nv)),
        llt(std::in_place, m.nv), qdd0(VecX<S>::Zero(m.nv)), col(VecX<S>::Zero(m.nv)), avp(m.nb, Vec6<S>::Zero()),
        ptest(m.nb, Vec6<S>::Zero()), atest(m.nb, Vec6<S>::Zero()), qp_Q(MatX<S>::Identity(m.nv, m.nv)),
        qp_R(MatX<S>::Zero(m.nv, m.nv)), qp_y(VecX<S>::Zero(m.nv)), qp_dv(VecX<S>::Zero(m.nv)), qp_r(VecX<S>::Zero(m.nv)),
        qp_u(VecX<S>::Zero(m.nv)), qp_active(m.nv, 0) {}

  void prepare(const Model<S>& m, const PointContacts<S>& contacts) {
    auto same_shape = [&] {  // compared in place: the same structure as the last call allocates nothing
      if (!prepared || shape.size() != contacts.size()) return false;
      for (std::size_t i = 0; i < contacts.size(); ++i)
        if (!(shape[i] == Shape{contacts[i].p, contacts[i].s})) return false;
      return true;
    };
    if (same_shape()) return;
    check_contact_bodies(m, contacts);  // names the contact, before anything is kept
    shape.clear();
    for (const auto& c : contacts) shape.push_back({c.p, c.s});
    prepared = true;
    nc = static_cast<int>(contacts.size());
    const int n = m.nv;
    normal = Forces6<S>::Zero(6, nc);
    T = MatX<S>::Zero(n, nc);
    Tdot_qd = VecX<S>::Zero(nc);
    M = MatX<S>::Zero(nc, nc);
    d = lambda = zeta_dot = VecX<S>::Zero(nc);
    Y = R = MatX<S>::Zero(n, nc);
    tableau = MatX<S>::Zero(nc, 2 * nc + 2);
    basis.assign(nc, 0);
    Mcc = MatX<S>::Zero(nc, nc);
    dlambda = dzeta = xc = VecX<S>::Zero(nc);
    clamped.assign(nc, 0);
    free_.assign(nc, 0);
    cidx.assign(nc, 0);
  }
};

}  // namespace rbd
