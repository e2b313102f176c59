// No heap allocation inside a call of any variant (DESIGN.md section 4: "hot paths allocate
// nothing (check it in a test)"; issue 3: "No allocation inside a timed call").
//
// How: this file replaces the global allocation functions of the test executable, as C++
// allows ([replacement.functions]), with versions that forward to the C library and count
// calls while a counter is switched on; the count is taken around exactly one call of a
// variant, in double, with a Workspace and outputs allocated beforehand.
//
// Two doors are counted, because Eigen does not use operator new: a dynamic-size Eigen
// matrix gets its storage from std::malloc (Eigen::internal::aligned_malloc). So besides
// operator new/new[] (all forms), the C allocation functions malloc, calloc, realloc,
// aligned_alloc, posix_memalign and memalign are interposed too, forwarding to glibc's
// __libc_* entry points (part of glibc's exported ABI). Both replacements are transparent
// when the counter is off, which is always except inside counted_allocations().
//
// Every variant of every family list is covered (for_each_type over the same tuples the
// other gates use: inverse dynamics, mass matrix, bias, factorization, forward dynamics), on
// GU(7), a binary tree and the tree with every joint type.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <tuple>
#include <utility>

#include "cases/all_joints.hpp"
#include "cases/auto_tree.hpp"
#include "cases/gu.hpp"
#include "cases/states.hpp"
#include "batch/evaluate_batch.hpp"
#include "verify/support/families.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_new_calls{0}, g_malloc_calls{0};
inline void count_new() {
  if (g_counting.load(std::memory_order_relaxed)) g_new_calls.fetch_add(1, std::memory_order_relaxed);
}
[[maybe_unused]] inline void count_malloc() {  // unused under AddressSanitizer (below)
  if (g_counting.load(std::memory_order_relaxed)) g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

// ---- the C allocation functions (glibc) ------------------------------------------------
// Interposed only with glibc (its __libc_* entry points) and not under AddressSanitizer
// (which interposes them itself); elsewhere only operator new is counted.
// GCC announces AddressSanitizer with __SANITIZE_ADDRESS__, Clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define RBDLAB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RBDLAB_ASAN 1
#endif
#endif
#if defined(__GLIBC__) && !defined(RBDLAB_ASAN)
#define RBDLAB_COUNT_MALLOC 1
#else
#define RBDLAB_COUNT_MALLOC 0
#endif
#if RBDLAB_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);

void* malloc(std::size_t n) noexcept {
  count_malloc();
  return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) noexcept {
  count_malloc();
  return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) noexcept {
  count_malloc();
  return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) noexcept {
  count_malloc();
  return __libc_memalign(a, n);
}
void* memalign(std::size_t a, std::size_t n) noexcept {
  count_malloc();
  return __libc_memalign(a, n);
}
int posix_memalign(void** p, std::size_t a, std::size_t n) noexcept {
  count_malloc();
  if (a % sizeof(void*) != 0 || (a & (a - 1)) != 0) return 22;  // EINVAL
  void* r = __libc_memalign(a, n);
  if (!r) return 12;  // ENOMEM
  *p = r;
  return 0;
}
}  // extern "C"
namespace {
void* raw_malloc(std::size_t n) { return __libc_malloc(n); }
void* raw_memalign(std::size_t a, std::size_t n) { return __libc_memalign(a, n); }
}  // namespace
#else
namespace {
void* raw_malloc(std::size_t n) { return std::malloc(n); }
void* raw_memalign(std::size_t a, std::size_t n) { return std::aligned_alloc(a, (n + a - 1) / a * a); }
}  // namespace
#endif

// ---- operator new / delete (every replaceable form) ------------------------------------
namespace {
void* new_impl(std::size_t n) {
  count_new();
  if (void* p = raw_malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* new_aligned_impl(std::size_t n, std::align_val_t a) {
  count_new();
  if (void* p = raw_memalign(static_cast<std::size_t>(a), n ? n : 1)) return p;
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

using VecX = rbd::VecX<double>;
using MatX = rbd::MatX<double>;

struct Allocations {
  long new_calls = 0, malloc_calls = 0;
  long total() const { return new_calls + malloc_calls; }
};

// Allocations made by f() on any thread while it runs (nothing else runs meanwhile).
template <class F> Allocations counted_allocations(F&& f) {
  g_new_calls = 0;
  g_malloc_calls = 0;
  g_counting = true;
  f();
  g_counting = false;
  return {g_new_calls.load(), g_malloc_calls.load()};
}

std::vector<rbd::Model<double>> models() {
  return {rbd::cases::gu(7), rbd::cases::auto_tree(15, 2), rbd::cases::all_joints_tree()};
}

// One family: every applicable variant, called twice (the first call after the workspace is
// made, then a second one), each counted on its own. Ws is the family's scratch type; prep
// makes, before counting, any input the call reads besides the state (e.g. H to factor).
template <class Family, class Ws, class Call>
void check_family(const char* family, Call&& call) {
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    rbd::Workspace<double> ws0(m);
    MatX H = MatX::Zero(m.nv, m.nv);  // an SPD matrix to factor: H(q) from the CRBA
    rbd::Crba::run<double>(m, x.q, H, ws0);
    rbd::verify::for_each_type<typename Family::Variants>([&]<class V>() {
      if (!V::template applicable<double>(m)) return;
      Ws ws(m);
      VecX out_v = VecX::Zero(m.nv);
      MatX out_H = MatX::Zero(m.nv, m.nv);
      for (int k = 1; k <= 2; ++k) {
        const Allocations a =
            counted_allocations([&] { call.template operator()<V>(m, x, H, ws, out_v, out_H); });
        INFO(family << "/" << V::name << " on " << m.name << ", call " << k << ": " << a.new_calls
                    << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

using State = rbd::cases::State;
using W = rbd::Workspace<double>;

}  // namespace

TEST_CASE("no allocation: the counter sees both doors", "[allocation]") {
  // The counter itself must work, or a zero below would prove nothing.
  const Allocations a = counted_allocations([] {
    // Through a volatile pointer: C++14 [expr.new]/10 lets a compiler elide a new/delete pair,
    // and Clang does.
    int* volatile p = new int(3);
    delete p;
  });
  CHECK(a.new_calls == 1);
  const Allocations b = counted_allocations([] {
    VecX v(50);  // Eigen: std::malloc, not operator new
    v.setZero();
  });
  if (RBDLAB_COUNT_MALLOC) CHECK(b.malloc_calls >= 1);
}

TEST_CASE("no allocation: inverse dynamics variants", "[allocation]") {
  check_family<rbd::verify::InverseDynamicsFamily, W>(
      "inverse_dynamics", []<class V>(const rbd::Model<double>& m, const State& x, const MatX&, W& ws, VecX& tau,
                                      MatX&) { V::template run<double>(m, x.q, x.qd, x.qdd, &x.f_ext, tau, ws); });
  check_family<rbd::verify::InverseDynamicsFamily, W>(
      "inverse_dynamics (no f_ext)", []<class V>(const rbd::Model<double>& m, const State& x, const MatX&, W& ws,
                                                 VecX& tau, MatX&) {
        V::template run<double>(m, x.q, x.qd, x.qdd, nullptr, tau, ws);
      });
}

TEST_CASE("no allocation: mass matrix variants", "[allocation]") {
  check_family<rbd::verify::MassMatrixFamily, W>(
      "mass_matrix", []<class V>(const rbd::Model<double>& m, const State& x, const MatX&, W& ws, VecX&, MatX& H) {
        V::template run<double>(m, x.q, H, ws);
      });
}

TEST_CASE("no allocation: bias variants", "[allocation]") {
  check_family<rbd::verify::BiasFamily, W>(
      "bias", []<class V>(const rbd::Model<double>& m, const State& x, const MatX&, W& ws, VecX& C, MatX&) {
        V::template run<double>(m, x.q, x.qd, &x.f_ext, C, ws);
      });
}

TEST_CASE("no allocation: factorization variants", "[allocation]") {
  using FW = rbd::FactorizationWorkspace<double>;
  check_family<rbd::verify::FactorizationFamily, FW>(
      "factorization", []<class V>(const rbd::Model<double>& m, const State& x, const MatX& H, FW& ws, VecX& sol,
                                   MatX&) { V::template run<double>(m, H, x.tau, sol, ws); });
}

TEST_CASE("no allocation: forward dynamics variants", "[allocation]") {
  using FW = rbd::ForwardDynamicsWorkspace<double>;
  check_family<rbd::verify::ForwardDynamicsFamily, FW>(
      "forward_dynamics", []<class V>(const rbd::Model<double>& m, const State& x, const MatX&, FW& ws, VecX& qdd,
                                      MatX&) { V::template run<double>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, ws); });
}

TEST_CASE("no allocation: hybrid dynamics variants, once the split is prepared", "[allocation]") {
  // What depends on the split alone (nu(fd), H_11's pattern and storage) is made when a split is
  // first used (HybridDynamicsWorkspace::prepare, section 9.1's "calculate it just once"): made
  // here before counting, then every call with that split allocates nothing.
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    rbd::verify::for_each_type<rbd::HybridDynamicsVariants>([&]<class V>() {
      rbd::HybridDynamicsWorkspace<double> ws(m);
      ws.prepare(m, x.forward);
      VecX qdd = x.qdd, tau = x.tau;
      for (int k = 1; k <= 2; ++k) {
        const Allocations a = counted_allocations([&] { V::template run<double>(m, x.q, x.qd, x.forward, qdd, tau, &x.f_ext, ws); });
        INFO("hybrid_dynamics/" << V::name << " on " << m.name << ", call " << k << ": " << a.new_calls << " operator new, "
                                << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: closed-loop variants, once the loops' shape is prepared", "[allocation]") {
  // The workspace is sized for n^c constraints of full rank when the loops' shape is first seen
  // (ClosedLoopWorkspace::prepare); the rank K turns out to have changes no size (dropped rows
  // become identity rows in loop_kkt; G's and A's blocks are views into the full-size storage).
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    const rbd::LoopJoints<double> loops = rbd::cases::close_loops<double>(m, x.q, x.loops);
    const VecX qd = rbd::cases::consistent_velocity<double>(m, loops, x.q, x.qd);
    rbd::verify::for_each_type<rbd::ClosedLoopVariants>([&]<class V>() {
      rbd::ClosedLoopWorkspace<double> ws(m);
      ws.prepare(m, loops);
      VecX qdd(m.nv);
      for (int k = 1; k <= 2; ++k) {
        const Allocations a = counted_allocations([&] { V::template run<double>(m, loops, x.q, qd, x.tau, &x.f_ext, qdd, ws); });
        INFO("closed_loop_dynamics/" << V::name << " on " << m.name << " (" << loops.size() << " loop joints), call " << k
                                     << ": " << a.new_calls << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: contact variants, once the contacts' shape is prepared", "[allocation]") {
  // The workspace is sized for n_c contacts when their shape (count and bodies) is first seen
  // (ContactWorkspace::prepare); the pivoting's sets and the clamped block are views into it.
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    const rbd::PointContacts<double> contacts = rbd::cases::place_contacts<double>(m, x.q, x.contacts);
    const VecX qd = rbd::cases::consistent_contact_velocity<double>(m, contacts, x.q, x.qd);
    rbd::verify::for_each_type<rbd::ContactVariants>([&]<class V>() {
      rbd::ContactWorkspace<double> ws(m);
      ws.prepare(m, contacts);
      VecX qdd(m.nv);
      for (int k = 1; k <= 2; ++k) {
        const Allocations a = counted_allocations([&] { V::template run<double>(m, contacts, x.q, qd, x.tau, &x.f_ext, qdd, ws); });
        INFO("contact_dynamics/" << V::name << " on " << m.name << " (" << contacts.size() << " contacts), call " << k
                                 << ": " << a.new_calls << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: loop-contact variants, once the loops' and contacts' shape is prepared", "[allocation]") {
  // The two workspaces inside are sized by their own prepare() and the family's by
  // LoopContactWorkspace::prepare, all on the first call with a shape; the rank K turns out to
  // have, and the pivoting's sets, change no size.
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    const rbd::LoopJoints<double> loops = rbd::cases::close_loops<double>(m, x.q, x.loops);
    const rbd::PointContacts<double> contacts =
        rbd::cases::place_contacts<double>(m, x.q, rbd::cases::contacts_free_of_loops(m, x.loops, x.q, x.contacts));
    const VecX qd = rbd::cases::consistent_loop_contact_velocity<double>(m, loops, contacts, x.q, x.qd);
    rbd::verify::for_each_type<rbd::LoopContactVariants>([&]<class V>() {
      rbd::LoopContactWorkspace<double> ws(m);
      VecX qdd(m.nv);
      V::template run<double>(m, loops, contacts, x.q, qd, x.tau, &x.f_ext, qdd, ws);  // the first call prepares
      for (int k = 2; k <= 3; ++k) {
        const Allocations a =
            counted_allocations([&] { V::template run<double>(m, loops, contacts, x.q, qd, x.tau, &x.f_ext, qdd, ws); });
        INFO("loop_contact_dynamics/" << V::name << " on " << m.name << " (" << loops.size() << " loop joints, "
                                      << contacts.size() << " contacts), call " << k << ": " << a.new_calls
                                      << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: impact variants, once the contacts' shape is prepared", "[allocation]") {
  // ImpactWorkspace::prepare sizes zeta^- and zeta^+ with the contact family's matrices; the
  // restitution check on every call allocates only when it throws.
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    const rbd::PointContacts<double> contacts = rbd::cases::place_contacts<double>(m, x.q, x.contacts);
    const VecX qd = rbd::cases::approaching_velocity<double>(m, contacts, x.q, x.qd);
    rbd::verify::for_each_type<rbd::ImpactVariants>([&]<class V>() {
      rbd::ImpactWorkspace<double> ws(m);
      ws.prepare(m, contacts);
      VecX qd_plus(m.nv);
      for (int k = 1; k <= 2; ++k) {
        const Allocations a = counted_allocations([&] { V::template run<double>(m, contacts, x.q, qd, qd_plus, ws); });
        INFO("impact_dynamics/" << V::name << " on " << m.name << " (" << contacts.size() << " contacts), call " << k
                                << ": " << a.new_calls << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: friction variants, whichever contacts stick", "[allocation]") {
  // FrictionWorkspace::prepare sizes the LCP for every contact sticking; the LCP of a call is the
  // leading block. Calls 1-2 at the family's state (its drawn sticking and sliding contacts),
  // call 3 with qd projected on the normals only, so every contact slides: a smaller LCP.
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    const rbd::PointContacts<double> contacts = rbd::cases::place_contacts<double>(m, x.q, x.contacts);
    const VecX qd = rbd::cases::frictional_velocity<double>(m, contacts, x.q, x.qd, x.contacts);
    const VecX qd_sliding = rbd::cases::consistent_contact_velocity<double>(m, contacts, x.q, x.qd);
    rbd::verify::for_each_type<rbd::FrictionVariants>([&]<class V>() {
      rbd::FrictionWorkspace<double> ws(m);
      ws.prepare(m, contacts);
      VecX qdd(m.nv);
      for (int k = 1; k <= 3; ++k) {
        const VecX& v = k < 3 ? qd : qd_sliding;
        const Allocations a = counted_allocations([&] { V::template run<double>(m, contacts, x.q, v, x.tau, &x.f_ext, qdd, ws); });
        INFO("friction_dynamics/" << V::name << " on " << m.name << " (" << contacts.size() << " contacts), call " << k
                                  << ": " << a.new_calls << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: geared dynamics variants, once the gear pairs are prepared", "[allocation]") {
  // What depends on the pairs alone (the map, G, Eq. 9.27's terms, the sizes of G^T H G and of the
  // Lagrange system) is made when the pairs are first used (GearedWorkspace::prepare).
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    rbd::verify::for_each_type<rbd::GearedDynamicsVariants>([&]<class V>() {
      rbd::GearedWorkspace<double> ws(m);
      ws.prepare(m, x.gears);
      const VecX y = ws.map.independent_positions(x.q), yd = ws.map.independent_velocities(x.qd);
      VecX ydd(ws.map.ny);
      for (int k = 1; k <= 2; ++k) {
        const Allocations a = counted_allocations([&] { V::template run<double>(m, x.gears, y, yd, x.tau, &x.f_ext, ydd, ws); });
        INFO("geared_dynamics/" << V::name << " on " << m.name << " (" << x.gears.size() << " gear pairs), call " << k
                                << ": " << a.new_calls << " operator new, " << a.malloc_calls << " malloc-family calls");
        CHECK(a.total() == 0);
      }
    });
  }
}

TEST_CASE("no allocation: extended-joint variants, with racks, reversed and driven joints", "[allocation]") {
  // The state's drawn joint extensions (cases/extended_joints.hpp) on each model; the extended
  // model is the caller's, made once like a Model.
  for (const rbd::Model<double>& m : models()) {
    const rbd::cases::State x = rbd::cases::random_state(m, 1);
    const rbd::ExtendedModel<double> em{m, x.extensions};
    auto each = [&]<class Variants>(const VecX& in, const char* family) {
      rbd::verify::for_each_type<Variants>([&]<class V>() {
        rbd::ExtendedWorkspace<double> ws(em);
        VecX out(m.nv);
        for (int k = 1; k <= 2; ++k) {
          const Allocations a = counted_allocations([&] { V::template run<double>(em, x.t, x.q, x.qd, in, &x.f_ext, out, ws); });
          INFO(family << "/" << V::name << " on " << m.name << ", call " << k << ": " << a.new_calls
                      << " operator new, " << a.malloc_calls << " malloc-family calls");
          CHECK(a.total() == 0);
        }
      });
    };
    each.template operator()<rbd::ExtendedInverseVariants>(x.qdd, "extended_inverse_dynamics");
    each.template operator()<rbd::ExtendedForwardVariants>(x.tau, "extended_forward_dynamics");
  }
}

TEST_CASE("no allocation: batches of states, once the batch workspace is made", "[allocation]") {
  // batch/evaluate_batch.hpp: the model broadcast into Batch<4> and every buffer live in the
  // BatchWorkspace; a call loads lanes, runs the variant and stores lanes. 5 states: the padded
  // last batch is counted too.
  for (const rbd::Model<double>& m : models()) {
    rbd::BatchWorkspace<4> b(m);
    MatX Q(m.nq, 5), QD(m.nv, 5), X3(m.nv, 5), Y(m.nv, 5), HS(m.nv * m.nv, 5);
    for (int j = 0; j < 5; ++j) {
      const rbd::cases::State x = rbd::cases::random_state(m, 1 + j);
      Q.col(j) = x.q;
      QD.col(j) = x.qd;
      X3.col(j) = x.qdd;
    }
    for (int k = 1; k <= 2; ++k) {
      const Allocations id = counted_allocations([&] { rbd::inverse_dynamics_batch<rbd::RneaSpatial>(b, Q, QD, X3, Y); });
      const Allocations mm = counted_allocations([&] { rbd::mass_matrix_batch<rbd::Crba>(b, Q, HS); });
      const Allocations fd = counted_allocations([&] { rbd::forward_dynamics_batch<rbd::Aba>(b, Q, QD, X3, Y); });
      INFO(m.name << ", call " << k << ": rnea " << id.total() << ", crba " << mm.total() << ", aba " << fd.total());
      CHECK(id.total() + mm.total() + fd.total() == 0);
    }
  }
}
