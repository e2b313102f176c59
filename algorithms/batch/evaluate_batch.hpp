#pragma once
// Many states at once (issue 17): a family variant evaluated on M states, N at a time in the
// lanes of Batch<N> (core/batch_scalar.hpp). States are the columns of the input matrices; when
// M is not a multiple of N the last batch is filled up with copies of the last state and the
// extra lanes are dropped. Lane k of a batch gives what a single call gives in the counting
// scalar (the variant's double operations in source order), bit for bit (verify/test_batch.cpp).
//
// The workspace holds the model broadcast into Batch<N> and every buffer, so the calls below
// allocate nothing.
#include <cstring>
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
  MatX<B> H;                           // mass_matrix_batch's, and only its
  const void* H_written_by = nullptr;  // the variant whose pattern H holds (mass_matrix_batch)

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
// out[k][e] = x[e].lane(k) for e < count, k < N: the N states' values from a run of batch
// values, lane k to the contiguous doubles at out[k]. Four values at a time are read as four
// N-lane vectors and transposed in registers, four lanes at a time (two shuffle stages), so
// that each state gets one 4-double store where a lane-by-lane copy does four loads and four
// stores; the rest go one by one.
template <int N> void store_transposed(const Batch<N>* x, Eigen::Index count, double* const* out) {
  static_assert(sizeof(Batch<N>) == N * sizeof(double), "Batch<N> is N doubles");
  const double* p = reinterpret_cast<const double*>(x);  // entry e, lane k at p[e N + k]
  Eigen::Index e = 0;
  if constexpr (N % 4 == 0) {
    typedef double v4 __attribute__((vector_size(32), aligned(8)));
    for (; e + 4 <= count; e += 4)
      for (int h = 0; h < N; h += 4) {  // lanes h .. h + 3
        v4 a0, a1, a2, a3;
        std::memcpy(&a0, p + (e + 0) * N + h, sizeof a0);
        std::memcpy(&a1, p + (e + 1) * N + h, sizeof a1);
        std::memcpy(&a2, p + (e + 2) * N + h, sizeof a2);
        std::memcpy(&a3, p + (e + 3) * N + h, sizeof a3);
        const v4 u0 = __builtin_shufflevector(a0, a1, 0, 4, 2, 6), u1 = __builtin_shufflevector(a0, a1, 1, 5, 3, 7);
        const v4 u2 = __builtin_shufflevector(a2, a3, 0, 4, 2, 6), u3 = __builtin_shufflevector(a2, a3, 1, 5, 3, 7);
        const v4 t0 = __builtin_shufflevector(u0, u2, 0, 1, 4, 5), t1 = __builtin_shufflevector(u1, u3, 0, 1, 4, 5);
        const v4 t2 = __builtin_shufflevector(u0, u2, 2, 3, 6, 7), t3 = __builtin_shufflevector(u1, u3, 2, 3, 6, 7);
        std::memcpy(out[h + 0] + e, &t0, sizeof t0);
        std::memcpy(out[h + 1] + e, &t1, sizeof t1);
        std::memcpy(out[h + 2] + e, &t2, sizeof t2);
        std::memcpy(out[h + 3] + e, &t3, sizeof t3);
      }
  }
  for (; e < count; ++e)
    for (int k = 0; k < N; ++k) out[k][e] = p[e * N + k];
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
  // Some variants write only the branch-induced pattern of H, and the rest must read zero. The
  // pattern depends on the model alone (a branch on the state throws in a batch), so a variant
  // writes the same entries at every call: H is cleared only when the variant changes.
  if (b.H_written_by != &Variant::name) {
    b.H.setZero();
    b.H_written_by = &Variant::name;
  }
  double* columns[N];
  for (Eigen::Index j = 0; j < M; j += N) {
    detail::load_lanes(Q, j, b.q);
    Variant::template run<Batch<N>>(b.model, b.q, b.H, b.ws);
    if (j + N <= M) {
      for (int k = 0; k < N; ++k) columns[k] = HS.data() + (j + k) * HS.rows();
      detail::store_transposed<N>(b.H.data(), Eigen::Index(nv) * nv, columns);  // H column-major, as HS wants it
    } else {
      for (int k = 0; j + k < M; ++k)
        for (int c = 0; c < nv; ++c)
          for (int r = 0; r < nv; ++r) HS(c * nv + r, j + k) = b.H(r, c).lane(k);
    }
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
