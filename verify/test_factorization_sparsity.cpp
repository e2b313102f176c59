// Branch-induced sparsity (Featherstone sections 6.4-6.5): the L^T L and L^T D L factors have
// exactly H's pattern (no fill-in), the sparse variants never read or write an entry outside
// it, Table 6.4's expanded parent array, Table 6.5's products and solves, and Table 6.6's
// operation counts with D1 and D2 of Eqs. 6.26-6.27, exactly, on every verify case.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "cases/gu.hpp"
#include "cases/registry.hpp"
#include "core/counting_scalar.hpp"
#include "factorization/variants.hpp"
#include "mass_matrix/crba.hpp"
#include "verify/support/state.hpp"

using namespace rbd;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

MatX<double> crba_H(const Model<double>& m, const VecX<double>& q) {
  Workspace<double> ws(m);
  MatX<double> H = MatX<double>::Zero(m.nv, m.nv);
  Crba::run<double>(m, q, H, ws);
  return H;
}

// A copy of H whose upper triangle and branch-induced zeros are NaN: anything that reads
// them turns its result into NaN, and anything that writes them replaces a NaN.
MatX<double> poisoned(const MatX<double>& H, const std::vector<int>& lambda) {
  MatX<double> P = H;
  for (int i = 0; i < H.rows(); ++i)
    for (int j = 0; j < H.cols(); ++j)
      if (j > i || !in_pattern(lambda, i, j)) P(i, j) = kNaN;
  return P;
}

// The explicit lower-triangular factor from an in-place result (unit diagonal for L^T D L).
MatX<double> lower(const MatX<double>& F, bool unit) {
  MatX<double> L = F.triangularView<Eigen::Lower>();
  if (unit) L.diagonal().setOnes();
  return L;
}

}  // namespace

TEST_CASE("expanded parent array reproduces the example of Table 6.4", "[factorization][sparsity]") {
  // Parent array (0, 1, 1, 2, 2, 3) in the book's 1-based numbering, joint 2 with 3 DoF.
  Model<double> m;
  m.nb = 6;
  m.parent = {-1, 0, 0, 1, 1, 2};
  for (int i = 0; i < m.nb; ++i) m.joint.push_back(Joint<double>{i == 1 ? JointType::Spherical : JointType::Revolute});
  m.nv = 8;
  CHECK(expanded_parent(m) == std::vector<int>{-1, 0, 1, 2, 0, 3, 3, 4});  // book: (0,1,2,3,1,4,4,5)
  // All 1-DoF: the parent array itself.
  Model<double> c = m;
  c.joint.assign(6, Joint<double>{});
  c.nv = 6;
  CHECK(expanded_parent(c) == c.parent);
}

// Ancestors walks j, lambda(j), ... by runs of consecutive indices (contiguous, vectorisable
// loops) when the tree has long runs, and by the book's j = lambda(j) otherwise. Both walks
// must visit the same indices in the same order, and every routine must give the same bits
// either way, on every verify case and on chains long enough to have runs.
TEST_CASE("the run-wise ancestor walk is the book's walk, to the last bit", "[factorization][sparsity]") {
  std::vector<Model<double>> models;
  for (const auto& spec : cases::verify_cases()) models.push_back(spec.build());
  models.push_back(cases::gu(30));
  for (const auto& m : models) {
    INFO(m.name);
    const auto lam = expanded_parent(m);
    Ancestors runs(lam), book(lam);
    runs.long_runs = true;   // force each walk, whatever the model's runs
    book.long_runs = false;
    for (int j = 0; j < m.nv; ++j) {
      std::vector<int> want, got_runs, got_book;
      for (int a = j; a >= 0; a = lam[a]) want.push_back(a);
      runs.for_each_run(j, [&](int s, int e) { for (int k = e; k >= s; --k) got_runs.push_back(k); });
      book.for_each_run(j, [&](int s, int e) { for (int k = e; k >= s; --k) got_book.push_back(k); });
      CHECK(got_runs == want);
      CHECK(got_book == want);
    }
    const auto x = cases::random_state(m, 5);
    const MatX<double> H = crba_H(m, x.q);
    MatX<double> Fr = H, Fb = H, Gr = H, Gb = H;
    ltl_in_place<double>(runs, Fr); ltl_in_place<double>(book, Fb); CHECK(Fr == Fb);
    ltdl_in_place<double>(runs, Gr); ltdl_in_place<double>(book, Gb); CHECK(Gr == Gb);
    VecX<double> yr = x.tau, yb = x.tau, zr(m.nv), zb(m.nv);
    ltl_solve<double>(runs, Fr, yr); ltl_solve<double>(book, Fb, yb); CHECK(yr == yb);
    yr = x.tau; yb = x.tau;
    ltdl_solve<double>(runs, Gr, yr); ltdl_solve<double>(book, Gb, yb); CHECK(yr == yb);
    mul_L<false, double>(runs, Fr, x.tau, zr); mul_L<false, double>(book, Fb, x.tau, zb); CHECK(zr == zb);
    mul_Lt<true, double>(runs, Gr, x.tau, zr); mul_Lt<true, double>(book, Gb, x.tau, zb); CHECK(zr == zb);
    mul_H<double>(runs, H, x.tau, zr); mul_H<double>(book, H, x.tau, zb); CHECK(zr == zb);
  }
  CHECK(Ancestors(chain_parent(30)).long_runs);         // a 30-chain is one run: the fast walk
  CHECK_FALSE(Ancestors(chain_parent(5)).long_runs);    // too short to pay for a vector loop
}

TEST_CASE("no fill-in: dense L^T L and L^T D L leave every branch-induced zero exactly zero",
          "[factorization][sparsity]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    const auto lambda = expanded_parent(m);
    const auto dense = chain_parent(m.nv);  // lambda(k) = k - 1: every entry treated as nonzero
    for (int seed = 1; seed <= 3; ++seed) {
      const MatX<double> H = crba_H(m, cases::random_state(m, seed).q);
      MatX<double> Fl = H, Fd = H;
      ltl_in_place<double>(dense, Fl);
      ltdl_in_place<double>(dense, Fd);
      int outside = 0, nonzero_H = 0, nonzero_l = 0, nonzero_d = 0;
      for (int i = 0; i < m.nv; ++i)
        for (int j = 0; j < i; ++j)
          if (!in_pattern(lambda, i, j)) {
            ++outside;
            nonzero_H += H(i, j) != 0 || H(j, i) != 0;
            nonzero_l += Fl(i, j) != 0;
            nonzero_d += Fd(i, j) != 0;
          }
      INFO(spec.id << " seed " << seed << ": " << outside << " branch-induced zeros below the diagonal");
      CHECK(nonzero_H == 0);  // the CRBA's H has the pattern (Eq. 6.14)
      CHECK(nonzero_l == 0);
      CHECK(nonzero_d == 0);
      // The sparse factorization gives the dense one bit for bit: it only skips exact zeros.
      MatX<double> Sl = H, Sd = H;
      ltl_in_place<double>(lambda, Sl);
      ltdl_in_place<double>(lambda, Sd);
      CHECK(MatX<double>(Sl.triangularView<Eigen::Lower>()) == MatX<double>(Fl.triangularView<Eigen::Lower>()));
      CHECK(MatX<double>(Sd.triangularView<Eigen::Lower>()) == MatX<double>(Fd.triangularView<Eigen::Lower>()));
      // And they are factors: H = L^T L = L^T D L to round-off (n eps ||H|| with n = nv terms).
      const MatX<double> L = lower(Sl, false), U = lower(Sd, true);
      const double tol = 4 * m.nv * 2.2e-16 * H.norm();
      CHECK((L.transpose() * L - H).norm() <= tol);
      CHECK((U.transpose() * Sd.diagonal().asDiagonal() * U - H).norm() <= tol);
    }
  }
}

TEST_CASE("Eigen's L L^T fills in where L^T L does not (why the book factors in reverse order)",
          "[factorization][sparsity]") {
  // A complete binary tree: the root is eliminated first by L L^T, coupling every pair of
  // its descendants across branches.
  const Model<double> m = cases::build_case("tree:bf=2:nb=15");
  const auto lambda = expanded_parent(m);
  const MatX<double> H = crba_H(m, cases::random_state(m, 1).q);
  const MatX<double> L = Eigen::LLT<MatX<double>>(H).matrixL();
  int fill = 0;
  for (int i = 0; i < m.nv; ++i)
    for (int j = 0; j < i; ++j) fill += !in_pattern(lambda, i, j) && L(i, j) != 0;
  CHECK(fill > 0);
}

TEST_CASE("sparse variants never read or write outside the branch-induced pattern", "[factorization][sparsity]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    const auto lambda = expanded_parent(m);
    const auto x = cases::random_state(m, 2);
    const MatX<double> H = crba_H(m, x.q);
    const MatX<double> P = poisoned(H, lambda);
    INFO(spec.id);
    // In-situ routines on the poisoned matrix: the pattern gets the clean factor bit for bit
    // (nothing NaN was read), and every poisoned entry is still NaN (nothing was written there).
    for (bool unit : {false, true}) {
      MatX<double> clean = H, dirty = P;
      if (unit) { ltdl_in_place<double>(lambda, clean); ltdl_in_place<double>(lambda, dirty); }
      else { ltl_in_place<double>(lambda, clean); ltl_in_place<double>(lambda, dirty); }
      bool same = true, untouched = true;
      for (int i = 0; i < m.nv; ++i)
        for (int j = 0; j < m.nv; ++j) {
          if (j <= i && in_pattern(lambda, i, j)) same = same && dirty(i, j) == clean(i, j);
          else untouched = untouched && std::isnan(dirty(i, j));
        }
      CHECK(same);
      CHECK(untouched);
      // Table 6.5 routines on the poisoned factor agree exactly with the clean one.
      const VecX<double> b = x.tau;
      VecX<double> yc(m.nv), yd(m.nv), zc = b, zd = b;
      if (unit) {
        mul_L<true, double>(lambda, clean, b, yc); mul_L<true, double>(lambda, dirty, b, yd); CHECK(yc == yd);
        mul_Lt<true, double>(lambda, clean, b, yc); mul_Lt<true, double>(lambda, dirty, b, yd); CHECK(yc == yd);
        ltdl_solve<double>(lambda, clean, zc); ltdl_solve<double>(lambda, dirty, zd); CHECK(zc == zd);
      } else {
        mul_L<false, double>(lambda, clean, b, yc); mul_L<false, double>(lambda, dirty, b, yd); CHECK(yc == yd);
        mul_Lt<false, double>(lambda, clean, b, yc); mul_Lt<false, double>(lambda, dirty, b, yd); CHECK(yc == yd);
        ltl_solve<double>(lambda, clean, zc); ltl_solve<double>(lambda, dirty, zd); CHECK(zc == zd);
      }
    }
    VecX<double> hc(m.nv), hd(m.nv);
    mul_H<double>(lambda, H, x.tau, hc);
    mul_H<double>(lambda, P, x.tau, hd);
    CHECK(hc == hd);
    // The variants: factor(H) from the poisoned H solves exactly as from the clean one, and
    // their factor storage keeps exact zeros outside the pattern.
    FactorizationWorkspace<double> wc(m), wd(m);
    VecX<double> sc(m.nv), sd(m.nv);
    LtlSparse::run<double>(m, H, x.tau, sc, wc);
    LtlSparse::run<double>(m, P, x.tau, sd, wd);
    CHECK(sc == sd);
    LtdlSparse::run<double>(m, H, x.tau, sc, wc);
    LtdlSparse::run<double>(m, P, x.tau, sd, wd);
    CHECK(sc == sd);
    for (int i = 0; i < m.nv; ++i)
      for (int j = 0; j < m.nv; ++j)
        if (j > i || !in_pattern(lambda, i, j)) CHECK(wd.L(i, j) == 0.0);
  }
}

TEST_CASE("Table 6.5 products and solves match dense linear algebra", "[factorization]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    const auto lambda = expanded_parent(m);
    const auto x = cases::random_state(m, 4);
    const MatX<double> H = crba_H(m, x.q);
    MatX<double> F = H, G = H;
    ltl_in_place<double>(lambda, F);
    ltdl_in_place<double>(lambda, G);
    const MatX<double> L = lower(F, false), U = lower(G, true);
    const VecX<double>& b = x.tau;
    const double tol = 64 * m.nv * 2.2e-16;
    auto near = [&](const VecX<double>& a, const VecX<double>& e) { return (a - e).norm() <= tol * (e.norm() + b.norm()); };
    INFO(spec.id);
    VecX<double> y(m.nv);
    mul_L<false, double>(lambda, F, b, y); CHECK(near(y, L * b));
    mul_Lt<false, double>(lambda, F, b, y); CHECK(near(y, L.transpose() * b));
    mul_L<true, double>(lambda, G, b, y); CHECK(near(y, U * b));
    mul_Lt<true, double>(lambda, G, b, y); CHECK(near(y, U.transpose() * b));
    y = b; mul_L<false, double>(lambda, F, y, y); CHECK(near(y, L * b));  // Lx works in situ
    y = b; solve_L<false, double>(lambda, F, y); CHECK(near(L * y, b));
    y = b; solve_Lt<false, double>(lambda, F, y); CHECK(near(L.transpose() * y, b));
    y = b; solve_L<true, double>(lambda, G, y); CHECK(near(U * y, b));
    y = b; solve_Lt<true, double>(lambda, G, y); CHECK(near(U.transpose() * y, b));
    mul_H<double>(lambda, H, b, y); CHECK(near(y, H * b));
  }
}

TEST_CASE("operation counts equal Table 6.6 with D1, D2 of Eqs. 6.26-6.27 on every verify case",
          "[factorization][opcounts]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<Counted> m = md.cast<Counted>();
    const auto lambda = expanded_parent(m);
    const SparsityCounts sc = sparsity_counts(lambda);
    const long D1 = sc.D1, D2 = sc.D2;
    const std::uint64_t n = m.nv;
    Workspace<Counted> ws(m);
    MatX<Counted> H = MatX<Counted>::Zero(m.nv, m.nv);
    Crba::run<Counted>(m, cases::to<Counted>(cases::random_state(md, 1).q), H, ws);
    const VecX<Counted> b = cases::to<Counted>(cases::random_state(md, 1).tau);
    INFO(spec.id << ": n " << n << ", D1 " << D1 << ", D2 " << D2);
    MatX<Counted> F = H, G = H;
    VecX<Counted> x = b, y(m.nv);
    // factorization: LTL n sqrt + D1 d + D2 (m + a); LTDL D1 d + D2 (m + a)
    CHECK(count_ops([&] { ltl_in_place<Counted>(lambda, F); }) == OpCounts{std::uint64_t(D2), std::uint64_t(D2), std::uint64_t(D1), n, 0, 0});
    CHECK(count_ops([&] { ltdl_in_place<Counted>(lambda, G); }) == OpCounts{std::uint64_t(D2), std::uint64_t(D2), std::uint64_t(D1), 0, 0, 0});
    // back-substitution: LTL 2n d + 2 D1 (m + a); LTDL n d + 2 D1 (m + a)
    CHECK(count_ops([&] { ltl_solve<Counted>(lambda, F, x); }) == OpCounts{std::uint64_t(2 * D1), std::uint64_t(2 * D1), 2 * n, 0, 0, 0});
    x = b;
    CHECK(count_ops([&] { ltdl_solve<Counted>(lambda, G, x); }) == OpCounts{std::uint64_t(2 * D1), std::uint64_t(2 * D1), n, 0, 0, 0});
    // L x, L^T x: LTL n m + D1 (m + a); LTDL D1 (m + a)
    CHECK(count_ops([&] { mul_L<false, Counted>(lambda, F, b, y); }) == OpCounts{n + D1, std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { mul_Lt<false, Counted>(lambda, F, b, y); }) == OpCounts{n + D1, std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { mul_L<true, Counted>(lambda, G, b, y); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { mul_Lt<true, Counted>(lambda, G, b, y); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    // L^-1 x, L^-T x: LTL n d + D1 (m + a); LTDL D1 (m + a)
    x = b;
    CHECK(count_ops([&] { solve_L<false, Counted>(lambda, F, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), n, 0, 0, 0});
    CHECK(count_ops([&] { solve_Lt<false, Counted>(lambda, F, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), n, 0, 0, 0});
    CHECK(count_ops([&] { solve_L<true, Counted>(lambda, G, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { solve_Lt<true, Counted>(lambda, G, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    // H x: n m + 2 D1 (m + a)
    CHECK(count_ops([&] { mul_H<Counted>(lambda, H, b, y); }) == OpCounts{n + 2 * D1, std::uint64_t(2 * D1), 0, 0, 0, 0});
    // Eq. 6.29: D1 <= n (d - 1), D2 <= n d (d - 1) / 2, d = depth of the expanded tree.
    long d = 0;
    for (int k = 0; k < m.nv; ++k) {
      long dk = 0;
      for (int j = k; j >= 0; j = lambda[j]) ++dk;
      d = std::max(d, dk);
    }
    CHECK(D1 <= long(n) * (d - 1));
    CHECK(D2 <= long(n) * d * (d - 1) / 2);
  }
}
