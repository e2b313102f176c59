#pragma once
// rbdlab's C++ API: the verified variants of six families behind one checked call each.
// Include <rbdlab/rbdlab.hpp> (this header, plus the URDF loader and the Reference scalar when
// their CMake targets are linked); README.md, "Using rbdlab from your project", has the set-up.
//
//   const rbd::Model<double>& model = robot.model;              // e.g. rbdlab::load_urdf(path).model
//   rbdlab::InverseDynamicsWorkspace id(model);                  // the family's workspace, made once
//   rbdlab::inverse_dynamics(id, q, qd, qdd, tau);               // the fastest applicable variant
//   rbdlab::inverse_dynamics<rbd::RneaLwp>(id, q, qd, qdd, tau); // a variant chosen by its tag
//
// Families (the functions; each has a workspace class of the same stem, e.g.
// MassMatrixWorkspace, and a form that returns its result instead of writing an output):
//   inverse_dynamics(ws, q, qd, qdd, tau [, f_ext])   tau = ID(q, qd, qdd)        Table 5.1
//   mass_matrix(ws, q, H)                              H(q), all nv x nv entries   Table 6.2
//   bias(ws, q, qd, C [, f_ext])                       C = ID(q, qd, 0)            Eq. 6.1
//   forward_dynamics(ws, q, qd, tau, qdd [, f_ext])    qdd = H^-1 (tau - C)        Table 7.1
//   factorization(ws, H, b, x)                         x = H^-1 b, H from mass_matrix
//   hybrid_dynamics(ws, q, qd, forward, qdd, tau [, f_ext])  the unknowns of Eq. 9.2     Table 9.3
//                                                      (forward[i] != 0: joint i's tau given,
//                                                      its qdd computed; else the reverse)
// q has model.nq entries (a spherical or free joint's rotation is a unit quaternion w x y z),
// qd, qdd, tau, C, b and x have model.nv, H is nv x nv; f_ext (optional, nullptr = none) holds one
// spatial force [n; f] per body in that body's coordinates. Gravity is the model's
// (rbd::Model::gravity) and is included in tau, C and qdd. The variant tags are the rbd:: types
// listed in algorithms/<family>/variants.hpp (rbd::RneaSpatial, rbd::Crba, rbd::Aba, ...); what
// each computes and how is in algorithms/<family>/README.md.
//
// Guarantees:
//  - checked inputs: a size that does not match the model, a NaN or an infinity in any input, a
//    quaternion that is not of unit norm (within 1e-10) or an output that is also an input is
//    refused with rbdlab::InvalidArgument (a std::invalid_argument) whose message names the
//    function, the variant, the argument and the problem, e.g.
//    "rbdlab::inverse_dynamics (rnea_dh): qd[2] is nan (every entry must be finite)";
//  - never a silent swap: a variant that does not apply to the model raises rbdlab::NotApplicable
//    (a std::invalid_argument) saying why and naming the variants that do apply, the fastest
//    first. The DH-frame variants (rnea_dh, crba_dh, aba_dh) count as not applicable where their
//    run() would hand the model to the general variant (their fallback_to(model) is not empty);
//  - results checked too: a NaN or an infinity in an output (a numerically singular H, an
//    overflow) or a factorization of an H that is not positive definite raises
//    rbdlab::NumericalError (a std::runtime_error) instead of returning it;
//  - no allocation per call once the workspace is made, when the outputs have their sizes (an
//    output of the wrong size is resized, which allocates once); the forms that return their
//    result allocate it. hybrid_dynamics allocates when the split differs from the last call's
//    (section 9.1: what depends on the split is derived once, when it changes). verify/test_api.cpp counts the allocations;
//  - the same results, bit for bit, as the variant's own rbd::<Variant>::run() (on a zeroed H for
//    mass_matrix, whose variants write H's branch-induced pattern only), the zero-overhead layer
//    underneath (ws.scratch() is its workspace, for callers who want to skip the checks),
//    which the calls reach through run_inlined() below: flattened for double, so that the speed
//    does not depend on the size of the caller's translation unit or on compiler parameters.
// A workspace is bound to its model (it keeps a pointer to it: the model must outlive it) and is
// used by one thread at a time; the functions are templates on the scalar (double, or
// rbd::Reference from <rbdlab/reference.hpp> for the 50-digit runs).
//
// "The fastest applicable variant" is chosen once, when the workspace is made, from a fixed
// preference list per family: the first variant of the list that applies to the model and whose
// condition (below) holds; ws.fastest() names it. The lists and conditions come from the committed
// benchmark run, reports/data/bench.json of commit 577ec24 (GCC 12 -O3, a 2-core EPYC; medians of 5
// interleaved repetitions, every variant on GU(n) and auto_tree chains and trees for n = 1..256, the
// shared robots ur5, panda, iiwa14 and solo12, and a 37-DoF floating humanoid). "Chain" below means
// an unbranched chain (model.depth() == model.nb); the thresholds lie between measured sizes.
//  - inverse_dynamics: rnea_floating on a free-floating base (faster than rnea_spatial on solo12
//    and the humanoid); else rnea_dh (fastest on every fixed-base case, 0.66-0.87 of rnea_spatial's
//    time); else rnea_spatial (no DH form: planar, spherical, cylindrical or free joints);
//  - mass_matrix: crba_world on chains of more than 100 bodies (0.77-0.88 of crba_dh's time at 128
//    and 256, 1.05-1.12 at 64); else crba_dh (fastest on every other fixed-base case); else crba (floating
//    bases: crba_floating was 3 % faster on solo12 but 38 % slower on the humanoid);
//  - bias: rnea_floating on a free-floating base; else rnea_lwp on chains of 8 or more 1-DoF joints
//    (faster on every such chain, panda included; rnea_spatial is up to 10 % faster below 8 bodies);
//    else rnea_spatial (faster on every branched tree);
//  - forward_dynamics: aba_floating on a free-floating base; else aba (fastest on every case with
//    more than one body; aba_dh, crba_ltdl and crba_llt_dense are slower);
//  - hybrid_dynamics: hybrid_aba (reports/data/bench.json of the commit that added the family, one split per
//    case with every other joint forward: the fastest of the three at 43 of the 57 (case, n) timed and at 23
//    of the 25 with n >= 30; where a CRBA route won, at n <= 30, it was by up to 1.47x, on tree_bf1.5 n = 4;
//    run-to-run spread on this shared machine was 15-25 %); hybrid_aba applies to every model
//  - factorization: llt_dense when H has no branch-induced zero (a chain) and nv >= 64 (0.61-0.86 of
//    ltdl_sparse's time at 64..256); else ltdl_sparse (fastest on every tree and every chain up to
//    n = 32; within 6 % of the dense ones at 63).
#include <array>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "bias/variants.hpp"
#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "hybrid_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"

namespace rbdlab {

inline constexpr std::string_view version = "0.1.0";

template <class S> using VecX = rbd::VecX<S>;
template <class S> using MatX = rbd::MatX<S>;
template <class S> using ExternalForces = rbd::ExternalForces<S>;
// The functions' inputs: VecX<S> with S deduced from the workspace alone, so that an Eigen
// expression (q.head(n), VectorXd::Zero(n)) is accepted too, by a copy.
template <class S> using VecIn = std::type_identity_t<VecX<S>>;
template <class S> using MatIn = std::type_identity_t<MatX<S>>;
template <class S> using ForcesIn = std::type_identity_t<ExternalForces<S>>;

// ---- the call underneath: inlined whatever the size of the translation unit ---------------

// run_inlined<S>(f) calls f(). For S = double the call is flattened (the flatten attribute of GCC
// and Clang): every function f calls is inlined into it, recursively, except those marked noinline
// (rbdlab's multi-DoF joint paths and the ABA's 6x6 congruence, kept out of line on purpose). The
// reason: GCC caps how much a large translation unit may grow by inlining (--param
// inline-unit-growth, 40 % by default), and in a unit that instantiates many variants it then
// leaves Eigen's small fixed-size operations (3x3 products, assignments) out of line inside the
// variants' loops: in rbdlab_bench, rnea_spatial and aba were 8-22 % slower on ur5 and GU(30)
// without --param=inline-unit-growth=400. Flattened, a variant's speed depends neither on the size
// of the caller's translation unit nor on that parameter (the same benchmarks then move by no more
// than the run-to-run noise with or without it). Every function below calls the variant through
// it, and so does rbdlab_bench's timed call (bench/family_calls.hpp). Other scalars (Reference,
// the counting scalar) are called as they are: flattening Boost.Multiprecision's arithmetic would
// multiply their compile time for nothing. Inlining changes no result as long as the compiler does
// not contract a * b + c into a fused multiply-add (rbdlab's own builds: -ffp-contract=off; GCC
// only contracts for an FMA-capable -march) and -ffast-math is off.
#if defined(__GNUC__)
#define RBDLAB_FLATTEN __attribute__((flatten))
#else
#define RBDLAB_FLATTEN
#endif
namespace detail {
template <class F> RBDLAB_FLATTEN void flattened(F& f) { f(); }
}  // namespace detail
template <class S, class F> inline void run_inlined(F&& f) {
  if constexpr (std::is_same_v<S, double>) detail::flattened(f);
  else f();
}

// ---- errors ------------------------------------------------------------------------------

// Bad input: wrong size, NaN or infinity, a non-unit quaternion, an output that is an input.
struct InvalidArgument : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A variant called on a model it does not apply to (or would hand to another variant).
struct NotApplicable : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A non-finite result, or an H that is not positive definite.
struct NumericalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "The fastest applicable variant": the default tag of every function.
struct Fastest {
  static constexpr std::string_view name = "fastest applicable";
};

// ---- families ----------------------------------------------------------------------------

namespace detail {
// An unbranched chain of bodies.
template <class S> bool is_chain(const rbd::Model<S>& m) { return m.depth() == m.nb; }
// H has no branch-induced zero: the expanded parent array (Table 6.4) is lambda(k) = k - 1.
template <class S> bool dense_pattern(const rbd::Model<S>& m) {
  const std::vector<int> lambda = rbd::expanded_parent(m);
  for (int k = 0; k < m.nv; ++k)
    if (lambda[k] != k - 1) return false;
  return true;
}
}  // namespace detail

// A family: its variant list (the one the gates use), its scratch type and its preference list
// (fastest first; see the header comment). preferred() may skip a listed variant on a model.
struct InverseDynamics {
  static constexpr std::string_view name = "inverse_dynamics";
  using Variants = rbd::InverseDynamicsVariants;
  using Preference = std::tuple<rbd::RneaFloating, rbd::RneaDh, rbd::RneaSpatial>;
  template <class S> using Scratch = rbd::Workspace<S>;
  template <class V, class S> static bool preferred(const rbd::Model<S>&) { return true; }
};

struct MassMatrix {
  static constexpr std::string_view name = "mass_matrix";
  using Variants = rbd::MassMatrixVariants;
  using Preference = std::tuple<rbd::CrbaWorld, rbd::CrbaDh, rbd::Crba>;
  template <class S> using Scratch = rbd::Workspace<S>;
  template <class V, class S> static bool preferred(const rbd::Model<S>& m) {
    if constexpr (std::is_same_v<V, rbd::CrbaWorld>) return detail::is_chain(m) && m.nb > 100;
    else return true;
  }
};

struct Bias {
  static constexpr std::string_view name = "bias";
  using Variants = rbd::BiasVariants;
  using Preference =
      std::tuple<rbd::BiasFrom<rbd::RneaFloating>, rbd::BiasFrom<rbd::RneaLwp>, rbd::BiasFrom<rbd::RneaSpatial>>;
  template <class S> using Scratch = rbd::Workspace<S>;
  template <class V, class S> static bool preferred(const rbd::Model<S>& m) {
    if constexpr (std::is_same_v<V, rbd::BiasFrom<rbd::RneaLwp>>) return detail::is_chain(m) && m.nb >= 8;
    else return true;
  }
};

struct ForwardDynamics {
  static constexpr std::string_view name = "forward_dynamics";
  using Variants = rbd::ForwardDynamicsVariants;
  using Preference = std::tuple<rbd::AbaFloating, rbd::Aba>;
  template <class S> using Scratch = rbd::ForwardDynamicsWorkspace<S>;
  template <class V, class S> static bool preferred(const rbd::Model<S>&) { return true; }
};

struct Factorization {
  static constexpr std::string_view name = "factorization";
  using Variants = rbd::FactorizationVariants;
  using Preference = std::tuple<rbd::LltDense, rbd::LtdlSparse>;
  template <class S> using Scratch = rbd::FactorizationWorkspace<S>;
  template <class V, class S> static bool preferred(const rbd::Model<S>& m) {
    if constexpr (std::is_same_v<V, rbd::LltDense>) return detail::dense_pattern(m) && m.nv >= 64;
    else return true;
  }
};

struct HybridDynamics {
  static constexpr std::string_view name = "hybrid_dynamics";
  using Variants = rbd::HybridDynamicsVariants;
  using Preference = std::tuple<rbd::HybridAba>;
  template <class S> using Scratch = rbd::HybridDynamicsWorkspace<S>;
  template <class V, class S> static bool preferred(const rbd::Model<S>&) { return true; }
};

namespace detail {

template <class T, class Tuple> struct index_in;
template <class T, class... U> struct index_in<T, std::tuple<U...>> {
  static constexpr std::size_t value = [] {
    constexpr bool same[] = {std::is_same_v<T, U>...};
    for (std::size_t k = 0; k < sizeof...(U); ++k)
      if (same[k]) return k;
    return sizeof...(U);
  }();
};
template <class T, class Tuple> inline constexpr bool is_in = index_in<T, Tuple>::value < std::tuple_size_v<Tuple>;

template <class Tuple, class F> void for_each_type(F&& f) {
  [&]<class... T>(std::tuple<T...>*) { (f.template operator()<T>(), ...); }(static_cast<Tuple*>(nullptr));
}

template <class V, class S>
concept HasFallback = requires(const rbd::Model<S>& m) {
  { V::template fallback_to<S>(m) } -> std::convertible_to<std::string_view>;
};

// Why V does not apply to m (V::applicable is false); built only when an error is raised.
template <class V, class S> std::string why_not_applicable(const rbd::Model<S>& m) {
  const std::string_view n = V::name;
  if (n == "rnea_floating" || n == "crba_floating" || n == "aba_floating")
    return "it needs a free-floating base (body 0 on a free joint, every other body descending from it)";
  if (n == "rnea_lwp") {
    for (int i = 0; i < m.nb; ++i)
      if (!rbd::is_single_dof(m.joint[i].type))
        return "it needs 1-DoF joints and body " + std::to_string(i) + " '" + m.body_name[i] + "' has a " +
               std::string(rbd::joint_type_name(m.joint[i].type)) + " joint";
  }
  return "its applicable() is false on this model";
}

template <class S> bool finite(const S& x) {
  using std::isfinite;
  return isfinite(x);
}

}  // namespace detail

// ---- the workspace -----------------------------------------------------------------------

// One family's workspace for one model: the scratch of the variants (made once), which variant is
// the fastest applicable one, and which variants apply. Use the family's class below
// (InverseDynamicsWorkspace, ...), which deduces the scalar: InverseDynamicsWorkspace ws(model).
template <class Family, class S> class FamilyWorkspace {
 public:
  using family = Family;
  using scalar = S;
  using Variants = typename Family::Variants;
  static constexpr std::size_t variant_count = std::tuple_size_v<Variants>;

  explicit FamilyWorkspace(const rbd::Model<S>& model) : model_(&model), scratch_(model) {
    if (model.nb < 1 || model.nv < 1) throw InvalidArgument("rbdlab::" + std::string(Family::name) +
                                                            ": model '" + model.name + "' has no moving bodies");
    std::size_t k = 0;
    detail::for_each_type<Variants>([&]<class V>() {
      Status& st = status_[k++];
      st.name = V::name;
      st.applicable = V::template applicable<S>(model);
      if (!st.applicable) st.why_not = detail::why_not_applicable<V, S>(model);
      if constexpr (detail::HasFallback<V, S>) {
        st.fallback_to = V::template fallback_to<S>(model);
        if (st.applicable && !st.fallback_to.empty()) {
          st.applicable = false;
          std::string reason = dh_reason(scratch_);
          if (reason.empty()) reason = "the model is off its fast path: DH frames with revolute joints only";
          st.why_not = "it would hand the model to " + std::string(st.fallback_to) + " (" + reason + "), so " +
                       std::string(V::name) + " would not be what runs; call " + std::string(st.fallback_to) +
                       " instead";
        }
      }
    });
    std::size_t p = 0;
    detail::for_each_type<typename Family::Preference>([&]<class V>() {
      static_assert(detail::is_in<V, Variants>, "a preferred variant must be one of the family's variants");
      if (fastest_ == kNone && applicable<V>() && Family::template preferred<V, S>(model)) fastest_ = p;
      ++p;
    });
    if (fastest_ == kNone)
      throw NotApplicable("rbdlab::" + std::string(Family::name) + ": no variant of the preference list applies to model '" +
                          model.name + "'");
    if constexpr (std::is_same_v<Family, MassMatrix> || std::is_same_v<Family, Factorization>) {
      // H's branch-induced sparsity pattern (section 6.5), both triangles: (r, c) is in it when
      // one of r, c is the other or an ancestor of it in the expanded tree.
      in_pattern_.assign(static_cast<std::size_t>(model.nv) * static_cast<std::size_t>(model.nv), 0);
      const rbd::TreePattern pat(rbd::expanded_parent(model));
      for (int r = 0; r < pat.size(); ++r)
        for (int t = pat.row_start[r]; t < pat.row_start[r + 1]; ++t)
          in_pattern_[index(r, pat.col[t])] = in_pattern_[index(pat.col[t], r)] = 1;
    }
  }
  FamilyWorkspace(const rbd::Model<S>&&) = delete;  // the workspace keeps a pointer to the model

  const rbd::Model<S>& model() const { return *model_; }
  // The variant the calls without a tag run.
  std::string_view fastest() const { return fastest_name(); }
  // Whether the variant V applies to the model (DH variants: and would not fall back).
  template <class V> bool applicable() const {
    static_assert(detail::is_in<V, Variants>, "V is not a variant of this family");
    return status_[detail::index_in<V, Variants>::value].applicable;
  }
  // The names of the variants that apply, the fastest first (allocates: for messages).
  std::string applicable_variants() const {
    std::string out(fastest_name());
    for (const Status& st : status_)
      if (st.applicable && st.name != fastest_name()) out += ", " + std::string(st.name);
    return out;
  }
  // The variants' own scratch, for calling rbd::<Variant>::run() directly (no checks).
  typename Family::template Scratch<S>& scratch() { return scratch_; }
  const typename Family::template Scratch<S>& scratch() const { return scratch_; }

  // Used by the functions below.
  template <class V> void require_applicable(std::string_view fn) const {
    static_assert(detail::is_in<V, Variants>, "V is not a variant of this function's family");
    const Status& st = status_[detail::index_in<V, Variants>::value];
    if (!st.applicable)
      throw NotApplicable("rbdlab::" + std::string(fn) + "<" + std::string(V::name) + ">: not applicable to model '" +
                          model_->name + "': " + st.why_not + ". Applicable: " + applicable_variants() +
                          " (the fastest: " + std::string(fastest_name()) + ")");
  }
  template <class F> void with_fastest(F&& f) {
    std::size_t p = 0;
    detail::for_each_type<typename Family::Preference>([&]<class V>() {
      if (p++ == fastest_) f.template operator()<V>();
    });
  }
  bool in_pattern(int r, int c) const { return in_pattern_[index(r, c)] != 0; }

 private:
  struct Status {
    std::string_view name;
    bool applicable = false;
    std::string_view fallback_to;
    std::string why_not;
  };
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  template <class Sc> static std::string dh_reason(const Sc& sc) {
    if constexpr (requires { sc.dh.reason; }) return sc.dh.reason;
    else return {};
  }
  std::string_view fastest_name() const {
    std::string_view n;
    std::size_t p = 0;
    detail::for_each_type<typename Family::Preference>([&]<class V>() {
      if (p++ == fastest_) n = V::name;
    });
    return n;
  }
  std::size_t index(int r, int c) const {
    return static_cast<std::size_t>(r) * static_cast<std::size_t>(model_->nv) + static_cast<std::size_t>(c);
  }

  const rbd::Model<S>* model_;
  typename Family::template Scratch<S> scratch_;
  std::array<Status, variant_count> status_{};
  std::size_t fastest_ = kNone;
  std::vector<unsigned char> in_pattern_;  // mass_matrix, factorization: H's branch-induced pattern
};

template <class S> struct InverseDynamicsWorkspace : FamilyWorkspace<InverseDynamics, S> {
  using FamilyWorkspace<InverseDynamics, S>::FamilyWorkspace;
};
template <class S> struct MassMatrixWorkspace : FamilyWorkspace<MassMatrix, S> {
  using FamilyWorkspace<MassMatrix, S>::FamilyWorkspace;
};
template <class S> struct BiasWorkspace : FamilyWorkspace<Bias, S> {
  using FamilyWorkspace<Bias, S>::FamilyWorkspace;
};
template <class S> struct ForwardDynamicsWorkspace : FamilyWorkspace<ForwardDynamics, S> {
  using FamilyWorkspace<ForwardDynamics, S>::FamilyWorkspace;
};
template <class S> struct FactorizationWorkspace : FamilyWorkspace<Factorization, S> {
  using FamilyWorkspace<Factorization, S>::FamilyWorkspace;
};
template <class S> struct HybridDynamicsWorkspace : FamilyWorkspace<HybridDynamics, S> {
  using FamilyWorkspace<HybridDynamics, S>::FamilyWorkspace;
};
template <class S> InverseDynamicsWorkspace(const rbd::Model<S>&) -> InverseDynamicsWorkspace<S>;
template <class S> MassMatrixWorkspace(const rbd::Model<S>&) -> MassMatrixWorkspace<S>;
template <class S> BiasWorkspace(const rbd::Model<S>&) -> BiasWorkspace<S>;
template <class S> ForwardDynamicsWorkspace(const rbd::Model<S>&) -> ForwardDynamicsWorkspace<S>;
template <class S> FactorizationWorkspace(const rbd::Model<S>&) -> FactorizationWorkspace<S>;
template <class S> HybridDynamicsWorkspace(const rbd::Model<S>&) -> HybridDynamicsWorkspace<S>;

// ---- checks (no allocation unless they fail) ----------------------------------------------

namespace detail {

// The name of the call for messages: "inverse_dynamics (rnea_dh)".
struct Where {
  std::string_view fn, variant;
  std::string str() const { return "rbdlab::" + std::string(fn) + " (" + std::string(variant) + ")"; }
};

[[noreturn]] inline void fail(const Where& w, const std::string& what) { throw InvalidArgument(w.str() + ": " + what); }

template <class S> std::string show(const S& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

template <class S, class M> void check_size(const Where& w, const char* arg, const M& x, Eigen::Index rows,
                                            Eigen::Index cols, const char* expected) {
  if (x.rows() != rows || x.cols() != cols) {
    std::ostringstream os;
    os << arg << " is " << x.rows() << " x " << x.cols() << "; the model needs " << rows << " x " << cols << " ("
       << expected << ")";
    fail(w, os.str());
  }
}

template <class S> void check_vector(const Where& w, const char* arg, const VecX<S>& x, Eigen::Index n,
                                     const char* expected) {
  if (x.size() != n) {
    std::ostringstream os;
    os << arg << " has " << x.size() << " entries; the model needs " << n << " (" << expected << ")";
    fail(w, os.str());
  }
  for (Eigen::Index k = 0; k < n; ++k)
    if (!finite(x[k])) fail(w, std::string(arg) + "[" + std::to_string(k) + "] is " + show(x[k]) +
                                   " (every entry must be finite)");
}

// q: size nq, finite, and every spherical or free joint's quaternion of unit norm (1e-10).
template <class S> void check_q(const Where& w, const rbd::Model<S>& m, const VecX<S>& q) {
  check_vector<S>(w, "q", q, m.nq, "model.nq");
  for (int i = 0; i < m.nb; ++i) {
    const rbd::JointType t = m.joint[i].type;
    if (t != rbd::JointType::Spherical && t != rbd::JointType::Free) continue;
    const int k = m.q_idx[i];
    const S n2 = q[k] * q[k] + q[k + 1] * q[k + 1] + q[k + 2] * q[k + 2] + q[k + 3] * q[k + 3];
    using std::abs;
    using std::sqrt;
    const S norm = sqrt(n2);
    if (!(abs(norm - S(1)) <= S(1e-10))) {
      std::ostringstream os;
      os << "q[" << k << ".." << k + 3 << "], the quaternion of body " << i << " '" << m.body_name[i] << "' ("
         << rbd::joint_type_name(t) << " joint), has norm " << norm
         << "; it must be a unit quaternion (within 1e-10): normalise it";
      fail(w, os.str());
    }
  }
}

template <class S> void check_f_ext(const Where& w, const rbd::Model<S>& m, const ExternalForces<S>* f_ext) {
  if (!f_ext) return;
  if (static_cast<int>(f_ext->size()) != m.nb) {
    std::ostringstream os;
    os << "f_ext has " << f_ext->size() << " forces; the model needs one per body, " << m.nb;
    fail(w, os.str());
  }
  for (int i = 0; i < m.nb; ++i)
    for (int c = 0; c < 6; ++c)
      if (!finite((*f_ext)[i][c]))
        fail(w, "f_ext[" + std::to_string(i) + "][" + std::to_string(c) + "] (body '" + m.body_name[i] + "') is " +
                    show((*f_ext)[i][c]) + " (every entry must be finite)");
}

// The output: resized when its size is wrong (the only allocation), and not one of the inputs.
template <class M, class... In> void prepare_output(const Where& w, const char* arg, M& out, Eigen::Index rows,
                                                   Eigen::Index cols, const In&... inputs) {
  if (out.rows() != rows || out.cols() != cols) out.resize(rows, cols);
  const void* p = out.data();
  const bool aliased = ((static_cast<const void*>(inputs.data()) == p) || ...);
  if (aliased) fail(w, std::string(arg) + " is also an input of the call; pass a separate output");
}

template <class M> [[noreturn]] void non_finite_result(const Where& w, const char* arg, const M& out, Eigen::Index r,
                                                    Eigen::Index c) {
  const std::string at =
      out.cols() == 1 ? "[" + std::to_string(r) + "]" : "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
  throw NumericalError(w.str() + ": the result " + arg + at + " is " + show(out(r, c)) +
                       " (finite inputs gave a non-finite result: H singular in this precision, or an overflow)");
}

template <class M> void check_output(const Where& w, const char* arg, const M& out) {
  for (Eigen::Index c = 0; c < out.cols(); ++c)
    for (Eigen::Index r = 0; r < out.rows(); ++r)
      if (!finite(out(r, c))) non_finite_result(w, arg, out, r, c);
}

// Runs f.template operator()<V2>() with V2 = the requested variant (checked to apply) or the
// workspace's fastest one; returns nothing. Where is filled with the variant's name.
template <class V, class WS, class F> void dispatch(WS& ws, std::string_view fn, F&& f) {
  if constexpr (std::is_same_v<V, Fastest>) {
    ws.with_fastest([&]<class V2>() { f.template operator()<V2>(Where{fn, V2::name}); });
  } else {
    ws.template require_applicable<V>(fn);
    f.template operator()<V>(Where{fn, V::name});
  }
}

}  // namespace detail

// ---- the functions -----------------------------------------------------------------------

// tau = ID(q, qd, qdd, f_ext).
template <class V = Fastest, class S>
void inverse_dynamics(FamilyWorkspace<InverseDynamics, S>& ws, const VecIn<S>& q, const VecIn<S>& qd,
                      const VecIn<S>& qdd, VecX<S>& tau, const ForcesIn<S>* f_ext = nullptr) {
  const rbd::Model<S>& m = ws.model();
  detail::dispatch<V>(ws, "inverse_dynamics", [&]<class V2>(const detail::Where& w) {
    detail::check_q(w, m, q);
    detail::check_vector<S>(w, "qd", qd, m.nv, "model.nv");
    detail::check_vector<S>(w, "qdd", qdd, m.nv, "model.nv");
    detail::check_f_ext(w, m, f_ext);
    detail::prepare_output(w, "tau", tau, m.nv, 1, q, qd, qdd);
    run_inlined<S>([&] { V2::template run<S>(m, q, qd, qdd, f_ext, tau, ws.scratch()); });
    detail::check_output(w, "tau", tau);
  });
}
template <class V = Fastest, class S>
VecX<S> inverse_dynamics(FamilyWorkspace<InverseDynamics, S>& ws, const VecIn<S>& q, const VecIn<S>& qd,
                         const VecIn<S>& qdd, const ForcesIn<S>* f_ext = nullptr) {
  VecX<S> tau(ws.model().nv);
  inverse_dynamics<V>(ws, q, qd, qdd, tau, f_ext);
  return tau;
}

// H = H(q), the joint-space inertia, dense and symmetric.
template <class V = Fastest, class S>
void mass_matrix(FamilyWorkspace<MassMatrix, S>& ws, const VecIn<S>& q, MatX<S>& H) {
  const rbd::Model<S>& m = ws.model();
  detail::dispatch<V>(ws, "mass_matrix", [&]<class V2>(const detail::Where& w) {
    detail::check_q(w, m, q);
    detail::prepare_output(w, "H", H, m.nv, m.nv, q);
    run_inlined<S>([&] { V2::template run<S>(m, q, H, ws.scratch()); });
    // The variants write H's pattern only (its branch-induced zeros are the caller's, as for
    // rbd::<Variant>::run()): zero the rest, and check what was written, in one pass.
    for (int c = 0; c < m.nv; ++c)
      for (int r = 0; r < m.nv; ++r) {
        if (!ws.in_pattern(r, c)) H(r, c) = S(0);
        else if (!detail::finite(H(r, c))) detail::non_finite_result(w, "H", H, r, c);
      }
  });
}
template <class V = Fastest, class S> MatX<S> mass_matrix(FamilyWorkspace<MassMatrix, S>& ws, const VecIn<S>& q) {
  MatX<S> H = MatX<S>::Zero(ws.model().nv, ws.model().nv);
  mass_matrix<V>(ws, q, H);
  return H;
}

// C = C(q, qd, f_ext) = ID(q, qd, 0, f_ext): velocity products, gravity and external forces.
template <class V = Fastest, class S>
void bias(FamilyWorkspace<Bias, S>& ws, const VecIn<S>& q, const VecIn<S>& qd, VecX<S>& C,
          const ForcesIn<S>* f_ext = nullptr) {
  const rbd::Model<S>& m = ws.model();
  detail::dispatch<V>(ws, "bias", [&]<class V2>(const detail::Where& w) {
    detail::check_q(w, m, q);
    detail::check_vector<S>(w, "qd", qd, m.nv, "model.nv");
    detail::check_f_ext(w, m, f_ext);
    detail::prepare_output(w, "C", C, m.nv, 1, q, qd);
    run_inlined<S>([&] { V2::template run<S>(m, q, qd, f_ext, C, ws.scratch()); });
    detail::check_output(w, "C", C);
  });
}
template <class V = Fastest, class S>
VecX<S> bias(FamilyWorkspace<Bias, S>& ws, const VecIn<S>& q, const VecIn<S>& qd,
             const ForcesIn<S>* f_ext = nullptr) {
  VecX<S> C(ws.model().nv);
  bias<V>(ws, q, qd, C, f_ext);
  return C;
}

// qdd = FD(q, qd, tau, f_ext), the solution of H qdd + C = tau.
template <class V = Fastest, class S>
void forward_dynamics(FamilyWorkspace<ForwardDynamics, S>& ws, const VecIn<S>& q, const VecIn<S>& qd,
                      const VecIn<S>& tau, VecX<S>& qdd, const ForcesIn<S>* f_ext = nullptr) {
  const rbd::Model<S>& m = ws.model();
  detail::dispatch<V>(ws, "forward_dynamics", [&]<class V2>(const detail::Where& w) {
    detail::check_q(w, m, q);
    detail::check_vector<S>(w, "qd", qd, m.nv, "model.nv");
    detail::check_vector<S>(w, "tau", tau, m.nv, "model.nv");
    detail::check_f_ext(w, m, f_ext);
    detail::prepare_output(w, "qdd", qdd, m.nv, 1, q, qd, tau);
    run_inlined<S>([&] { V2::template run<S>(m, q, qd, tau, f_ext, qdd, ws.scratch()); });
    detail::check_output(w, "qdd", qdd);
  });
}
template <class V = Fastest, class S>
VecX<S> forward_dynamics(FamilyWorkspace<ForwardDynamics, S>& ws, const VecIn<S>& q, const VecIn<S>& qd,
                         const VecIn<S>& tau, const ForcesIn<S>* f_ext = nullptr) {
  VecX<S> qdd(ws.model().nv);
  forward_dynamics<V>(ws, q, qd, tau, qdd, f_ext);
  return qdd;
}

// x = H^-1 b, H symmetric positive definite with the model's sparsity (as mass_matrix returns
// it). Only the lower triangle of H is read. The sparse variants (ltl_sparse, ltdl_sparse, the
// fastest) read only H's branch-induced pattern, so a nonzero outside it is refused (it would be
// ignored); llt_dense and ldlt_dense take any symmetric positive-definite nv x nv matrix. b and x
// may be the same vector.
template <class V = Fastest, class S>
void factorization(FamilyWorkspace<Factorization, S>& ws, const MatIn<S>& H, const VecIn<S>& b, VecX<S>& x) {
  const rbd::Model<S>& m = ws.model();
  detail::dispatch<V>(ws, "factorization", [&]<class V2>(const detail::Where& w) {
    detail::check_size<S>(w, "H", H, m.nv, m.nv, "model.nv x model.nv");
    constexpr bool sparse = std::is_same_v<V2, rbd::LtdlSparse> || std::is_same_v<V2, rbd::LtlSparse>;
    for (int c = 0; c < m.nv; ++c)
      for (int r = c; r < m.nv; ++r) {
        if (!detail::finite(H(r, c)))
          detail::fail(w, "H(" + std::to_string(r) + ", " + std::to_string(c) + ") is " + detail::show(H(r, c)) +
                              " (every entry of the lower triangle must be finite)");
        if (sparse && H(r, c) != S(0) && !ws.in_pattern(r, c))
          detail::fail(w, "H(" + std::to_string(r) + ", " + std::to_string(c) + ") = " + detail::show(H(r, c)) +
                              " lies outside the branch-induced sparsity pattern of model '" + m.name + "' (" +
                              std::string(V2::name) +
                              " would ignore it): pass H(q) of this model, or use llt_dense or ldlt_dense for a "
                              "general symmetric positive-definite matrix");
      }
    detail::check_vector<S>(w, "b", b, m.nv, "model.nv");
    if (x.size() != m.nv) x.resize(m.nv);
    if (static_cast<const void*>(x.data()) == static_cast<const void*>(H.data()))
      detail::fail(w, "x is also the input H; pass a separate output");
    rbd::FactorizationWorkspace<S>& fw = ws.scratch();
    run_inlined<S>([&] { V2::template run<S>(m, H, b, x, fw); });
    bool positive = true;
    if constexpr (sparse) {
      for (int k = 0; k < m.nv; ++k) positive = positive && fw.rows[fw.pattern.row_start[k]] > S(0);
    } else if constexpr (std::is_same_v<V2, rbd::LltDense>) {
      positive = fw.llt.info() == Eigen::Success;
    } else if constexpr (std::is_same_v<V2, rbd::LdltDense>) {
      positive = fw.ldlt.info() == Eigen::Success && (fw.ldlt.vectorD().array() > S(0)).all();
    }
    if (!positive)
      throw NumericalError(w.str() + ": H is not positive definite (a pivot of its factorization is not positive)");
    detail::check_output(w, "x", x);
  });
}
template <class V = Fastest, class S>
VecX<S> factorization(FamilyWorkspace<Factorization, S>& ws, const MatIn<S>& H, const VecIn<S>& b) {
  VecX<S> x(ws.model().nv);
  factorization<V>(ws, H, b, x);
  return x;
}

// Hybrid dynamics (Featherstone section 9.1): forward[i] != 0 makes joint i a forward-dynamics
// joint (its entries of tau given, of qdd computed), forward[i] == 0 an inverse-dynamics joint
// (qdd given, tau computed). qdd and tau carry the given entries in and are completed in place;
// the entries to be computed are neither read nor checked on entry (they may hold anything, NaN
// included), and are checked finite on return. Every forward joint gives forward_dynamics, none
// gives inverse_dynamics. forward has one entry per joint (model.nb), in body order.
template <class V = Fastest, class S>
void hybrid_dynamics(FamilyWorkspace<HybridDynamics, S>& ws, const VecIn<S>& q, const VecIn<S>& qd,
                     const rbd::ForwardJoints& forward, VecX<S>& qdd, VecX<S>& tau, const ForcesIn<S>* f_ext = nullptr) {
  const rbd::Model<S>& m = ws.model();
  detail::dispatch<V>(ws, "hybrid_dynamics", [&]<class V2>(const detail::Where& w) {
    detail::check_q(w, m, q);
    detail::check_vector<S>(w, "qd", qd, m.nv, "model.nv");
    if (static_cast<int>(forward.size()) != m.nb)
      detail::fail(w, "forward has " + std::to_string(forward.size()) + " entries; the model needs one per joint, " +
                          std::to_string(m.nb) + " (model.nb)");
    for (const char* arg : {"qdd", "tau"}) {
      const VecX<S>& v = arg[0] == 'q' ? qdd : tau;
      if (v.size() != m.nv)
        detail::fail(w, std::string(arg) + " has " + std::to_string(v.size()) + " entries; the model needs " +
                            std::to_string(m.nv) + " (model.nv): it carries the given values in");
    }
    const void* out[] = {qdd.data(), tau.data()};
    if (out[0] == out[1]) detail::fail(w, "qdd and tau are the same vector; pass two");
    for (const void* p : out)
      if (p == static_cast<const void*>(q.data()) || p == static_cast<const void*>(qd.data()))
        detail::fail(w, std::string(p == out[0] ? "qdd" : "tau") + " is also the input q or qd; pass a separate vector");
    // The given entries: qdd at the inverse joints, tau at the forward ones.
    const auto each_entry = [&](bool given, auto&& f) {
      for (int i = 0; i < m.nb; ++i)
        for (int k = 0; k < m.joint[i].nv(); ++k) {
          const int v = m.v_idx[i] + k;
          const bool fwd = forward[static_cast<std::size_t>(i)] != 0;
          if (fwd == given) f(tau, "tau", v, i);  // forward joint: tau given, qdd computed
          else f(qdd, "qdd", v, i);
        }
    };
    each_entry(true, [&](const VecX<S>& x, const char* arg, int v, int i) {
      if (!detail::finite(x[v]))
        detail::fail(w, std::string(arg) + "[" + std::to_string(v) + "] (given: joint " + std::to_string(i) + " '" +
                            m.body_name[i] + "' is " + (forward[i] ? "forward" : "inverse") + ") is " +
                            detail::show(x[v]) + " (every given entry must be finite)");
    });
    detail::check_f_ext(w, m, f_ext);
    try {
      run_inlined<S>([&] { V2::template run<S>(m, q, qd, forward, qdd, tau, f_ext, ws.scratch()); });
    } catch (const std::runtime_error& e) {  // hybrid_crba_dense: H_11 not positive definite
      throw NumericalError(w.str() + ": " + e.what());
    }
    if constexpr (std::is_same_v<V2, rbd::HybridCrbaSparse>) {
      const rbd::HybridDynamicsWorkspace<S>& h = ws.scratch();
      for (int k = 0; k < h.pattern11.size(); ++k)
        if (!(h.rows11[h.pattern11.row_start[k]] > S(0)))
          throw NumericalError(w.str() + ": H_11 is not positive definite (pivot " + std::to_string(k) +
                               " of its L^T D L factorization is " + detail::show(h.rows11[h.pattern11.row_start[k]]) + ")");
    }
    each_entry(false, [&](const VecX<S>& x, const char* arg, int v, int) {
      if (!detail::finite(x[v])) detail::non_finite_result(w, arg, x, v, 0);
    });
  });
}

}  // namespace rbdlab
