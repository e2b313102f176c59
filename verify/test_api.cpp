// The library API, algorithms/rbdlab/api.hpp (issue 18): the fastest applicable variant chosen
// per model as documented; every call's result bit for bit the variant's own run(); a variant
// that does not apply (a DH variant that would fall back included) refused with an error that
// says so and names the variants that do; bad inputs refused with an error naming the argument;
// non-finite results and non-positive-definite H refused; no allocation per call.
//
// This file is compiled twice. In rbdlab_tests (verify/CMakeLists.txt's glob) it holds the tests
// of results and errors. The allocation count needs its own replacements of malloc and operator
// new, and rbdlab_tests already has test_no_allocation.cpp's (one per program), so it is compiled
// a second time, with RBDLAB_API_COUNT_ALLOCATIONS=1, into rbdlab_api_allocations
// (cmake/api_allocations.cmake), which holds only the allocation test.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cases/all_joints.hpp"
#include "cases/auto_tree.hpp"
#include "cases/gu.hpp"
#include "cases/humanoid.hpp"
#include "cases/states.hpp"
#include "rbdlab/rbdlab.hpp"

#ifndef RBDLAB_API_COUNT_ALLOCATIONS
#define RBDLAB_API_COUNT_ALLOCATIONS 0
#endif

namespace {

using rbd::Model;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

template <class Tuple, class F> void for_each_type(F&& f) {
  [&]<class... T>(std::tuple<T...>*) { (f.template operator()<T>(), ...); }(static_cast<Tuple*>(nullptr));
}

// DH chains (a long one too: crba_world and llt_dense are the fastest there), a branched DH tree,
// a free-floating tree with every joint type, a fixed-base model with no DH form (a spherical joint
// at the root, a revolute child), a floating humanoid.
std::vector<Model<double>> models() {
  return {rbd::cases::gu(7), rbd::cases::gu(101), rbd::cases::auto_tree(15, 2), rbd::cases::all_joints_tree(),
          rbd::cases::single_joint(rbd::JointType::Spherical), rbd::cases::humanoid()};
}

// A DH-expressible chain with a prismatic joint: rnea_dh and crba_dh apply, aba_dh falls back.
Model<double> revolute_prismatic_chain() {
  rbd::ModelBuilder b("revolute_prismatic");
  b.gravity(rbd::Vec3<double>(0, 0, -9.81));
  const rbd::Mat3<double> I = rbd::Mat3<double>::Identity() * 0.1;
  rbd::Transform<double> X;
  X.E = rbd::Mat3<double>::Identity();
  X.r = rbd::Vec3<double>(0.1, 0.2, 0.3);
  rbd::Joint<double> rz{};
  rz.type = rbd::JointType::Revolute;
  rz.axis = rbd::Vec3<double>(0, 0, 1);
  rbd::Joint<double> px = rz;
  px.type = rbd::JointType::Prismatic;
  px.axis = rbd::Vec3<double>(1, 0, 0);
  const int b0 = b.add_body("link0", -1, rz, X, 2.0, rbd::Vec3<double>(0.1, 0, 0), I);
  const int b1 = b.add_body("link1", b0, px, X, 1.5, rbd::Vec3<double>(0, 0.1, 0), I);
  b.add_body("link2", b1, rz, X, 1.0, rbd::Vec3<double>(0, 0, 0.1), I);
  return b.finish();
}

}  // namespace

#if !RBDLAB_API_COUNT_ALLOCATIONS

namespace {

bool same_bits(const MatX& a, const MatX& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

// The variant's own result (fresh scratch), for the API's to be compared with.
template <class Family, class V>
MatX raw(const Model<double>& m, const rbd::cases::State& x, const MatX& H) {
  if constexpr (std::is_same_v<Family, rbdlab::InverseDynamics>) {
    rbd::Workspace<double> ws(m);
    VecX tau(m.nv);
    V::template run<double>(m, x.q, x.qd, x.qdd, &x.f_ext, tau, ws);
    return tau;
  } else if constexpr (std::is_same_v<Family, rbdlab::MassMatrix>) {
    rbd::Workspace<double> ws(m);
    MatX out = MatX::Zero(m.nv, m.nv);
    V::template run<double>(m, x.q, out, ws);
    return out;
  } else if constexpr (std::is_same_v<Family, rbdlab::Bias>) {
    rbd::Workspace<double> ws(m);
    VecX C(m.nv);
    V::template run<double>(m, x.q, x.qd, &x.f_ext, C, ws);
    return C;
  } else if constexpr (std::is_same_v<Family, rbdlab::ForwardDynamics>) {
    rbd::ForwardDynamicsWorkspace<double> ws(m);
    VecX qdd(m.nv);
    V::template run<double>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, ws);
    return qdd;
  } else {
    rbd::FactorizationWorkspace<double> ws(m);
    VecX sol(m.nv);
    V::template run<double>(m, H, x.tau, sol, ws);
    return sol;
  }
}

// The API's result with variant tag V (rbdlab::Fastest for the default).
template <class Family, class V, class WS>
MatX api(WS& ws, const rbd::cases::State& x, const MatX& H) {
  if constexpr (std::is_same_v<Family, rbdlab::InverseDynamics>) return rbdlab::inverse_dynamics<V>(ws, x.q, x.qd, x.qdd, &x.f_ext);
  else if constexpr (std::is_same_v<Family, rbdlab::MassMatrix>) return rbdlab::mass_matrix<V>(ws, x.q);
  else if constexpr (std::is_same_v<Family, rbdlab::Bias>) return rbdlab::bias<V>(ws, x.q, x.qd, &x.f_ext);
  else if constexpr (std::is_same_v<Family, rbdlab::ForwardDynamics>)
    return rbdlab::forward_dynamics<V>(ws, x.q, x.qd, x.tau, &x.f_ext);
  else return rbdlab::factorization<V>(ws, H, x.tau);
}

// Whether V runs as itself on m: applicable and (DH variants) not handing m to another variant.
template <class V> bool runs_as_itself(const Model<double>& m) {
  if (!V::template applicable<double>(m)) return false;
  if constexpr (requires { V::template fallback_to<double>(m); }) return V::template fallback_to<double>(m).empty();
  return true;
}

template <class Family> void check_family(const Model<double>& m) {
  const rbd::cases::State x = rbd::cases::random_state(m, 3);
  MatX H = MatX::Zero(m.nv, m.nv);
  rbd::Workspace<double> w0(m);
  rbd::Crba::run<double>(m, x.q, H, w0);
  rbdlab::FamilyWorkspace<Family, double> ws(m);
  bool fastest_seen = false;
  for_each_type<typename Family::Variants>([&]<class V>() {
    INFO(Family::name << "/" << V::name << " on " << m.name);
    CHECK(ws.template applicable<V>() == runs_as_itself<V>(m));
    if (runs_as_itself<V>(m)) {
      CHECK(same_bits(api<Family, V>(ws, x, H), raw<Family, V>(m, x, H)));  // the variant's own bits
      if (V::name == ws.fastest()) {
        fastest_seen = true;
        CHECK(same_bits(api<Family, rbdlab::Fastest>(ws, x, H), raw<Family, V>(m, x, H)));
      }
    } else {
      try {
        api<Family, V>(ws, x, H);
        FAIL("no error for a variant that does not apply");
      } catch (const rbdlab::NotApplicable& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("rbdlab::" + std::string(Family::name) + "<" + std::string(V::name) + ">") != std::string::npos);
        CHECK(msg.find("not applicable to model '" + m.name + "'") != std::string::npos);
        CHECK(msg.find("(the fastest: " + std::string(ws.fastest()) + ")") != std::string::npos);
        if (V::template applicable<double>(m))  // a DH variant that would fall back: it names the other
          CHECK(msg.find("would hand the model to") != std::string::npos);
      }
    }
  });
  CHECK(fastest_seen);
}

template <class Family> std::string fastest(const Model<double>& m) {
  return std::string(rbdlab::FamilyWorkspace<Family, double>(m).fastest());
}

template <class F> std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("api: the fastest applicable variant, as api.hpp documents it", "[api]") {
  using namespace rbdlab;
  const Model<double> chain = rbd::cases::gu(30), short_chain = rbd::cases::gu(7), long_chain = rbd::cases::gu(128),
                      tree = rbd::cases::auto_tree(15, 2), floating = rbd::cases::humanoid(),
                      no_dh = rbd::cases::single_joint(rbd::JointType::Spherical),
                      prismatic = revolute_prismatic_chain();
  CHECK(fastest<InverseDynamics>(chain) == "rnea_dh");
  CHECK(fastest<MassMatrix>(chain) == "crba_dh");
  CHECK(fastest<Bias>(chain) == "rnea_lwp");
  CHECK(fastest<ForwardDynamics>(chain) == "aba");
  CHECK(fastest<Factorization>(chain) == "ltdl_sparse");
  CHECK(fastest<Bias>(short_chain) == "rnea_spatial");
  CHECK(fastest<MassMatrix>(long_chain) == "crba_world");
  CHECK(fastest<Factorization>(long_chain) == "llt_dense");
  CHECK(fastest<InverseDynamics>(tree) == "rnea_dh");
  CHECK(fastest<MassMatrix>(tree) == "crba_dh");
  CHECK(fastest<Bias>(tree) == "rnea_spatial");
  CHECK(fastest<Factorization>(tree) == "ltdl_sparse");
  CHECK(fastest<InverseDynamics>(floating) == "rnea_floating");
  CHECK(fastest<MassMatrix>(floating) == "crba");
  CHECK(fastest<Bias>(floating) == "rnea_floating");
  CHECK(fastest<ForwardDynamics>(floating) == "aba_floating");
  CHECK(fastest<InverseDynamics>(no_dh) == "rnea_spatial");
  CHECK(fastest<MassMatrix>(no_dh) == "crba");
  CHECK(fastest<Bias>(no_dh) == "rnea_spatial");
  CHECK(fastest<ForwardDynamics>(no_dh) == "aba");
  CHECK(fastest<InverseDynamics>(prismatic) == "rnea_dh");
  CHECK(fastest<ForwardDynamics>(prismatic) == "aba");
}

TEST_CASE("api: results are the variants' own, bit for bit; inapplicable variants refused", "[api]") {
  std::vector<Model<double>> ms = models();
  ms.push_back(revolute_prismatic_chain());
  for (const Model<double>& m : ms) {
    check_family<rbdlab::InverseDynamics>(m);
    check_family<rbdlab::MassMatrix>(m);
    check_family<rbdlab::Bias>(m);
    check_family<rbdlab::ForwardDynamics>(m);
    check_family<rbdlab::Factorization>(m);
  }
}

TEST_CASE("api: the refusals say why and what to call instead", "[api]") {
  const Model<double> chain = rbd::cases::gu(7), floating = rbd::cases::all_joints_tree(),
                      prismatic = revolute_prismatic_chain();
  const rbd::cases::State xc = rbd::cases::random_state(chain, 1), xf = rbd::cases::random_state(floating, 1),
                          xp = rbd::cases::random_state(prismatic, 1);
  rbdlab::InverseDynamicsWorkspace id_f(floating);
  rbdlab::MassMatrixWorkspace mm_f(floating);
  rbdlab::ForwardDynamicsWorkspace fd_c(chain), fd_p(prismatic);

  std::string e = error_of([&] { rbdlab::inverse_dynamics<rbd::RneaLwp>(id_f, xf.q, xf.qd, xf.qdd); });
  INFO(e);
  CHECK(e.find("rnea_lwp>: not applicable to model 'all_joints'") != std::string::npos);
  CHECK(e.find("it needs 1-DoF joints and body 0") != std::string::npos);
  CHECK(e.find("Applicable: rnea_floating, rnea_spatial, rnea_equivalent (the fastest: rnea_floating)") != std::string::npos);

  e = error_of([&] { rbdlab::inverse_dynamics<rbd::RneaDh>(id_f, xf.q, xf.qd, xf.qdd); });
  INFO(e);
  CHECK(e.find("it would hand the model to rnea_spatial (body 0") != std::string::npos);
  CHECK(e.find("call rnea_spatial instead") != std::string::npos);

  e = error_of([&] { rbdlab::mass_matrix<rbd::CrbaDh>(mm_f, xf.q); });
  INFO(e);
  CHECK(e.find("it would hand the model to crba") != std::string::npos);

  e = error_of([&] { rbdlab::forward_dynamics<rbd::AbaFloating>(fd_c, xc.q, xc.qd, xc.tau); });
  INFO(e);
  CHECK(e.find("it needs a free-floating base") != std::string::npos);

  e = error_of([&] { rbdlab::forward_dynamics<rbd::AbaDh>(fd_p, xp.q, xp.qd, xp.tau); });
  INFO(e);
  CHECK(e.find("aba_dh>: not applicable") != std::string::npos);
  CHECK(e.find("would hand the model to aba (the model is off its fast path") != std::string::npos);
}

TEST_CASE("api: inputs are checked, with the argument named", "[api]") {
  const Model<double> m = rbd::cases::gu(7), fl = rbd::cases::humanoid();
  const rbd::cases::State x = rbd::cases::random_state(m, 1), xf = rbd::cases::random_state(fl, 1);
  rbdlab::InverseDynamicsWorkspace id(m), id_fl(fl);
  rbdlab::ForwardDynamicsWorkspace fd(m);
  rbdlab::BiasWorkspace bs(m);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  VecX tau(m.nv);

  auto expect = [](const std::string& what, const std::string& part) {
    INFO(what);
    CHECK(what.find(part) != std::string::npos);
  };
  auto invalid = [](auto&& f) {
    try {
      f();
    } catch (const rbdlab::InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(no InvalidArgument)");
  };

  expect(invalid([&] { rbdlab::inverse_dynamics(id, VecX(x.q.head(6)), x.qd, x.qdd, tau); }),
         "rbdlab::inverse_dynamics (rnea_dh): q has 6 entries; the model needs 7 (model.nq)");
  VecX bad = x.qd;
  bad[2] = nan;
  expect(invalid([&] { rbdlab::inverse_dynamics(id, x.q, bad, x.qdd, tau); }), "qd[2] is nan (every entry must be finite)");
  bad = x.qdd;
  bad[6] = -inf;
  expect(invalid([&] { rbdlab::inverse_dynamics<rbd::RneaSpatial>(id, x.q, x.qd, bad, tau); }),
         "rbdlab::inverse_dynamics (rnea_spatial): qdd[6] is -inf");
  expect(invalid([&] { rbdlab::forward_dynamics(fd, x.q, x.qd, VecX(x.tau.head(3)), tau); }),
         "rbdlab::forward_dynamics (aba): tau has 3 entries; the model needs 7");
  rbd::ExternalForces<double> f = x.f_ext;
  f.pop_back();
  expect(invalid([&] { rbdlab::bias(bs, x.q, x.qd, tau, &f); }), "f_ext has 6 forces; the model needs one per body, 7");
  f = x.f_ext;
  f[1][3] = nan;
  expect(invalid([&] { rbdlab::bias(bs, x.q, x.qd, tau, &f); }), "f_ext[1][3] (body '");
  VecX q = xf.q;
  q.segment<4>(0) *= 1.01;
  expect(invalid([&] { rbdlab::inverse_dynamics(id_fl, q, xf.qd, xf.qdd); }),
         "q[0..3], the quaternion of body 0 'pelvis' (free joint), has norm 1.01");
  q.segment<4>(0).setZero();
  expect(invalid([&] { rbdlab::inverse_dynamics(id_fl, q, xf.qd, xf.qdd); }), "has norm 0; it must be a unit quaternion");
  VecX both = x.qdd;
  expect(invalid([&] { rbdlab::inverse_dynamics(id, x.q, x.qd, both, both); }),
         "tau is also an input of the call; pass a separate output");

  // A wrong-sized output is resized and filled: the same bits as a sized one.
  VecX empty, sized(m.nv);
  rbdlab::inverse_dynamics(id, x.q, x.qd, x.qdd, empty);
  rbdlab::inverse_dynamics(id, x.q, x.qd, x.qdd, sized);
  CHECK(same_bits(empty, sized));
}

TEST_CASE("api: mass_matrix writes every entry of H, whatever H held", "[api]") {
  // The variants write H's pattern only; the API zeros the branch-induced entries itself.
  for (const Model<double>& m : {rbd::cases::auto_tree(15, 2), rbd::cases::humanoid()}) {
    const rbd::cases::State x = rbd::cases::random_state(m, 2);
    rbdlab::MassMatrixWorkspace mm(m);
    MatX H = MatX::Constant(m.nv, m.nv, std::numeric_limits<double>::quiet_NaN());
    rbdlab::mass_matrix(mm, x.q, H);
    INFO(m.name);
    CHECK(same_bits(H, rbdlab::mass_matrix(mm, x.q)));
    for_each_type<rbd::MassMatrixVariants>([&]<class V>() {
      if (!mm.template applicable<V>()) return;
      INFO(V::name);
      H.setConstant(std::numeric_limits<double>::quiet_NaN());
      rbdlab::mass_matrix<V>(mm, x.q, H);
      CHECK(same_bits(H, raw<rbdlab::MassMatrix, V>(m, x, H)));
    });
  }
}

TEST_CASE("api: factorization checks H's pattern and positive definiteness", "[api]") {
  const Model<double> tree = rbd::cases::auto_tree(15, 2);
  const rbd::cases::State x = rbd::cases::random_state(tree, 1);
  rbdlab::MassMatrixWorkspace mm(tree);
  rbdlab::FactorizationWorkspace fa(tree);
  MatX H = rbdlab::mass_matrix(mm, x.q);
  // Bodies 1 and 2 are both children of body 0: H(2, 1) is a branch-induced zero.
  REQUIRE(tree.parent[1] == 0);
  REQUIRE(tree.parent[2] == 0);
  REQUIRE(H(2, 1) == 0.0);
  MatX off = H;
  off(2, 1) = 1e-3;
  const std::string e = error_of([&] { rbdlab::factorization(fa, off, x.tau); });
  INFO(e);
  CHECK(e.find("rbdlab::factorization (ltdl_sparse): H(2, 1) = 0.001 lies outside the branch-induced sparsity") !=
        std::string::npos);
  CHECK_NOTHROW(rbdlab::factorization<rbd::LltDense>(fa, off, x.tau));  // the dense ones take any SPD matrix
  CHECK_THROWS_AS(rbdlab::factorization<rbd::LtlSparse>(fa, off, x.tau), rbdlab::InvalidArgument);

  const MatX negative = -H;
  for_each_type<rbd::FactorizationVariants>([&]<class V>() {
    INFO(V::name);
    CHECK_THROWS_AS(rbdlab::factorization<V>(fa, negative, x.tau), rbdlab::NumericalError);
  });
  MatX nan_H = H;
  nan_H(3, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(rbdlab::factorization(fa, nan_H, x.tau), rbdlab::InvalidArgument);
  nan_H = H;
  nan_H(0, 3) = std::numeric_limits<double>::quiet_NaN();  // the upper triangle is not read
  CHECK_NOTHROW(rbdlab::factorization(fa, nan_H, x.tau));
  VecX b = x.tau;
  rbdlab::factorization(fa, H, b, b);  // b and x may be one vector
  CHECK(same_bits(b, rbdlab::factorization(fa, H, x.tau)));
}

TEST_CASE("api: a non-finite result is an error, not an answer", "[api]") {
  const Model<double> m = rbd::cases::gu(7);
  const rbd::cases::State x = rbd::cases::random_state(m, 1);
  rbdlab::InverseDynamicsWorkspace id(m);
  VecX huge = x.qd * 1e200;  // finite input, overflowing products
  try {
    rbdlab::inverse_dynamics(id, x.q, huge, x.qdd);
    FAIL("no error");
  } catch (const rbdlab::NumericalError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("rbdlab::inverse_dynamics (rnea_dh): the result tau[") != std::string::npos);
  }
}

TEST_CASE("api: hybrid_dynamics is its variants' own, bit for bit, reads no unknown entry, and checks its inputs",
          "[api][hybrid_dynamics]") {
  for (const Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 2);  // x.forward: the seed's random split
    rbdlab::HybridDynamicsWorkspace ws(m);
    CHECK(ws.fastest() == "hybrid_aba");
    for_each_type<rbd::HybridDynamicsVariants>([&]<class V>() {
      INFO(V::name << " on " << m.name);
      rbd::HybridDynamicsWorkspace<double> raw_ws(m);
      VecX qdd_raw = x.qdd, tau_raw = x.tau;
      V::template run<double>(m, x.q, x.qd, x.forward, qdd_raw, tau_raw, &x.f_ext, raw_ws);
      // The unknown entries set to NaN on entry: they must not be read.
      VecX qdd = x.qdd, tau = x.tau;
      for (int i = 0; i < m.nb; ++i)
        for (int k = 0; k < m.joint[i].nv(); ++k)
          (x.forward[i] ? qdd : tau)[m.v_idx[i] + k] = std::numeric_limits<double>::quiet_NaN();
      rbdlab::hybrid_dynamics<V>(ws, x.q, x.qd, x.forward, qdd, tau, &x.f_ext);
      CHECK(same_bits(qdd, qdd_raw));
      CHECK(same_bits(tau, tau_raw));
    });
  }
  const Model<double> m = rbd::cases::gu(7);
  const rbd::cases::State x = rbd::cases::random_state(m, 1);
  rbdlab::HybridDynamicsWorkspace ws(m);
  rbd::ForwardJoints fd{1, 0, 1, 0, 1, 0, 1};
  VecX qdd = x.qdd, tau = x.tau;
  CHECK(error_of([&] { rbdlab::hybrid_dynamics(ws, x.q, x.qd, rbd::ForwardJoints(3, 1), qdd, tau); }) ==
        "rbdlab::hybrid_dynamics (hybrid_aba): forward has 3 entries; the model needs one per joint, 7 (model.nb)");
  VecX short_tau = x.tau.head(5);
  CHECK(error_of([&] { rbdlab::hybrid_dynamics(ws, x.q, x.qd, fd, qdd, short_tau); }) ==
        "rbdlab::hybrid_dynamics (hybrid_aba): tau has 5 entries; the model needs 7 (model.nv): it carries the given "
        "values in");
  qdd[1] = std::numeric_limits<double>::infinity();  // joint 1 is inverse: qdd[1] is given
  CHECK(error_of([&] { rbdlab::hybrid_dynamics(ws, x.q, x.qd, fd, qdd, tau); }) ==
        "rbdlab::hybrid_dynamics (hybrid_aba): qdd[1] (given: joint 1 '" + m.body_name[1] +
            "' is inverse) is inf (every given entry must be finite)");
  qdd[1] = 0;
  CHECK(error_of([&] { rbdlab::hybrid_dynamics(ws, x.q, x.qd, fd, qdd, qdd); }) ==
        "rbdlab::hybrid_dynamics (hybrid_aba): qdd and tau are the same vector; pass two");
  VecX huge = x.qd * 1e200;  // finite input, overflowing products
  CHECK(error_of([&] { rbdlab::hybrid_dynamics<rbd::HybridCrbaSparse>(ws, x.q, huge, fd, qdd, tau); })
            .starts_with("rbdlab::hybrid_dynamics (hybrid_crba_sparse): the result "));
}

#else  // RBDLAB_API_COUNT_ALLOCATIONS: the allocation count, in its own program

// The counting replacements of the allocation functions, as in verify/test_no_allocation.cpp
// (which explains the two doors: operator new, and malloc for Eigen), in their short form:
// glibc's __libc_* entry points behind malloc and friends, every form of operator new on top.
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_calls{0};
inline void count() {
  if (g_counting.load(std::memory_order_relaxed)) g_calls.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
#error "rbdlab_api_allocations counts through glibc's __libc_* allocation functions"
#endif
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* malloc(std::size_t n) noexcept { return count(), __libc_malloc(n); }
void* calloc(std::size_t k, std::size_t n) noexcept { return count(), __libc_calloc(k, n); }
void* realloc(void* p, std::size_t n) noexcept { return count(), __libc_realloc(p, n); }
void* aligned_alloc(std::size_t a, std::size_t n) noexcept { return count(), __libc_memalign(a, n); }
void* memalign(std::size_t a, std::size_t n) noexcept { return count(), __libc_memalign(a, n); }
int posix_memalign(void** p, std::size_t a, std::size_t n) noexcept {
  count();
  if (a % sizeof(void*) != 0 || (a & (a - 1)) != 0) return 22;  // EINVAL
  void* r = __libc_memalign(a, n);
  if (!r) return 12;  // ENOMEM
  *p = r;
  return 0;
}
}  // extern "C"
namespace {
void* new_impl(std::size_t n) {
  count();
  if (void* p = __libc_malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* new_aligned_impl(std::size_t n, std::align_val_t a) {
  count();
  if (void* p = __libc_memalign(static_cast<std::size_t>(a), n ? n : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace
void* operator new(std::size_t n) { return new_impl(n); }
void* operator new[](std::size_t n) { return new_impl(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try { return new_impl(n); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try { return new_impl(n); } catch (...) { return nullptr; }
}
void* operator new(std::size_t n, std::align_val_t a) { return new_aligned_impl(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return new_aligned_impl(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try { return new_aligned_impl(n, a); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try { return new_aligned_impl(n, a); } catch (...) { return nullptr; }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

template <class F> long allocations(F&& f) {
  g_calls = 0;
  g_counting = true;
  f();
  g_counting = false;
  return g_calls.load();
}

// Every call form of one family (the fastest, then each variant that runs as itself), each
// counted twice: the first call after the workspace is made, and a second one.
template <class Family, class Call> void check_family(const Model<double>& m, Call&& call) {
  rbdlab::FamilyWorkspace<Family, double> ws(m);
  auto count_twice = [&]<class V>() {
    for (int k = 1; k <= 2; ++k) {
      const long n = allocations([&] { call.template operator()<V>(ws); });
      INFO(Family::name << "<" << V::name << "> on " << m.name << ", call " << k << ": " << n << " allocations");
      CHECK(n == 0);
    }
  };
  count_twice.template operator()<rbdlab::Fastest>();
  for_each_type<typename Family::Variants>([&]<class V>() {
    if (ws.template applicable<V>()) count_twice.template operator()<V>();
  });
}

}  // namespace

TEST_CASE("api: no allocation per call once the workspace is made", "[api][allocation]") {
  // The counter sees both doors, or a zero would prove nothing.
  // The pointer goes through a volatile, so that the compiler may not elide the pair (C++14
  // [expr.new]/10 lets it, and Clang does).
  CHECK(allocations([] { int* volatile p = new int(3); delete p; }) == 1);
  CHECK(allocations([] { Eigen::VectorXd v(50); v.setZero(); }) >= 1);

  std::vector<Model<double>> ms = models();
  ms.push_back(revolute_prismatic_chain());
  for (const Model<double>& m : ms) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    VecX tau(m.nv), C(m.nv), qdd(m.nv), sol(m.nv);
    MatX H = MatX::Zero(m.nv, m.nv), H0 = MatX::Zero(m.nv, m.nv);
    rbd::Workspace<double> w0(m);
    rbd::Crba::run<double>(m, x.q, H0, w0);
    check_family<rbdlab::InverseDynamics>(m, [&]<class V>(auto& ws) {
      rbdlab::inverse_dynamics<V>(ws, x.q, x.qd, x.qdd, tau, &x.f_ext);
      rbdlab::inverse_dynamics<V>(ws, x.q, x.qd, x.qdd, tau);
    });
    check_family<rbdlab::MassMatrix>(m, [&]<class V>(auto& ws) { rbdlab::mass_matrix<V>(ws, x.q, H); });
    check_family<rbdlab::Bias>(m, [&]<class V>(auto& ws) { rbdlab::bias<V>(ws, x.q, x.qd, C, &x.f_ext); });
    check_family<rbdlab::ForwardDynamics>(
        m, [&]<class V>(auto& ws) { rbdlab::forward_dynamics<V>(ws, x.q, x.qd, x.tau, qdd, &x.f_ext); });
    check_family<rbdlab::Factorization>(m, [&]<class V>(auto& ws) { rbdlab::factorization<V>(ws, H0, x.tau, sol); });
    // hybrid_dynamics: once the workspace has seen the split (its first call derives what
    // depends on the split and allocates for it), none.
    VecX hqdd = x.qdd, htau = x.tau;
    rbdlab::HybridDynamicsWorkspace hd(m);
    CHECK(allocations([&] { rbdlab::hybrid_dynamics(hd, x.q, x.qd, x.forward, hqdd, htau, &x.f_ext); }) > 0);
    auto no_allocation = [&]<class V>() {
      const long n = allocations([&] { rbdlab::hybrid_dynamics<V>(hd, x.q, x.qd, x.forward, hqdd, htau, &x.f_ext); });
      INFO("hybrid_dynamics<" << V::name << "> on " << m.name << ": " << n << " allocations");
      CHECK(n == 0);
    };
    no_allocation.template operator()<rbdlab::Fastest>();
    for_each_type<rbd::HybridDynamicsVariants>(no_allocation);
  }

  // The forms that return their result allocate it, and only it; a wrong-sized output is resized once.
  const Model<double> m = rbd::cases::gu(7);
  const rbd::cases::State x = rbd::cases::random_state(m, 1);
  rbdlab::InverseDynamicsWorkspace id(m);
  CHECK(allocations([&] { (void)rbdlab::inverse_dynamics(id, x.q, x.qd, x.qdd); }) == 1);
  VecX empty;
  CHECK(allocations([&] { rbdlab::inverse_dynamics(id, x.q, x.qd, x.qdd, empty); }) == 1);
  CHECK(allocations([&] { rbdlab::inverse_dynamics(id, x.q, x.qd, x.qdd, empty); }) == 0);
}

#endif  // RBDLAB_API_COUNT_ALLOCATIONS
