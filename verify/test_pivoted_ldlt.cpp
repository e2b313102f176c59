// factorization/pivoted_ldlt.hpp, the semi-definite solve behind loop_lambda_first and
// loop_contact_lambda_first (Eq. 8.41's A^# b):
//  a. on positive-definite A it agrees with Eigen's unpivoted Cholesky (a different
//     factorization) to the bound conditioning allows, and keeps every pivot;
//  b. on semi-definite A = B B^T of rank r it finds rank r and solves A x = b for b in A's range
//     to a backward error of a few n eps;
//  c. rows that nearly repeat an earlier one, the case a pivot chosen from A's own diagonal
//     misjudges (why the header does not use Eigen::LDLT);
//  d. the zero matrix gives x = 0; a NaN or inf in A or in the right side makes x NaN, also
//     where it sits in a row the rank test drops; n = 0 is allowed.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "factorization/pivoted_ldlt.hpp"

namespace test_pivoted_ldlt {

using namespace rbd;
constexpr double eps = std::numeric_limits<double>::epsilon();

// The closed-loop workspaces' rank tolerance is 1e4 nv eps (closed_loop_dynamics/workspace.hpp);
// here the matrix size n stands in for nv.
double rank_tol(int n) { return 1e4 * n * eps; }

// |A x - b| / (|A| |x| + |b|), the normwise backward error of x (Higham, 2nd ed., Thm. 7.1).
double backward_error(const Eigen::MatrixXd& A, const Eigen::VectorXd& x, const Eigen::VectorXd& b) {
  return (A * x - b).norm() / (A.norm() * x.norm() + b.norm());
}

Eigen::MatrixXd random_matrix(std::mt19937_64& gen, int rows, int cols) {
  std::normal_distribution<double> g;
  Eigen::MatrixXd M(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) M(i, j) = g(gen);
  return M;
}

TEST_CASE("pivoted LDLT: positive definite A agrees with an unpivoted Cholesky", "[pivoted_ldlt]") {
  std::mt19937_64 gen(8041);
  for (int n = 1; n <= 30; ++n) {
    const Eigen::MatrixXd M = random_matrix(gen, n, n);
    const Eigen::MatrixXd A = M * M.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    const Eigen::VectorXd b = random_matrix(gen, n, 1);
    PivotedLdlt<double> f(n);
    f.compute(A, rank_tol(n));
    CHECK(f.rank == n);
    Eigen::VectorXd x = b;
    f.solve(x);
    const Eigen::VectorXd x_llt = A.llt().solve(b);
    // Both are backward stable with error ~ n eps |A| (Higham Thm. 10.3/10.4), so each solution is
    // within ~ n eps cond(A) of the exact one; 4 n eps cond(A) covers both and the constants.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(A);
    const double cond = es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
    INFO("n = " << n << ", cond = " << cond);
    CHECK((x - x_llt).norm() <= 4 * n * eps * cond * x_llt.norm());
    CHECK(backward_error(A, x, b) <= 4 * n * eps);
  }
}

TEST_CASE("pivoted LDLT: semi-definite A = B B^T finds its rank and a solution", "[pivoted_ldlt]") {
  std::mt19937_64 gen(8042);
  for (int n : {2, 5, 12, 18, 30})
    for (int r = 1; r < n; r += (n > 10 ? 4 : 1)) {  // r = 0 is the zero matrix, below
      // Gaussian B (n x r): its smallest singular value is ~ (sqrt(n) - sqrt(r)) / something of
      // order 1, so A's r-th pivot is of order 1e-2 or more while the pivots past the rank are
      // the rounding of A's n-term products, ~ n eps |A|: rank_tol (1e4 n eps) lies between.
      const Eigen::MatrixXd B = random_matrix(gen, n, r);
      const Eigen::MatrixXd A = B * B.transpose();
      const Eigen::VectorXd b = A * random_matrix(gen, n, 1);  // in A's range
      PivotedLdlt<double> f(n);
      f.compute(A, rank_tol(n));
      INFO("n = " << n << ", r = " << r);
      CHECK(f.rank == r);
      Eigen::VectorXd x = b;
      f.solve(x);
      CHECK(x.allFinite());
      // Backward error: the factorization's rounding, ~ n eps |A| (Higham Thm. 10.3 with complete
      // pivoting), plus the dropped Schur complement, which for an exact rank-r product is itself
      // rounding of A's r-term products. Measured at most 0.08 n eps over these cases; held to
      // 2 n eps (a pivot dropped wrongly leaves an O(1) residual).
      CHECK(backward_error(A, x, b) <= 2 * n * eps);
    }
}

TEST_CASE("pivoted LDLT: a row that nearly repeats another does not fool the pivot", "[pivoted_ldlt]") {
  // Rows of B in the plane: r0 = (1, 0), r1 = (1, e), r2 = (0, 0.1), so A = B B^T has rank 2
  // exactly, and r0 and r1 nearly coincide. After r1 (the largest diagonal) the Schur complement's
  // diagonal is ~e^2 for r0 and ~0.01 for r2. A pivot picked from A's diagonal before that update
  // (as Eigen::LDLT does) takes r0 and divides by e^2 plus rounding: for the smaller e that gives
  // a wrong rank (3) or a residual far above rounding. Complete pivoting takes r2, and r0's
  // remainder is then rounding, which the rank test drops. (The mutant that searches A's own
  // diagonal fails this case.)
  for (double e : {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}) {
    Eigen::MatrixXd B(3, 2);
    B << 1, 0, 1, e, 0, 0.1;
    const Eigen::MatrixXd A = B * B.transpose();
    const Eigen::VectorXd b = A * Eigen::Vector3d(0.3, -0.7, 1.1);
    PivotedLdlt<double> f(3);
    f.compute(A, rank_tol(3));
    INFO("e = " << e);
    CHECK(f.rank == 2);
    CHECK(f.swap_with[1] == 2);  // the second pivot is r2
    Eigen::VectorXd x = b;
    f.solve(x);
    // Pivots 1 and ~0.01: the solve's rounding is a few eps |A| |x|.
    CHECK(backward_error(A, x, b) <= 8 * eps);
  }
}

TEST_CASE("pivoted LDLT: zero, NaN and empty", "[pivoted_ldlt]") {
  PivotedLdlt<double> f(4);
  f.compute(Eigen::MatrixXd::Zero(4, 4), rank_tol(4));
  CHECK(f.rank == 0);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(4);
  f.solve(x);
  CHECK(x.isZero(0.0));
  // A NaN must reach the solution, never read as a small pivot and dropped, also when a pivot
  // below the rank test (A_11) would stop the factorization before the NaN's row.
  for (int where = 0; where < 4; ++where) {
    Eigen::MatrixXd A = 2 * Eigen::MatrixXd::Identity(4, 4);
    A(1, 1) = 1e-30;
    A(where, where) = std::numeric_limits<double>::quiet_NaN();
    f.compute(A, rank_tol(4));
    x = Eigen::VectorXd::Ones(4);
    f.solve(x);
    INFO("NaN at " << where);
    CHECK(x.hasNaN());
  }
  // Off the diagonal, in rows the rank test drops: the all-ones matrix has rank 1, and A(2, 1)
  // never meets a kept pivot.
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  PivotedLdlt<double> g(3);
  Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(3, 3);
  ones(2, 1) = nan;
  g.compute(ones, rank_tol(3));
  Eigen::VectorXd y = Eigen::VectorXd::Ones(3);
  g.solve(y);
  CHECK(y.hasNaN());
  // An infinite first pivot would make every other pivot "small" (rank 0, y = 0).
  Eigen::MatrixXd D = Eigen::Vector3d(inf, 1, 1).asDiagonal();
  g.compute(D, rank_tol(3));
  y = Eigen::VectorXd::Ones(3);
  g.solve(y);
  CHECK(y.hasNaN());
  // A NaN in the right side's redundant row (rank 1 again): not zeroed away with the row.
  g.compute(Eigen::MatrixXd::Ones(3, 3), rank_tol(3));
  CHECK(g.rank == 1);
  y = Eigen::Vector3d(1, 1, nan);
  g.solve(y);
  CHECK(y.hasNaN());
  PivotedLdlt<double> empty(0);
  empty.compute(Eigen::MatrixXd(0, 0), rank_tol(1));
  Eigen::VectorXd none(0);
  empty.solve(none);
  CHECK(empty.rank == 0);
}

}  // namespace test_pivoted_ldlt
