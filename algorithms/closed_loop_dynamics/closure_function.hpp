#pragma once
// Forward dynamics of a closed-loop system through an explicit loop-closure function,
// Featherstone section 8.11 (Eqs. 8.56-8.60).
//
// Some mechanisms have loops that can be solved in closed form: the tree's q is a known
// function of independent variables y, q = gamma(y), valid on a set C of y (Eq. 8.56). Then
//     qd  = G yd,              G = d gamma / d y            (Eqs. 8.57-8.58)
//     qdd = G ydd + g,         g = Gdot yd                  (Eqs. 8.59-8.60; the seed's text of
//                                                            Eq. 8.60 lost the dot over G, which
//                                                            Figure 8.3 has)
// and the equation of motion in y is Eq. 8.45 with the caller's G and g:
//     G^T H G ydd = G^T (tau - C - H g).
// Nothing is integrated in q, so the loops cannot drift (no stabilisation), and G and g cost a
// few scalar formulas instead of section 8.8's K, k and elimination.
//
// The caller supplies gamma, G and g together (closed forms share their subexpressions) as an
// object `closure` with
//     int ny() const;                                     the number of independent variables
//     void evaluate(const VecX<S>& y, const VecX<S>& yd,  q = gamma(y) (size nq), G (nv x ny),
//                   VecX<S>& q, MatX<S>& G, VecX<S>& g) const;   g = Gdot yd (size nv)
// that throws std::domain_error for y outside C. Two are in cases/: Figure 8.3's mechanism
// (cases/actuated_arm.hpp, the figure's own formulas) and the planar four-bar
// (cases/four_bar.hpp).
//
// This is not a variant of the closed-loop family (verify/support/families.hpp): its input is
// y, yd and a closure function, which a random loop on a random tree does not have. It is
// checked against the family and its oracle on the two mechanisms in
// verify/test_closure_function.cpp.
#include <Eigen/Cholesky>
#include <concepts>
#include <stdexcept>
#include <string>

#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/workspace.hpp"

namespace rbd {

template <class F, class S>
concept LoopClosureFunction = requires(const F& f, const VecX<S>& y, VecX<S>& q, MatX<S>& G, VecX<S>& g) {
  { f.ny() } -> std::convertible_to<int>;
  f.evaluate(y, y, q, G, g);
};

template <class S> struct ClosureFunctionWorkspace : Workspace<S> {
  VecX<S> q, qd, qdd, g, zero, C, col, rhs;  // qdd = G ydd + g (Eq. 8.59), kept for the caller
  MatX<S> G, H, HG, Hy;
  ClosureFunctionWorkspace() = default;
  ClosureFunctionWorkspace(const Model<S>& m, int ny)
      : Workspace<S>(m), q(VecX<S>::Zero(m.nq)), qd(VecX<S>::Zero(m.nv)), qdd(VecX<S>::Zero(m.nv)),
        g(VecX<S>::Zero(m.nv)), zero(VecX<S>::Zero(m.nv)), C(VecX<S>::Zero(m.nv)), col(VecX<S>::Zero(m.nv)),
        rhs(VecX<S>::Zero(ny)), G(MatX<S>::Zero(m.nv, ny)), H(MatX<S>::Zero(m.nv, m.nv)),
        HG(MatX<S>::Zero(m.nv, ny)), Hy(MatX<S>::Zero(ny, ny)) {}
};

namespace closure_detail {
inline void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("closure_function_dynamics: " + what);
}
}  // namespace closure_detail

// ydd for the state (y, yd) and the tree's joint forces tau (size nv); f_ext nullable. Leaves
// q, qd, G, g, H, C and qdd = G ydd + g in ws.
template <class S, class Closure>
  requires LoopClosureFunction<Closure, S>
void closure_function_dynamics(const Model<S>& m, const Closure& closure, const VecX<S>& y, const VecX<S>& yd,
                               const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& ydd,
                               ClosureFunctionWorkspace<S>& ws) {
  using closure_detail::require;
  const int ny = closure.ny(), n = m.nv;
  require(y.size() == ny && yd.size() == ny && ydd.size() == ny,
          "y, yd and ydd must have ny = " + std::to_string(ny) + " entries");
  require(tau.size() == n, "tau must have nv = " + std::to_string(n) + " entries");
  require(ws.G.rows() == n && ws.G.cols() == ny && ws.q.size() == m.nq,
          "the workspace was made for another model or another ny (ClosureFunctionWorkspace(model, ny))");
  require(y.allFinite() && yd.allFinite() && tau.allFinite(), "y, yd or tau is not finite");
  closure.evaluate(y, yd, ws.q, ws.G, ws.g);                        // Eqs. 8.56, 8.58, 8.60
  require(ws.q.size() == m.nq && ws.G.rows() == n && ws.G.cols() == ny && ws.g.size() == n,
          "the closure function returned q, G or g of the wrong size");
  require(ws.q.allFinite() && ws.G.allFinite() && ws.g.allFinite(),
          "the closure function returned a non-finite q, G or g (y outside its domain C?)");
  ws.qd.noalias() = ws.G * yd;                                       // Eq. 8.57
  RneaSpatial::run<S>(m, ws.q, ws.qd, ws.zero, f_ext, ws.C, ws);     // C = ID(q, qd, 0) (Table 5.1)
  Crba::run<S>(m, ws.q, ws.H, ws);                                   // H (Table 6.2)
  ws.col.noalias() = ws.H * ws.g;
  ws.col = tau - ws.C - ws.col;                                      // tau - C - H g
  ws.rhs.noalias() = ws.G.transpose() * ws.col;                      // Eq. 8.45's right side
  ws.HG.noalias() = ws.H * ws.G;
  ws.Hy.noalias() = ws.G.transpose() * ws.HG;                        // G^T H G
  Eigen::Ref<MatX<S>> Hy = ws.Hy;
  Eigen::LLT<Eigen::Ref<MatX<S>>> llt(Hy);                           // in place: no allocation
  if (llt.info() != Eigen::Success)
    throw std::runtime_error("closure_function_dynamics: G^T H G is not positive definite "
                             "(G rank deficient, i.e. y at a singular point of gamma, or a singular mass matrix)");
  ydd = ws.rhs;
  llt.solveInPlace(ydd);
  ws.qdd = ws.g;
  ws.qdd.noalias() += ws.G * ydd;                                    // Eq. 8.59
}

}  // namespace rbd
