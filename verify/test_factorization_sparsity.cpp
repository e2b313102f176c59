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

namespace test_factorization_sparsity {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

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

// The packed rows (TreePattern): row k lists k, lambda(k), ..., the root, and the row of each
// ancestor i of k is the tail of row k from i's place on -- the property that makes Table
// 6.3's area-3 update one contiguous loop. n + D1 places in all (Eq. 6.26).
TEST_CASE("packed rows list each variable's ancestors, and an ancestor's row is a tail of its descendant's",
          "[factorization][sparsity]") {
  std::vector<Model<double>> models;
  for (const auto& spec : cases::verify_cases()) models.push_back(spec.build());
  models.push_back(cases::gu(30));
  for (const auto& m : models) {
    INFO(m.name);
    const auto lam = expanded_parent(m);
    const TreePattern p(lam);
    CHECK(p.nonzeros() == m.nv + sparsity_counts(lam).D1);
    for (int k = 0; k < m.nv; ++k) {
      std::vector<int> want;
      for (int a = k; a >= 0; a = lam[a]) want.push_back(a);
      const std::vector<int> got(p.col.begin() + p.row_start[k], p.col.begin() + p.row_start[k + 1]);
      CHECK(got == want);
      for (int q = 1; q < p.depth(k); ++q) {
        const int i = p.col[p.row_start[k] + q];
        const std::vector<int> tail(got.begin() + q, got.end());
        const std::vector<int> row_i(p.col.begin() + p.row_start[i], p.col.begin() + p.row_start[i + 1]);
        CHECK(row_i == tail);
      }
    }
  }
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
      // The variants' packed factors, shown as full matrices, are the in-situ results.
      FactorizationWorkspace<double> wl(m), wd(m);
      LtlSparse::factor<double>(H, wl);
      LtdlSparse::factor<double>(H, wd);
      CHECK(wl.factor_matrix() == MatX<double>(Sl.triangularView<Eigen::Lower>()));
      CHECK(wd.factor_matrix() == MatX<double>(Sd.triangularView<Eigen::Lower>()));
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
    }
    const TreePattern pat(lambda);
    PackedRows<double> Hc(pat.nonzeros()), Hd(pat.nonzeros());
    pack<double>(pat, H, Hc);
    pack<double>(pat, P, Hd);
    CHECK(Hd == Hc);  // pack read no NaN: only the diagonal and the pattern (the routines of
                      // Table 6.5 see nothing else: packed rows have no place for it)
    // The variants: factor(H) from the poisoned H solves exactly as from the clean one (their
    // packed factor has no place outside the pattern, so exact zeros there need no check).
    FactorizationWorkspace<double> wc(m), wd(m);
    VecX<double> sc(m.nv), sd(m.nv);
    LtlSparse::run<double>(m, H, x.tau, sc, wc);
    LtlSparse::run<double>(m, P, x.tau, sd, wd);
    CHECK(sc == sd);
    LtdlSparse::run<double>(m, H, x.tau, sc, wc);
    LtdlSparse::run<double>(m, P, x.tau, sd, wd);
    CHECK(sc == sd);
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
    const TreePattern pat(lambda);
    PackedRows<double> Fp(pat.nonzeros()), Gp(pat.nonzeros()), Hp(pat.nonzeros());
    pack<double>(pat, F, Fp);
    pack<double>(pat, G, Gp);
    pack<double>(pat, H, Hp);
    const VecX<double>& b = x.tau;
    const double tol = 64 * m.nv * 2.2e-16;
    auto near = [&](const VecX<double>& a, const VecX<double>& e) { return (a - e).norm() <= tol * (e.norm() + b.norm()); };
    INFO(spec.id);
    VecX<double> y(m.nv);
    mul_L<false, double>(pat, Fp, b, y); CHECK(near(y, L * b));
    mul_Lt<false, double>(pat, Fp, b, y); CHECK(near(y, L.transpose() * b));
    mul_L<true, double>(pat, Gp, b, y); CHECK(near(y, U * b));
    mul_Lt<true, double>(pat, Gp, b, y); CHECK(near(y, U.transpose() * b));
    y = b; mul_L<false, double>(pat, Fp, y, y); CHECK(near(y, L * b));  // Lx works in situ
    y = b; solve_L<false, double>(pat, Fp, y); CHECK(near(L * y, b));
    y = b; solve_Lt<false, double>(pat, Fp, y); CHECK(near(L.transpose() * y, b));
    y = b; solve_L<true, double>(pat, Gp, y); CHECK(near(U * y, b));
    y = b; solve_Lt<true, double>(pat, Gp, y); CHECK(near(U.transpose() * y, b));
    mul_H<double>(pat, Hp, b, y); CHECK(near(y, H * b));
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
    const TreePattern pat(lambda);
    PackedRows<Counted> F(pat.nonzeros()), G(pat.nonzeros()), Hp(pat.nonzeros());
    pack<Counted>(pat, H, F);
    pack<Counted>(pat, H, G);
    pack<Counted>(pat, H, Hp);
    VecX<Counted> x = b, y(m.nv);
    // factorization: LTL n sqrt + D1 d + D2 (m + a); LTDL D1 d + D2 (m + a)
    CHECK(count_ops([&] { ltl_factor<Counted>(pat, F); }) == OpCounts{std::uint64_t(D2), std::uint64_t(D2), std::uint64_t(D1), n, 0, 0});
    CHECK(count_ops([&] { ltdl_factor<Counted>(pat, G); }) == OpCounts{std::uint64_t(D2), std::uint64_t(D2), std::uint64_t(D1), 0, 0, 0});
    // back-substitution: LTL 2n d + 2 D1 (m + a); LTDL n d + 2 D1 (m + a)
    CHECK(count_ops([&] { ltl_solve<Counted>(pat, F, x); }) == OpCounts{std::uint64_t(2 * D1), std::uint64_t(2 * D1), 2 * n, 0, 0, 0});
    x = b;
    CHECK(count_ops([&] { ltdl_solve<Counted>(pat, G, x); }) == OpCounts{std::uint64_t(2 * D1), std::uint64_t(2 * D1), n, 0, 0, 0});
    // L x, L^T x: LTL n m + D1 (m + a); LTDL D1 (m + a)
    CHECK(count_ops([&] { mul_L<false, Counted>(pat, F, b, y); }) == OpCounts{n + D1, std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { mul_Lt<false, Counted>(pat, F, b, y); }) == OpCounts{n + D1, std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { mul_L<true, Counted>(pat, G, b, y); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { mul_Lt<true, Counted>(pat, G, b, y); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    // L^-1 x, L^-T x: LTL n d + D1 (m + a); LTDL D1 (m + a)
    x = b;
    CHECK(count_ops([&] { solve_L<false, Counted>(pat, F, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), n, 0, 0, 0});
    CHECK(count_ops([&] { solve_Lt<false, Counted>(pat, F, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), n, 0, 0, 0});
    CHECK(count_ops([&] { solve_L<true, Counted>(pat, G, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    CHECK(count_ops([&] { solve_Lt<true, Counted>(pat, G, x); }) == OpCounts{std::uint64_t(D1), std::uint64_t(D1), 0, 0, 0, 0});
    // H x: n m + 2 D1 (m + a)
    CHECK(count_ops([&] { mul_H<Counted>(pat, Hp, b, y); }) == OpCounts{n + 2 * D1, std::uint64_t(2 * D1), 0, 0, 0, 0});
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

}  // namespace test_factorization_sparsity
