// Planar vectors (Featherstone section 2.16, App. A.1) and the planar RNEA, CRBA and ABA of
// algorithms/planar/ (issue 16):
//  a. Table A.1's operations: crf(v) = -crm(v)^T; crm, Xpln and mcI are the 3x3 submatrices
//     (rows/columns omega_z, v_x, v_y) of the spatial operators of core/; the compact transform
//     products agree with the matrices; Xpln composes and inverts; X* = X^-T; mcI is the
//     parallel-axis formula; the compact congruences agree with dense X^T M X;
//  b. on random planar trees (chains and branched, revolute and prismatic, 1..12 bodies) the
//     planar algorithms against rnea_spatial, crba and aba on the converted spatial model
//     (planar/to_spatial.hpp), in Reference to 40 digits and in double to a bound in eps and n;
//     planar ABA against H^-1 (tau - C) from the planar CRBA and RNEA;
//  c. operation counts (Counted scalar) of planar vs spatial on revolute chains of 1..10 bodies,
//     printed, and the planar ones smaller.
// XtoV is not implemented, so none of its properties is checked.
//
// Precision. Reference carries ~50 significant digits (eps ~ 5e-51); every quantity here is a
// few thousand roundings on O(1) numbers at most, so the two routes agree to ~46 digits and the
// 40-digit tolerance (verify/support/close40.hpp) leaves a margin of ~1e4-1e5, while a wrong
// formula errs at O(1e-3 .. 1). Double tolerances are stated where they are used.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "cases/planar.hpp"
#include "cases/random.hpp"
#include "cases/states.hpp"
#include "core/counting_scalar.hpp"
#include "core/inertia.hpp"
#include "forward_dynamics/aba.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "planar/variants.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/close40.hpp"

namespace test_planar {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;
namespace pl = rbd::planar;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The planar coordinates inside a spatial vector [w_x w_y w_z v_x v_y v_z]: w_z, v_x, v_y.
constexpr int kPlanarIdx[3] = {2, 3, 4};
template <class S> pl::PMat<S> planar_block(const Mat6<S>& M) {
  pl::PMat<S> P;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) P(r, c) = M(kPlanarIdx[r], kPlanarIdx[c]);
  return P;
}

double maxabs(const Eigen::MatrixXd& a) { return a.size() ? a.cwiseAbs().maxCoeff() : 0.0; }

// Table A.1 identities are a handful of roundings on numbers of size <= ~3 (|r| <= 1.5,
// |v| <= 1, m <= 2): each entry is off by at most ~4 roundings of a product of size <= ~10,
// i.e. <= 40 eps absolute; 256 eps leaves a margin of ~6 while a wrong sign or term is O(0.1).
constexpr double kTabTol = 256 * kEps;

pl::PVec<double> random_pvec(cases::Rng& rng) {
  return pl::PVec<double>(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
}

using cases::random_planar;
using cases::random_pstate;
using cases::random_xpln;
using cases::PlanarState;

// The six results (planar and spatial tau, H, qdd) of one model and state in scalar S.
template <class S> struct Results {
  VecX<S> tau_p, tau_s, qdd_p, qdd_s, C_p;
  MatX<S> H_p, H_s;
};
template <class S>
Results<S> run_all(const pl::Model<S>& pm, const Model<S>& sm, const VecX<S>& q, const VecX<S>& qd,
                   const VecX<S>& qdd, const VecX<S>& tau) {
  const int n = pm.nb;
  Results<S> r;
  r.tau_p = r.tau_s = r.qdd_p = r.qdd_s = r.C_p = VecX<S>::Zero(n);
  r.H_p = r.H_s = MatX<S>::Zero(n, n);
  pl::Workspace<S> pws(pm);
  pl::Rnea::run(pm, q, qd, qdd, r.tau_p, pws);
  pl::Rnea::run(pm, q, qd, VecX<S>(VecX<S>::Zero(n)), r.C_p, pws);  // C = ID(q, qd, 0)
  pl::Crba::run(pm, q, r.H_p, pws);
  pl::Aba::run(pm, q, qd, tau, r.qdd_p, pws);
  Workspace<S> ws(sm);
  RneaSpatial::run<S>(sm, q, qd, qdd, nullptr, r.tau_s, ws);
  Crba::run(sm, q, r.H_s, ws);
  ForwardDynamicsWorkspace<S> fws(sm);
  Aba::run<S>(sm, q, qd, tau, nullptr, r.qdd_s, fws);
  return r;
}

template <class S> VecX<S> flat(const MatX<S>& M) { return Eigen::Map<const VecX<S>>(M.data(), M.size()); }

}  // namespace

TEST_CASE("planar: Table A.1 operations and the submatrices of the spatial ones", "[planar]") {
  cases::Rng rng(16);
  for (int trial = 0; trial < 50; ++trial) {
    const pl::PVec<double> v = random_pvec(rng), m = random_pvec(rng), f = random_pvec(rng);
    // crf(v) = -crm(v)^T (Table A.1's remark): the same numbers, exactly.
    CHECK(pl::crf(v) == pl::PMat<double>(-pl::crm(v).transpose()));
    // The matrix-free products are the matrices' products (Eq. 2.76): exact up to the order
    // of two roundings.
    CHECK(maxabs(pl::crm(v) * m - pl::crm(v, m)) <= kTabTol);
    CHECK(maxabs(pl::crf(v) * f - pl::crf(v, f)) <= kTabTol);
    // Section 2.16 derives the planar operators by keeping rows and columns (w_z, v_x, v_y)
    // of the spatial ones (Eq. 2.75): compare with core/spatial.hpp's crm and crf matrices.
    const Vec6<double> v6(0, 0, v[0], v[1], v[2], 0);
    CHECK(pl::crm(v) == planar_block(crm_matrix<double>(v6)));
    CHECK(pl::crf(v) == planar_block(crf_matrix<double>(v6)));

    // Xpln: Eq. 2.77 as the planar block of the spatial rot(rz) xlt(r) (core/transform.hpp).
    const pl::Transform<double> X = random_xpln(rng), Y = random_xpln(rng);
    const Transform<double> X6{rz<double>(X.c, X.s), Vec3<double>(X.r[0], X.r[1], 0)};
    CHECK(maxabs(X.matrix() - planar_block(X6.matrix())) <= kTabTol);
    // Its force form is X^-T (section 2.16) and the compact products are the matrix products.
    CHECK(maxabs(X.force_matrix() - pl::PMat<double>(X.matrix().inverse().transpose())) <= kTabTol);
    CHECK(maxabs(X.apply(m) - X.matrix() * m) <= kTabTol);
    CHECK(maxabs(X.apply_force(f) - X.force_matrix() * f) <= kTabTol);
    CHECK(maxabs(X.apply_transpose(f) - X.matrix().transpose() * f) <= kTabTol);
    // Composition and inverse: Xpln(A->B) Xpln(B->C) as one transform; X^-1 X = 1.
    CHECK(maxabs((X * Y).matrix() - X.matrix() * Y.matrix()) <= kTabTol);
    CHECK(maxabs(X.inverse().matrix() * X.matrix() - pl::PMat<double>::Identity()) <= kTabTol);
    CHECK(maxabs((X * X.inverse()).matrix() - pl::PMat<double>::Identity()) <= kTabTol);
    // Pure rotations add their angles: Xpln(a, 0) Xpln(b, 0) = Xpln(a + b, 0).
    const double a = rng.uniform(-3, 3), b = rng.uniform(-3, 3);
    const pl::Vec2<double> z = pl::Vec2<double>::Zero();
    CHECK(maxabs((pl::xpln(a, z) * pl::xpln(b, z)).matrix() - pl::xpln(a + b, z).matrix()) <= kTabTol);

    // mcI (Eq. 2.78): the planar block of the spatial inertia of a body with its centre of mass
    // in the plane, and the parallel-axis formula X^T diag(I_C, m, m) X with X = Xpln(0, c) the
    // transform from O to the centre of mass: I_O = I_C + m |c|^2 and the coupling terms.
    const double mass = rng.uniform(0.5, 2), Ic = rng.uniform(0.05, 0.5);
    const pl::Vec2<double> c(rng.uniform(-1, 1), rng.uniform(-1, 1));
    const pl::PMat<double> I = pl::mcI(mass, c, Ic);
    const Inertia<double> I6 = Inertia<double>::from_com(mass, Vec3<double>(c[0], c[1], 0), Mat3<double>::Identity() * Ic);
    CHECK(maxabs(I - planar_block(I6.matrix())) <= kTabTol);
    const pl::PMat<double> Xc = pl::xpln(0.0, c).matrix();
    CHECK(maxabs(I - Xc.transpose() * pl::PVec<double>(Ic, mass, mass).asDiagonal() * Xc) <= kTabTol);
    CHECK(maxabs(pl::Inertia<double>::from_com(mass, c, Ic).matrix() - I) <= kTabTol);
    CHECK(maxabs(pl::Inertia<double>::from_com(mass, c, Ic) * v - I * v) <= kTabTol);

    // The compact congruences against dense X^T M X (a rigid-body inertia; a general symmetric M).
    pl::Inertia<double> acc;
    pl::add_transform_transpose(X, pl::Inertia<double>::from_com(mass, c, Ic), acc);
    CHECK(maxabs(acc.matrix() - X.matrix().transpose() * I * X.matrix()) <= kTabTol);
    pl::PMat<double> M;
    M << 2, 0.3, -0.4, 0.3, 1.5, 0.2, -0.4, 0.2, 1.1;
    pl::PMat<double> accM = pl::PMat<double>::Zero();
    pl::add_congruence(X, M, accM);
    CHECK(maxabs(accM - X.matrix().transpose() * M * X.matrix()) <= kTabTol);
  }
}

TEST_CASE("planar: RNEA, CRBA and ABA against the spatial algorithms on random planar trees", "[planar]") {
  double worst_ratio[3] = {0, 0, 0};  // measured double disagreement / its bound, per algorithm
  double worst_cond = 0;
  for (std::uint64_t seed = 0; seed < 48; ++seed) {
    const int n = 1 + static_cast<int>(seed % 12);
    const bool branched = (seed / 12) % 2 == 1;
    const pl::Model<double> pm = random_planar(1000 + seed, n, branched);
    const Model<double> sm = pl::to_spatial(pm);
    const PlanarState st = random_pstate(seed, n);
    CAPTURE(seed, n, branched);

    // Reference: both routes are exact to ~46 digits, so they agree to 40 (see the header).
    {
      const pl::Model<R> pmR = pm.cast<R>();
      const Model<R> smR = sm.cast<R>();
      const auto q = cases::to<R>(st.q), qd = cases::to<R>(st.qd), qdd = cases::to<R>(st.qdd), tau = cases::to<R>(st.tau);
      const Results<R> r = run_all(pmR, smR, q, qd, qdd, tau);
      CHECK(verify::close40(r.tau_p, r.tau_s));
      CHECK(verify::close40(flat(r.H_p), flat(r.H_s)));
      CHECK(verify::close40(r.qdd_p, r.qdd_s));
      // ABA = H^-1 (tau - C) with H and C from the planar CRBA and RNEA (Eq. 6.1 solved).
      // The solve multiplies the 50-digit rounding by cond(H), held below 1e6 in the double
      // block below (measured and printed), so the two agree to ~43 digits or better.
      const VecX<R> qdd_h = r.H_p.llt().solve(VecX<R>(tau - r.C_p));
      CHECK(verify::close40(r.qdd_p, qdd_h));
    }
    // Double: the planar and spatial routes round differently. Each is a recursion of O(n)
    // steps whose quantities accumulate over up to n bodies (forces and inertias summed along
    // subtrees, transforms chained along paths), so each result's rounding error is bounded by
    // a modest multiple of n^2 eps times the size of the numbers involved; we hold the
    // disagreement to 16 n^2 eps relative to max(|x|_inf, 1) for tau and H. ABA's qdd is the
    // solution of H qdd = tau - C, so its error carries cond(H) in addition (section 10.1):
    // 16 n^2 eps cond(H). The worst measured ratio to the bound is printed, with the worst cond(H).
    {
      const Results<double> r = run_all(pm, sm, st.q, st.qd, st.qdd, st.tau);
      const double nn = double(n) * n;
      const double cond = [&] {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(r.H_p);
        return es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
      }();
      const double e_tau = maxabs(r.tau_p - r.tau_s) / (16 * nn * kEps * std::max(1.0, maxabs(r.tau_s)));
      const double e_H = maxabs(r.H_p - r.H_s) / (16 * nn * kEps * std::max(1.0, maxabs(r.H_s)));
      const double e_qdd = maxabs(r.qdd_p - r.qdd_s) / (16 * nn * kEps * cond * std::max(1.0, maxabs(r.qdd_s)));
      CHECK(cond < 1e6);
      worst_cond = std::max(worst_cond, cond);
      CHECK(e_tau <= 1.0);
      CHECK(e_H <= 1.0);
      CHECK(e_qdd <= 1.0);
      worst_ratio[0] = std::max(worst_ratio[0], e_tau);
      worst_ratio[1] = std::max(worst_ratio[1], e_H);
      worst_ratio[2] = std::max(worst_ratio[2], e_qdd);
    }
  }
  std::printf("planar vs spatial in double, worst disagreement / bound: rnea %.3g, crba %.3g, aba %.3g; worst cond(H) %.3g\n",
              worst_ratio[0], worst_ratio[1], worst_ratio[2], worst_cond);
}

TEST_CASE("planar: operation counts against the spatial algorithms on revolute chains", "[planar][opcounts]") {
  // Section 10.3's footnote suggests planar vectors for planar systems but Table 10.1 gives no
  // planar figures (its set GU is spatial), so there is nothing printed to compare with; the
  // claim checked is the point of planar vectors: fewer operations (m = mul + div, a = add).
  std::printf("op counts, planar vs spatial, revolute chain of n bodies (m = mul+div, a = add)\n");
  std::printf(" n |  rnea planar m/a | rnea spatial m/a |  crba planar m/a | crba spatial m/a |   aba planar m/a |  aba spatial m/a\n");
  using C = Counted;
  for (int n = 1; n <= 10; ++n) {
    const pl::Model<double> pmd = random_planar(77, n, false, true);
    const pl::Model<C> pm = pmd.cast<C>();
    const Model<C> sm = pl::to_spatial(pmd).cast<C>();
    const PlanarState st = random_pstate(77, n);
    const VecX<C> q = cases::to<C>(st.q), qd = cases::to<C>(st.qd), qdd = cases::to<C>(st.qdd), tau = cases::to<C>(st.tau);
    VecX<C> out = VecX<C>::Zero(n);
    MatX<C> H = MatX<C>::Zero(n, n);
    pl::Workspace<C> pws(pm);
    Workspace<C> ws(sm);
    ForwardDynamicsWorkspace<C> fws(sm);
    const OpCounts rp = count_ops([&] { pl::Rnea::run(pm, q, qd, qdd, out, pws); });
    const OpCounts rs = count_ops([&] { RneaSpatial::run<C>(sm, q, qd, qdd, nullptr, out, ws); });
    const OpCounts cp = count_ops([&] { pl::Crba::run(pm, q, H, pws); });
    const OpCounts cs = count_ops([&] { Crba::run(sm, q, H, ws); });
    const OpCounts ap = count_ops([&] { pl::Aba::run(pm, q, qd, tau, out, pws); });
    const OpCounts as = count_ops([&] { Aba::run<C>(sm, q, qd, tau, nullptr, out, fws); });
    std::printf("%2d | %7llu /%7llu | %7llu /%7llu | %7llu /%7llu | %7llu /%7llu | %7llu /%7llu | %7llu /%7llu\n", n,
                (unsigned long long)rp.m(), (unsigned long long)rp.a(), (unsigned long long)rs.m(),
                (unsigned long long)rs.a(), (unsigned long long)cp.m(), (unsigned long long)cp.a(),
                (unsigned long long)cs.m(), (unsigned long long)cs.a(), (unsigned long long)ap.m(),
                (unsigned long long)ap.a(), (unsigned long long)as.m(), (unsigned long long)as.a());
    CAPTURE(n);
    CHECK(rp.m() < rs.m());
    CHECK(rp.a() < rs.a());
    CHECK(cp.m() < cs.m());
    CHECK(cp.a() < cs.a());
    CHECK(ap.m() < as.m());
    CHECK(ap.a() < as.a());
    // Both count the same sines and cosines (one pair per revolute joint).
    CHECK(rp.sin == rs.sin);
    CHECK(rp.cos == rs.cos);
  }
}

}  // namespace test_planar
