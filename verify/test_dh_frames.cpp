// Denavit-Hartenberg frames (model/dh_frames.hpp), the axial-screw operations
// (core/axial_screw.hpp) and the DH variants crba_dh, rnea_dh, aba_dh: each building block is
// checked against the general code it replaces (which shares none of its formulas), each
// variant against its general counterpart on every verify case in double (the exactness gate
// checks them against the oracle in Reference), and the operation counts against Eq. 10.3,
// Eq. 10.12 and the per-line costs in the family READMEs.
#include <catch2/catch.hpp>

#include "cases/gu_dh.hpp"
#include "cases/registry.hpp"
#include "core/counting_scalar.hpp"
#include "mass_matrix/crba_dh.hpp"
#include "forward_dynamics/aba_dh.hpp"
#include "inverse_dynamics/rnea_dh.hpp"
#include "reference/reference_scalar.hpp"

namespace test_dh_frames {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {
using namespace rbd;

Inertia<double> random_inertia(cases::Rng& rng) {
  const cases::BodyInertia b = cases::random_body(rng);
  return Inertia<double>::from_com(b.mass, b.com, b.Icom);
}
Mat3<double> axis_rotation_k(int K, double c, double s) { return K == 0 ? rx<double>(c, s) : K == 1 ? ry<double>(c, s) : rz<double>(c, s); }

template <int K> void check_screw_ops(cases::Rng& rng) {
  const Vec3<double> cs = rng.unit_vector();
  const double c = cs.x() / std::hypot(cs.x(), cs.y()), s = cs.y() / std::hypot(cs.x(), cs.y());
  const double dist = rng.uniform(-0.5, 0.5);
  AxialRotation<double> R;
  R.set(c, s);
  const Transform<double> X{axis_rotation_k(K, c, s), Vec3<double>::Unit(K) * dist};
  // Inertia: X^T I X, general compact form (core/inertia.hpp) vs the screw form.
  const Inertia<double> I = random_inertia(rng);
  const Inertia<double> expect = transform_transpose(X, I);
  Inertia<double> got = I;
  screw_transpose_inertia<K>(R, dist, I.m * dist, got);
  // Tolerance: both are O(10) roundings of O(1) numbers; 1e-13 is ~500 eps.
  CHECK((got.matrix() - expect.matrix()).cwiseAbs().maxCoeff() < 1e-13);
  CHECK(got.Ibar == got.Ibar.transpose());
  // Force: X^T f.
  Vec6<double> f;
  f << rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1);
  const Vec6<double> fe = X.apply_transpose(f);
  Vec6<double> fg = f;
  screw_transpose_force<K>(R, dist, fg[0], fg[1], fg[2], fg[3], fg[4], fg[5]);
  CHECK((fg - fe).cwiseAbs().maxCoeff() < 1e-14);
}

// The cost of each screw operation, against Table A.5 and section 10.3.1.
TEST_CASE("dh: axial-screw operations equal the general transforms and cost what App. A.4/A.5 say", "[dh]") {
  cases::Rng rng(7);
  for (int k = 0; k < 10; ++k) { check_screw_ops<0>(rng); check_screw_ops<1>(rng); check_screw_ops<2>(rng); }
  AxialRotation<Counted> R;
  const OpCounts one_time = count_ops([&] { R.set(Counted(0.6), Counted(0.8)); });
  CHECK(one_time.m() == 2); CHECK(one_time.a() == 3);
  Inertia<Counted> I = random_inertia(rng).cast<Counted>();
  const OpCounts inert = count_ops([&] { screw_transpose_inertia<2>(R, Counted(0.3), Counted(0.7), I); });
  CHECK(inert.m() == 15); CHECK(inert.a() == 15);  // 16m + 15a of Table A.5 less the m d product
  Counted n0 = 1, n1 = 2, n2 = 3, f0 = 4, f1 = 5, f2 = 6;
  const OpCounts vec = count_ops([&] { screw_transpose_force<0>(R, Counted(0.3), n0, n1, n2, f0, f1, f2); });
  CHECK(vec.m() == 10); CHECK(vec.a() == 6);
}

// ^{D_i}X_{D_lambda(i)}(q) = P_i X_J(q) X_T(i) P_lambda^-1 must equal X_J^z(q) C_i, and the
// inertias must be the model's re-expressed: the view describes the same mechanism.
void check_view(const Model<double>& m) {
  INFO("model " << m.name);
  const DhFrames<double> v = DhFrames<double>::build(m);
  const cases::State x = cases::random_state(m, 3);
  for (int i = 0; i < m.nb; ++i) {
    JointKinematics<double> J, Jz;
    jcalc_position(m.joint[i], x.q.segment(m.q_idx[i], m.joint[i].nq()), J);
    jcalc_position(v.body[i].zjoint, x.q.segment(m.q_idx[i], 1), Jz);
    const int p = m.parent[i];
    const Transform<double> Pp = p < 0 ? Transform<double>{} : v.body[p].P;
    const Mat6<double> want = (v.body[i].P * J.XJ * m.Xtree[i] * Pp.inverse()).matrix();
    const Mat6<double> got = (Jz.XJ * v.body[i].C).matrix();
    // O(1) entries from a handful of products: 1e-12 (~5000 eps) allows for the
    // decomposition's square roots and divisions on near-parallel axes.
    CHECK((want - got).cwiseAbs().maxCoeff() < 1e-12);
    if (v.body[i].link == DhLink::Dh) {
      const Transform<double> C2 = cases::detail::rotz_t(v.body[i].theta) * Transform<double>{rz<double>(v.body[i].zrot.c, v.body[i].zrot.s), Vec3<double>(0, 0, v.body[i].d)} *
                                   Transform<double>{rx<double>(v.body[i].xrot.c, v.body[i].xrot.s), Vec3<double>(v.body[i].a, 0, 0)};
      CHECK((C2.matrix() - v.body[i].C.matrix()).cwiseAbs().maxCoeff() < 1e-12);
    }
    const Mat6<double> Pm = v.body[i].P.inverse().matrix();  // ^F X_D
    CHECK((Pm.transpose() * m.I[i].matrix() * Pm - v.body[i].I.matrix()).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("dh: the DH view reproduces every link transform and inertia", "[dh]") {
  for (const char* id : {"gu:1", "gu:7", "tree:bf=2:nb=15", "tree:bf=1.5:nb=12", "tree:bf=2:nb=7:skew=0.5:taper=0.9",
                         "zigzag", "dh:puma_like", "joint:revolute_x", "joint:revolute_y", "joint:revolute_axis",
                         "joint:prismatic_axis", "joint:helical", "urdf:ur5", "urdf:panda", "urdf:iiwa14"})
    check_view(cases::build_case(id));
  check_view(cases::gu_dh(9));
}

TEST_CASE("dh: the book's GU(n) has no DH angle offsets; rbdlab's GU(n) has one per inner joint", "[dh]") {
  const DhFrames<double> book = DhFrames<double>::build(cases::gu_dh(10));
  const DhFrames<double> ours = DhFrames<double>::build(cases::gu(10));
  int book_offsets = 0, our_offsets = 0;
  for (int i = 0; i < 10; ++i) { book_offsets += book.body[i].has_theta; our_offsets += ours.body[i].has_theta; }
  CHECK(book_offsets == 0);
  CHECK(our_offsets == 8);  // bodies 1..8: not the root child (Root link), not the leaf (free screw)
}

TEST_CASE("dh: models that are not DH-expressible are refused with the body named", "[dh]") {
  const Model<double> m = cases::build_case("all_joints");
  REQUIRE_THROWS_AS(DhFrames<double>::build(m), ModelError);
  try { DhFrames<double>::build(m); } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("body ") != std::string::npos);
  }
  CHECK_FALSE(DhFrames<double>::try_build(m).expressible);
}

// The verify cases on which a DH variant runs its own code (fallback_to(m) empty). On the
// others it hands the model to the general variant, and comparing the two there would compare
// a variant with itself: those cases are skipped and counted, and at least `min_native` must
// remain so the comparison cannot pass vacuously.
template <class V> std::vector<cases::CaseSpec> native_cases(std::size_t min_native) {
  std::vector<cases::CaseSpec> out;
  for (const auto& spec : cases::verify_cases())
    if (V::template fallback_to<double>(spec.build()).empty()) out.push_back(spec);
  INFO(V::name << " runs its own code on " << out.size() << " verify cases");
  REQUIRE(out.size() >= min_native);
  return out;
}

TEST_CASE("dh: crba_dh equals crba in double on every verify case it treats itself", "[dh]") {
  for (const auto& spec : native_cases<CrbaDh>(20)) {
    const Model<double> m = spec.build();
    Workspace<double> ws(m);
    const cases::State x = cases::random_state(m, 2);
    MatX<double> H1 = MatX<double>::Zero(m.nv, m.nv), H2 = H1;
    Crba::run<double>(m, x.q, H1, ws);
    CrbaDh::run<double>(m, x.q, H2, ws);
    INFO(spec.id);
    // Two different round-off paths of depth d: 1e-12 relative (~4500 eps) is far above
    // 16 (d + 1) eps for these depths and far below any formula error.
    CHECK((H1 - H2).norm() <= 1e-12 * H1.norm());
  }
}

TEST_CASE("dh: crba_dh costs exactly Eq. 10.3 on the book's GU(n)", "[dh][opcounts]") {
  for (int n = 1; n <= 12; ++n) {
    for (int which = 0; which < 2; ++which) {
      const Model<Counted> m = (which == 0 ? cases::gu_dh(n) : cases::gu(n)).cast<Counted>();
      Workspace<Counted> ws(m);
      MatX<Counted> H = MatX<Counted>::Zero(n, n);
      const VecX<Counted> q = VecX<Counted>::Zero(n);
      const OpCounts c = count_ops([&] { CrbaDh::run<Counted>(m, q, H, ws); });
      const long em = 10L * n * n + 22 * n - 32, ea = 6L * n * n + 37 * n - 43;  // Eq. 10.3
      INFO("n = " << n << (which == 0 ? " gu_dh" : " gu") << ": " << c.m() << "m + " << c.a() << "a");
      CHECK(long(c.m()) == em);
      CHECK(long(c.a()) == ea + (which == 1 ? std::max(0, n - 2) : 0));  // gu: + one offset per inner joint
      CHECK(c.sin == std::uint64_t(n - 1));
      CHECK(c.cos == std::uint64_t(n - 1));
    }
  }
}

}  // namespace

namespace {
TEST_CASE("dh: body_force equals I a + v x* I v and costs 57m + 45a", "[dh]") {
  cases::Rng rng(11);
  for (int k = 0; k < 20; ++k) {
    const Inertia<double> I = random_inertia(rng);
    Vec6<double> v, a;
    for (int j = 0; j < 6; ++j) { v[j] = rng.uniform(-2, 2); a[j] = rng.uniform(-2, 2); }
    const Vec6<double> want = I * a + crf<double>(v, I * v);
    // O(10) products of O(1) numbers: 1e-13 (~500 eps).
    CHECK((body_force(I, v, a) - want).cwiseAbs().maxCoeff() < 1e-13);
  }
  const Inertia<Counted> I = random_inertia(rng).cast<Counted>();
  const Vec6<Counted> v = Vec6<Counted>::Constant(0.5), a = Vec6<Counted>::Constant(0.25);
  const OpCounts c = count_ops([&] { (void)body_force(I, v, a); });
  CHECK(c.m() == 57); CHECK(c.a() == 45);
}

TEST_CASE("dh: rnea_dh equals rnea_spatial in double on every verify case it treats itself", "[dh]") {
  for (const auto& spec : native_cases<RneaDh>(20)) {
    const Model<double> m = spec.build();
    Workspace<double> ws(m);
    const cases::State x = cases::random_state(m, 2);
    VecX<double> t1(m.nv), t2(m.nv);
    RneaSpatial::run<double>(m, x.q, x.qd, x.qdd, &x.f_ext, t1, ws);
    RneaDh::run<double>(m, x.q, x.qd, x.qdd, &x.f_ext, t2, ws);
    INFO(spec.id);
    CHECK((t1 - t2).norm() <= 1e-12 * t1.norm());  // as for crba_dh above
  }
}

// The count is the sum of the per-line costs (inverse_dynamics/README.md, "rnea_dh"): a body
// whose parent is not the base costs 20m + 13a (v) + 24m + 17a (a) + 57m + 45a (f) +
// 20m + 18a (f to the parent) = 121m + 93a; body 1 costs 4m + 2a (^1X_0 a_0) + 1a (+ qdd)
// + 19m + 12a (f of a pure spin) = 23m + 15a. On rbdlab's GU(n), + 1a for each DH angle
// offset (bodies 2..n-1).
TEST_CASE("dh: rnea_dh counts are the sum of its per-line costs", "[dh][opcounts]") {
  for (int which = 0; which < 2; ++which)
    for (int n = 1; n <= 8; ++n) {
      const Model<Counted> m = (which == 0 ? cases::gu_dh(n) : cases::gu(n)).cast<Counted>();
      Workspace<Counted> ws(m);
      const VecX<Counted> z = VecX<Counted>::Zero(n);
      VecX<Counted> tau(n);
      const OpCounts c = count_ops([&] { RneaDh::run<Counted>(m, z, z, z, nullptr, tau, ws); });
      INFO((which == 0 ? "gu_dh" : "gu") << " n = " << n << ": " << c.m() << "m + " << c.a() << "a");
      CHECK(long(c.m()) == 23 + 121L * (n - 1));
      CHECK(long(c.a()) == 15 + 93L * (n - 1) + (which == 1 ? std::max(0, n - 2) : 0));
      CHECK(c.sin == std::uint64_t(n));
    }
}
}  // namespace

namespace {
template <int K> void check_abi(cases::Rng& rng) {
  const Vec3<double> cs = rng.unit_vector();
  const double c = cs.x() / std::hypot(cs.x(), cs.y()), s = cs.y() / std::hypot(cs.x(), cs.y());
  const double dist = rng.uniform(-0.5, 0.5);
  AxialRotation<double> R;
  R.set(c, s);
  const Transform<double> X{axis_rotation_k(K, c, s), Vec3<double>::Unit(K) * dist};
  Mat6<double> A = Mat6<double>::Zero();
  for (int r = 0; r < 6; ++r) for (int col = 0; col <= r; ++col) A(r, col) = A(col, r) = rng.uniform(-1, 1);
  Abi<double> got = Abi<double>::from_matrix(A);
  screw_transpose_abi<K>(R, dist, got);
  const Mat6<double> want = X.matrix().transpose() * A * X.matrix();
  CHECK((got.matrix() - want).cwiseAbs().maxCoeff() < 1e-13);  // ~500 eps on O(1) entries
  // rotate_general vs the matrix product
  Mat3<double> G = Mat3<double>::Random(), G2 = G;
  rotate_general<K>(R, G2);
  CHECK((G2 - X.E * G * X.E.transpose()).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("dh: articulated-inertia screw transforms equal X^T I^A X and cost 38m + 40a", "[dh]") {
  cases::Rng rng(5);
  for (int k = 0; k < 10; ++k) { check_abi<0>(rng); check_abi<1>(rng); check_abi<2>(rng); }
  AxialRotation<Counted> R;
  R.set(Counted(0.6), Counted(0.8));
  Abi<Counted> A;
  const OpCounts c = count_ops([&] { screw_transpose_abi<2>(R, Counted(0.3), A); });
  CHECK(c.m() == 38); CHECK(c.a() == 40);
  // An I^a with zero row and column 3 (index 2): scrz then scrx, as aba_dh does.
  cases::Rng r2(9);
  for (int k = 0; k < 10; ++k) {
    Mat6<double> A0 = Mat6<double>::Zero();
    for (int r = 0; r < 6; ++r) for (int col = 0; col <= r; ++col) if (r != 2 && col != 2) A0(r, col) = A0(col, r) = r2.uniform(-1, 1);
    AxialRotation<double> Rz, Rx;
    Rz.set(0.6, -0.8); Rx.set(-0.28, 0.96);
    const Transform<double> Xz{rz<double>(0.6, -0.8), Vec3<double>(0, 0, 0.3)}, Xx{rx<double>(-0.28, 0.96), Vec3<double>(0.4, 0, 0)};
    Abi<double> g = Abi<double>::from_matrix(A0);
    screw_transpose_abi<2, 2>(Rz, 0.3, g);
    const Mat6<double> wz = Xz.matrix().transpose() * A0 * Xz.matrix();
    CHECK((g.matrix() - wz).cwiseAbs().maxCoeff() < 1e-13);
    screw_transpose_abi<0, 2>(Rx, 0.4, g);
    CHECK((g.matrix() - Xx.matrix().transpose() * wz * Xx.matrix()).cwiseAbs().maxCoeff() < 1e-13);
  }
  Abi<Counted> Az;
  const OpCounts cz = count_ops([&] { screw_transpose_abi<2, 2>(R, Counted(0.3), Az); });
  CHECK(cz.m() == 28); CHECK(cz.a() == 34);  // Table A.5: 28m + 34a
  const OpCounts cx = count_ops([&] { screw_transpose_abi<0, 2>(R, Counted(0.3), Az); });
  CHECK(cx.m() == 32); CHECK(cx.a() == 28);
  Inertia<Counted> I = random_inertia(rng).cast<Counted>();
  const Vec6<Counted> v = Vec6<Counted>::Constant(0.5);
  const OpCounts cb = count_ops([&] { (void)bias_force(I, v); });
  CHECK(cb.m() == 42); CHECK(cb.a() == 27);
  const Inertia<double> Id = random_inertia(rng);
  Vec6<double> vd; vd << 0.3, -0.2, 0.5, 1.0, -0.7, 0.2;
  CHECK((bias_force(Id, vd) - crf<double>(vd, Id * vd)).cwiseAbs().maxCoeff() < 1e-13);
}

TEST_CASE("dh: aba_dh equals aba in double on every verify case it treats itself", "[dh]") {
  for (const auto& spec : native_cases<AbaDh>(20)) {
    const Model<double> m = spec.build();
    ForwardDynamicsWorkspace<double> ws(m);
    const cases::State x = cases::random_state(m, 2);
    VecX<double> a1(m.nv), a2(m.nv);
    Aba::run<double>(m, x.q, x.qd, x.tau, &x.f_ext, a1, ws);
    AbaDh::run<double>(m, x.q, x.qd, x.tau, &x.f_ext, a2, ws);
    INFO(spec.id);
    CHECK((a1 - a2).norm() <= 1e-9 * a1.norm());  // cond(H) up to ~1e4 on these cases times the 1e-12 above
  }
}

// fallback_to is what the accuracy records and the report rely on to credit a DH variant only
// with its own cases, so it must name exactly the models on which the variant runs the general
// code. The witness is the operation count, not the values (on small or planar models the DH
// arithmetic can round to the very same bits as the general one): on a handed-on model the DH
// variant does the general variant's operations exactly, on its own models it does fewer
// (section 10.3.1: that is its reason to exist). This checks the declaration, not the variant.
template <class F> OpCounts ops_on(const Model<double>& md, F&& f) {
  const Model<Counted> m = md.cast<Counted>();
  ForwardDynamicsWorkspace<Counted> ws(m);
  const cases::State x = cases::random_state(md, 3);
  auto c = [](const VecX<double>& v) { return VecX<Counted>(v.cast<Counted>()); };
  ExternalForces<Counted> fe;
  for (const auto& f6 : x.f_ext) fe.push_back(f6.cast<Counted>());
  return count_ops([&] { f(m, c(x.q), c(x.qd), c(x.qdd), c(x.tau), fe, ws); });
}

TEST_CASE("dh: fallback_to names exactly the cases handed to the general variant", "[dh]") {
  int handed = 0, own = 0;
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    INFO(spec.id);
    using W = ForwardDynamicsWorkspace<Counted>;
    using V = VecX<Counted>;
    using E = ExternalForces<Counted>;
    const auto same = [](const OpCounts& a, const OpCounts& b) { return a.m() == b.m() && a.a() == b.a(); };
    const OpCounts rs = ops_on(md, [](const Model<Counted>& m, const V& q, const V& qd, const V& qdd, const V&, const E& f, W& ws) {
      V t(m.nv); RneaSpatial::run<Counted>(m, q, qd, qdd, &f, t, ws); });
    const OpCounts rd = ops_on(md, [](const Model<Counted>& m, const V& q, const V& qd, const V& qdd, const V&, const E& f, W& ws) {
      V t(m.nv); RneaDh::run<Counted>(m, q, qd, qdd, &f, t, ws); });
    const OpCounts cs = ops_on(md, [](const Model<Counted>& m, const V& q, const V&, const V&, const V&, const E&, W& ws) {
      MatX<Counted> H = MatX<Counted>::Zero(m.nv, m.nv); Crba::run<Counted>(m, q, H, ws); });
    const OpCounts cd = ops_on(md, [](const Model<Counted>& m, const V& q, const V&, const V&, const V&, const E&, W& ws) {
      MatX<Counted> H = MatX<Counted>::Zero(m.nv, m.nv); CrbaDh::run<Counted>(m, q, H, ws); });
    const OpCounts as = ops_on(md, [](const Model<Counted>& m, const V& q, const V& qd, const V&, const V& tau, const E& f, W& ws) {
      V a(m.nv); Aba::run<Counted>(m, q, qd, tau, &f, a, ws); });
    const OpCounts ad = ops_on(md, [](const Model<Counted>& m, const V& q, const V& qd, const V&, const V& tau, const E& f, W& ws) {
      V a(m.nv); AbaDh::run<Counted>(m, q, qd, tau, &f, a, ws); });
    CHECK((RneaDh::fallback_to<double>(md) == RneaSpatial::name) == same(rs, rd));
    CHECK((CrbaDh::fallback_to<double>(md) == Crba::name) == same(cs, cd));
    CHECK((AbaDh::fallback_to<double>(md) == Aba::name) == same(as, ad));
    handed += !RneaDh::fallback_to<double>(md).empty();
    own += RneaDh::fallback_to<double>(md).empty();
  }
  CHECK(handed > 0);  // the verify cases include models with no DH form
  CHECK(own > 0);
}

// The sum of the per-line costs (forward_dynamics/README.md, "aba_dh"): 221m + 208a per body
// whose parent is not the base; body 1: p^A of a pure spin 5m, u and D^-1 1m + 1a, ^1X_0 a_0
// 4m + 2a, U^T a' 3m + 2a, qdd 1m + 1a, a += s qdd 1a: 14m + 7a. Plus the DH angle offsets
// on rbdlab's GU(n).
TEST_CASE("dh: aba_dh counts are the sum of its per-line costs", "[dh][opcounts]") {
  for (int which = 0; which < 2; ++which)
    for (int n = 1; n <= 8; ++n) {
      const Model<Counted> m = (which == 0 ? cases::gu_dh(n) : cases::gu(n)).cast<Counted>();
      ForwardDynamicsWorkspace<Counted> ws(m);
      const VecX<Counted> z = VecX<Counted>::Zero(n);
      VecX<Counted> qdd(n);
      const OpCounts c = count_ops([&] { AbaDh::run<Counted>(m, z, z, z, nullptr, qdd, ws); });
      INFO((which == 0 ? "gu_dh" : "gu") << " n = " << n << ": " << c.m() << "m + " << c.a() << "a");
      CHECK(long(c.m()) == 14 + 221L * (n - 1));
      CHECK(long(c.a()) == 7 + 208L * (n - 1) + (which == 1 ? std::max(0, n - 2) : 0));
      CHECK(c.sin == std::uint64_t(n));
    }
}
}  // namespace

namespace {
// Eq. 10.12 on binary trees: D quantities of Eq. 10.11 from the parent array (independently
// of the DH view): pi^dh = first children, pi^g = second children, |nu(i)| = subtree size.
TEST_CASE("dh: crba_dh on binary trees against Eq. 10.12", "[dh][opcounts]") {
  for (int n : {1, 2, 3, 7, 10, 15, 20, 31}) {
    const Model<double> md = cases::binary_dh(n);
    std::vector<long> nu(n, 1);
    for (int i = n - 1; i > 0; --i) nu[(i - 1) / 2] += nu[i];
    long D0dh = 0, D0g = 0, D1dh = 0, D1g = 0, inner_g = 0;
    for (int i = 1; i < n; ++i) {
      if (i % 2 == 1) { ++D0dh; D1dh += nu[i]; }
      else { ++D0g; D1g += nu[i]; inner_g += nu[i] > 1; }
    }
    const long m1012 = 32 * D0dh + 47 * D0g + 20 * D1dh + 24 * D1g;   // Eq. 10.12
    const long a1012 = 43 * D0dh + 58 * D0g + 12 * D1dh + 18 * D1g;
    const Model<Counted> m = md.cast<Counted>();
    Workspace<Counted> ws(m);
    MatX<Counted> H = MatX<Counted>::Zero(n, n);
    const VecX<Counted> q = VecX<Counted>::Zero(n);
    const OpCounts c = count_ops([&] { CrbaDh::run<Counted>(m, q, H, ws); });
    INFO("n = " << n << ": " << c.m() << "m + " << c.a() << "a; Eq. 10.12 " << m1012 << "m + " << a1012 << "a");
    // rbdlab adds, per general link, the 12m + 6a of forming ^iX_lambda (Eq. 10.12 leaves it
    // out) and, per general link that is not a leaf, the angle-offset addition.
    CHECK(long(c.m()) == m1012 + 12 * D0g);
    CHECK(long(c.a()) == a1012 + 6 * D0g + inner_g);
    // and the H is right
    Workspace<double> wd(md);
    MatX<double> H1 = MatX<double>::Zero(n, n), H2 = H1;
    const cases::State x = cases::random_state(md, 1);
    Crba::run<double>(md, x.q, H1, wd);
    CrbaDh::run<double>(md, x.q, H2, wd);
    CHECK((H1 - H2).norm() <= 1e-12 * H1.norm());
  }
}
}  // namespace

namespace {
// The general links of a branched tree (not the parent's DH child) take their own paths in
// all three variants; no verify case has them (auto_tree's siblings share one axis, so they
// are DH links), so they are checked here in Reference against the general variants, which
// the exactness gate holds to the oracle: agreement to 40 digits (both carry ~50; a wrong
// formula differs at O(1)).
TEST_CASE("dh: general links of branched trees agree with the general variants to 40 digits", "[dh][exactness]") {
  using R = Reference;
  for (const Model<double>& md : {cases::binary_dh(10), cases::binary_dh(7, 3)}) {
    const Model<R> m = md.cast<R>();
    const DhFrames<R> v = DhFrames<R>::build(m);
    int general = 0;
    for (const auto& b : v.body) general += b.link == DhLink::General;
    REQUIRE(general > 0);
    ForwardDynamicsWorkspace<R> ws(m);
    const cases::State xd = cases::random_state(md, 4);
    auto c = [](const VecX<double>& x) { return VecX<R>(x.unaryExpr([](double y) { return R(y); })); };
    const VecX<R> q = c(xd.q), qd = c(xd.qd), qdd = c(xd.qdd), tau = c(xd.tau);
    ExternalForces<R> fx;
    for (const auto& f : xd.f_ext) fx.push_back(f.unaryExpr([](double y) { return R(y); }));
    auto rel = [](const auto& a, const auto& b) { return static_cast<double>((a - b).norm() / b.norm()); };
    MatX<R> H1 = MatX<R>::Zero(m.nv, m.nv), H2 = H1;
    Crba::run<R>(m, q, H1, ws);
    CrbaDh::run<R>(m, q, H2, ws);
    CHECK(rel(H2, H1) < 1e-40);
    VecX<R> t1(m.nv), t2(m.nv);
    RneaSpatial::run<R>(m, q, qd, qdd, &fx, t1, ws);
    RneaDh::run<R>(m, q, qd, qdd, &fx, t2, ws);
    CHECK(rel(t2, t1) < 1e-40);
    VecX<R> a1(m.nv), a2(m.nv);
    Aba::run<R>(m, q, qd, tau, &fx, a1, ws);
    AbaDh::run<R>(m, q, qd, tau, &fx, a2, ws);
    CHECK(rel(a2, a1) < 1e-40);
  }
}
}  // namespace

}  // namespace test_dh_frames
