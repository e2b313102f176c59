#pragma once
// Many states at once (issue 17): a family variant evaluated on M states, N at a time in the
// lanes of Batch<N> (core/batch_scalar.hpp). States are the columns of the input matrices; when
// M is not a multiple of N the last batch is filled up with copies of the last state and the
// extra lanes are dropped. Lane k of a batch gives what a single call gives in the counting
// scalar (the variant's double operations in source order), bit for bit (verify/test_batch.cpp).
//
// The workspace holds the model broadcast into Batch<N> and every buffer, so the calls below
// allocate nothing.
#include <stdexcept>
#include <string>

#include "core/batch_scalar.hpp"
#include "forward_dynamics/workspace.hpp"
#include "model/model.hpp"
#include "model/workspace.hpp"

namespace rbd {

template <int N> struct BatchWorkspace {
  using B = Batch<N>;
  Model<B> model;
  ForwardDynamicsWorkspace<B> ws;  // a Workspace too, for inverse dynamics and the mass matrix
  VecX<B> q, qd, third, out;
  MatX<B> H;

  explicit BatchWorkspace(const Model<double>& m)
      : model(m.template cast<B>()), ws(model), q(m.nq), qd(m.nv), third(m.nv), out(m.nv), H(m.nv, m.nv) {}
};

namespace detail {
// Lanes 0..N-1 of x from columns first.. of X (the last column repeated past the end).
template <int N> void load_lanes(const MatX<double>& X, Eigen::Index first, VecX<Batch<N>>& x) {
  for (Eigen::Index r = 0; r < X.rows(); ++r)
    for (int k = 0; k < N; ++k) x[r].set_lane(k, X(r, std::min<Eigen::Index>(first + k, X.cols() - 1)));
}
template <int N> void store_lanes(const VecX<Batch<N>>& y, Eigen::Index first, MatX<double>& Y) {
  for (int k = 0; k < N && first + k < Y.cols(); ++k)
    for (Eigen::Index r = 0; r < y.size(); ++r) Y(r, first + k) = y[r].lane(k);
}
inline void check_shapes(const char* who, Eigen::Index rows_wanted, const MatX<double>& X, Eigen::Index cols,
                         const char* name) {
  if (X.rows() != rows_wanted || X.cols() != cols)
    throw std::invalid_argument(std::string(who) + ": " + name + " must be " + std::to_string(rows_wanted) + " x " +
                                std::to_string(cols) + " (one column per state), got " + std::to_string(X.rows()) +
                                " x " + std::to_string(X.cols()));
}
}  // namespace detail

// TAU.col(j) = ID(Q.col(j), QD.col(j), QDD.col(j)), no external forces. TAU is sized by the caller.
template <class Variant, int N>
void inverse_dynamics_batch(BatchWorkspace<N>& b, const MatX<double>& Q, const MatX<double>& QD,
                            const MatX<double>& QDD, MatX<double>& TAU) {
  const Eigen::Index M = Q.cols();
  const int nq = b.model.nq, nv = b.model.nv;
  detail::check_shapes("inverse_dynamics_batch", nq, Q, M, "Q");
  detail::check_shapes("inverse_dynamics_batch", nv, QD, M, "QD");
  detail::check_shapes("inverse_dynamics_batch", nv, QDD, M, "QDD");
  detail::check_shapes("inverse_dynamics_batch", nv, TAU, M, "TAU");
  for (Eigen::Index j = 0; j < M; j += N) {
    detail::load_lanes(Q, j, b.q);
    detail::load_lanes(QD, j, b.qd);
    detail::load_lanes(QDD, j, b.third);
    Variant::template run<Batch<N>>(b.model, b.q, b.qd, b.third, nullptr, b.out, b.ws);
    detail::store_lanes(b.out, j, TAU);
  }
}

// H of state j, column-major, in column j of HS (nv * nv rows).
template <class Variant, int N> void mass_matrix_batch(BatchWorkspace<N>& b, const MatX<double>& Q, MatX<double>& HS) {
  const Eigen::Index M = Q.cols();
  const int nq = b.model.nq, nv = b.model.nv;
  detail::check_shapes("mass_matrix_batch", nq, Q, M, "Q");
  detail::check_shapes("mass_matrix_batch", Eigen::Index(nv) * nv, HS, M, "HS");
  for (Eigen::Index j = 0; j < M; j += N) {
    detail::load_lanes(Q, j, b.q);
    b.H.setZero();  // some variants write only the branch-induced pattern
    Variant::template run<Batch<N>>(b.model, b.q, b.H, b.ws);
    for (int k = 0; k < N && j + k < M; ++k)
      for (int c = 0; c < nv; ++c)
        for (int r = 0; r < nv; ++r) HS(c * nv + r, j + k) = b.H(r, c).lane(k);
  }
}

// QDD.col(j) = FD(Q.col(j), QD.col(j), TAU.col(j)), no external forces.
template <class Variant, int N>
void forward_dynamics_batch(BatchWorkspace<N>& b, const MatX<double>& Q, const MatX<double>& QD,
                            const MatX<double>& TAU, MatX<double>& QDD) {
  const Eigen::Index M = Q.cols();
  const int nq = b.model.nq, nv = b.model.nv;
  detail::check_shapes("forward_dynamics_batch", nq, Q, M, "Q");
  detail::check_shapes("forward_dynamics_batch", nv, QD, M, "QD");
  detail::check_shapes("forward_dynamics_batch", nv, TAU, M, "TAU");
  detail::check_shapes("forward_dynamics_batch", nv, QDD, M, "QDD");
  for (Eigen::Index j = 0; j < M; j += N) {
    detail::load_lanes(Q, j, b.q);
    detail::load_lanes(QD, j, b.qd);
    detail::load_lanes(TAU, j, b.third);
    Variant::template run<Batch<N>>(b.model, b.q, b.qd, b.third, nullptr, b.out, b.ws);
    detail::store_lanes(b.out, j, QDD);
  }
}

}  // namespace rbd
