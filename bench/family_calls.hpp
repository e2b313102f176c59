#pragma once
// The exact call the benchmark times, one adapter per family, used for timing (double), for
// the pre-timing exactness check (Reference) and for the operation counts (Counted), so the
// three see the same call. The families, their variant lists and their oracles are those of
// verify/support/families.hpp and verify/support/oracles.hpp (what the gates use).
//
// An adapter Call<Family> says:
//   Ws<S>               the scratch the variants take (made once per benchmark, untimed)
//   Out<S>              the output (preallocated once, untimed)
//   Arg<S>              what one timed call reads, made from a state by prepare() (untimed;
//                       e.g. the factorization family's H is computed here, not timed)
//   run<V, S>(m, arg, out, ws)   the timed call: V::run() through rbdlab::run_inlined<S>, as the
//                       library API calls it (algorithms/rbdlab/api.hpp): flattened for double, so
//                       that the times do not depend on the size of this program's translation unit
//                       or on GCC's --param inline-unit-growth (bench/CMakeLists.txt); the
//                       Reference checks and the operation counts call V::run() as it is
// The timed calls pass no external forces (f_ext = nullptr): MuJoCo's mj_rne has none, and
// Table 10.1's counts assume none. The oracle is then evaluated with f_ext = 0.
#include <algorithm>
#include <type_traits>

#include "rbdlab/api.hpp"
#include "reference/reference_scalar.hpp"  // before oracles.hpp, which uses Reference
#include "verify/support/oracles.hpp"

namespace rbd::bench {

// `rbdlab bench MODEL` on a model with loop joints of its own (an MJCF file's <equality>
// connect/weld, an SDF file's cycle-closing joints): bench_main.cpp keeps them here and draws the
// pool's states on them (cases::closed_random_state, which puts them in each state's loop_specs),
// and the loop families then time those loops instead of the default tip loop below. Set once in
// main, before any state is made; empty for every other run.
inline LoopJoints<double>& model_loops() {
  static LoopJoints<double> loops;
  return loops;
}
inline bool model_has_own_loops() { return !model_loops().empty(); }

// A family is benchmarked once it has an adapter here; until then it is skipped (and named
// in the run's context, key rbdlab_notes). The primary template marks "no adapter".
template <class Family> struct Call {
  static constexpr bool available = false;
};

// The oracle's value for the timed call: the gates' oracle with zero external forces.
template <class Family, class S> MatX<S> oracle_for_timed_call(const Model<S>& m, verify::StateOf<S> x) {
  static_assert(std::is_same_v<S, Reference>, "the oracle runs in Reference");
  for (auto& f : x.f_ext) f.setZero();
  if constexpr (requires { Call<Family>::template timed_state<S>(m, x); }) x = Call<Family>::template timed_state<S>(m, x);
  return verify::oracle_value<Family>(m, x);
}

template <> struct Call<verify::InverseDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = true;
  template <class S> using Ws = Workspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> using Arg = verify::StateOf<S>;
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>&, const verify::StateOf<S>& x) { return x; }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& x, Out<S>& tau, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, x.q, x.qd, x.qdd, nullptr, tau, ws); });
  }
};

template <> struct Call<verify::MassMatrixFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = true;
  template <class S> using Ws = Workspace<S>;
  template <class S> using Out = MatX<S>;
  template <class S> using Arg = verify::StateOf<S>;
  template <class S> static Out<S> make_output(const Model<S>& m) { return MatX<S>::Zero(m.nv, m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>&, const verify::StateOf<S>& x) { return x; }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& x, Out<S>& H, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, x.q, H, ws); });
  }
};

template <> struct Call<verify::BiasFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;
  template <class S> using Ws = Workspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> using Arg = verify::StateOf<S>;
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>&, const verify::StateOf<S>& x) { return x; }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& x, Out<S>& C, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, x.q, x.qd, nullptr, C, ws); });
  }
};

// qdd = FD(q, qd, tau). MuJoCo peer: its smooth forward dynamics (bench/mujoco_peer.hpp).
template <> struct Call<verify::ForwardDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = true;
  template <class S> using Ws = ForwardDynamicsWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> using Arg = verify::StateOf<S>;
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>&, const verify::StateOf<S>& x) { return x; }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& x, Out<S>& qdd, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, x.q, x.qd, x.tau, nullptr, qdd, ws); });
  }
};

// x = H^-1 b: the timed call is the factorization and the solve; H (from the CRBA, in the same
// scalar) and b = the state's tau are made beforehand, untimed, as the gates do
// (verify/support/families.hpp, FactorizationFamily).
template <> struct Call<verify::FactorizationFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = true;
  template <class S> using Ws = FactorizationWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    MatX<S> H;
    VecX<S> b;
  };
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    Arg<S> a{MatX<S>::Zero(m.nv, m.nv), x.tau};
    Workspace<S> ws(m);
    Crba::run<S>(m, x.q, a.H, ws);
    return a;
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& x, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.H, a.b, x, ws); });
  }
};

// y = the unknowns of hybrid dynamics (Featherstone section 9.1): qdd at the forward joints, tau
// at the inverse ones (verify::HybridDynamicsFamily::unknowns, what the oracle returns). The
// timed call copies the state's given qdd and tau into the workspace's buffers, runs the
// variant (which fills in the unknowns in place) and gathers y: the copies and the gather are
// O(n) moves, no arithmetic.
//
// The split: one per case, the same for every state of the pool -- every other joint forward
// (joints 0, 2, 4, ... forward; 1, 3, ... inverse), for which H_11 keeps about half the
// variables. Section 9.1 derives what depends on the split once per run; with one split per
// case that setup (HybridDynamicsWorkspace::prepare: nu(fd), Figure 9.1's parent array,
// allocation of H_11's storage) happens in the warm-up, not in the timed loop, as it would in
// a simulation with a fixed split. The gates (verify/) use each state's own random split.
template <> struct Call<verify::HybridDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo has no hybrid dynamics
  template <class S> struct Ws {
    HybridDynamicsWorkspace<S> hd;
    VecX<S> qdd, tau;
    explicit Ws(const Model<S>& m) : hd(m), qdd(VecX<S>::Zero(m.nv)), tau(VecX<S>::Zero(m.nv)) {}
  };
  template <class S> using Out = VecX<S>;
  template <class S> using Arg = verify::StateOf<S>;
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    x.forward.assign(static_cast<std::size_t>(m.nb), 0);
    for (int i = 0; i < m.nb; i += 2) x.forward[static_cast<std::size_t>(i)] = 1;
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) { return timed_state<S>(m, x); }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& x, Out<S>& y, Ws<S>& ws) {
    ws.qdd = x.qdd;
    ws.tau = x.tau;
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, x.q, x.qd, x.forward, ws.qdd, ws.tau, nullptr, ws.hd); });
    for (int i = 0; i < m.nb; ++i) {
      const int v = m.v_idx[i], nv = m.joint[i].nv();
      y.segment(v, nv) = x.forward[static_cast<std::size_t>(i)] ? ws.qdd.segment(v, nv) : ws.tau.segment(v, nv);
    }
  }
};

// Geared dynamics (Featherstone section 9.6): ydd from y, yd and the tree's tau. The pairs: one
// set per case, the same for every state of the pool -- joint 2k + 1 driven by joint 2k at ratio
// 3 where both are 1-DoF joints (a rotor beside the joint it drives, as opcounts.cpp counts it).
// The map and Eq. 9.27's term list are made in the warm-up (GearedWorkspace::prepare), as in a
// simulation of one geared robot. y and yd are gathered from the state untimed (prepare()).
template <> struct Call<verify::GearedDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo's armature is Example 9.5's approximation
  template <class S> using Ws = GearedWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    GearPairs pairs;
    VecX<S> y, yd, tau;
  };
  template <class S> static GearPairs pairs_for(const Model<S>& m) {
    GearPairs p;
    auto one_dof = [&](int i) { return m.joint[i].nv() == 1 && m.joint[i].nq() == 1; };
    for (int i = 1; i < m.nb; i += 2)
      if (one_dof(i) && one_dof(i - 1)) p.push_back({i, i - 1, 3.0});
    return p;
  }
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    x.gears = pairs_for(m);
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) {
    return VecX<S>::Zero(GearMap<S>::build(m, pairs_for(m)).ny);
  }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    const GearPairs p = pairs_for(m);
    const GearMap<S> g = GearMap<S>::build(m, p);
    return {p, g.independent_positions(x.q), g.independent_velocities(x.qd), x.tau};
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& ydd, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.pairs, a.y, a.yd, a.tau, nullptr, ydd, ws); });
  }
};

// Closed-loop dynamics (Featherstone chapter 8): the tree's qdd with one loop joint, a spherical
// joint from the last body to the base (as opcounts.cpp counts it; a model's own loops instead,
// see model_has_own_loops), its frames solved so that each
// state of the pool closes it and qd projected onto K's null space (cases/loops.hpp), untimed in
// prepare(). The loops' shape is the same for every state, so the workspace's sizes are made once
// in the warm-up (ClosedLoopWorkspace::prepare).
template <> struct Call<verify::ClosedLoopDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo's equality constraints are soft (solref): not this problem
  template <class S> using Ws = ClosedLoopWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    LoopJoints<S> loops;
    VecX<S> q, qd, tau;
  };
  static std::vector<cases::LoopSpec> specs_for(int nb) { return {cases::chain_tip_loop(nb)}; }
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    if (!model_has_own_loops()) x.loop_specs = specs_for(m.nb);
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    const auto c = verify::ClosedLoopDynamicsFamily::closed_state<S>(m, timed_state<S>(m, x));
    return {c.loops, x.q, c.qd, x.tau};
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& qdd, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.loops, a.q, a.qd, a.tau, nullptr, qdd, ws); });
  }
};

// Contact dynamics (Featherstone sections 11.1-11.5): qdd with the two contacts of
// cases::chain_contacts (as opcounts.cpp counts them), each plane put through its point at each
// state of the pool and qd projected onto null(T^T), untimed in prepare(). The contacts' shape is
// the same for every state, so the workspace's sizes are made once in the warm-up.
template <> struct Call<verify::ContactDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo's contacts are soft; its peer comparison is issue 15's next step
  template <class S> using Ws = ContactWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    PointContacts<S> contacts;
    VecX<S> q, qd, tau;
  };
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    x.contact_specs = cases::chain_contacts(m.nb);
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    const auto t = verify::ContactDynamicsFamily::touching_state<S>(m, timed_state<S>(m, x));
    return {t.contacts, x.q, t.qd, x.tau};
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& qdd, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.contacts, a.q, a.qd, a.tau, nullptr, qdd, ws); });
  }
};

// Loops and contacts together: the closed-loop adapter's loop (a spherical joint from the last
// body to the base) and the contact adapter's contacts, of which the family keeps those the loop
// leaves independent (the tip's sits at the loop's centre, where the loop holds it), as
// opcounts.cpp counts them; closed, placed and qd projected onto both in prepare(), untimed.
template <> struct Call<verify::LoopContactDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo's equality constraints and contacts are soft
  template <class S> using Ws = LoopContactWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    LoopJoints<S> loops;
    PointContacts<S> contacts;
    VecX<S> q, qd, tau;
  };
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    if (!model_has_own_loops()) x.loop_specs = Call<verify::ClosedLoopDynamicsFamily>::specs_for(m.nb);
    x.contact_specs = cases::chain_contacts(m.nb);
    // The middle body's first: the family keeps the longest independent prefix.
    std::reverse(x.contact_specs.begin(), x.contact_specs.end());
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    const auto h = verify::LoopContactDynamicsFamily::held_state<S>(m, timed_state<S>(m, x));
    return {h.loops, h.contacts, x.q, h.qd, x.tau};
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& qdd, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.loops, a.contacts, a.q, a.qd, a.tau, nullptr, qdd, ws); });
  }
};

// Impacts (section 11.7): qd^+ with the same two contacts (e = 0.5), the tip's approaching
// (cases::approaching_velocity), made untimed in prepare().
template <> struct Call<verify::ImpactDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo resolves impacts inside its soft-contact step, not as a map
  template <class S> using Ws = ImpactWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    PointContacts<S> contacts;
    VecX<S> q, qd;
  };
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    x.contact_specs = cases::chain_contacts(m.nb);
    for (cases::ContactSpec& c : x.contact_specs) c.restitution = 0.5;
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    const auto t = verify::ImpactDynamicsFamily::impact_state<S>(m, timed_state<S>(m, x));
    return {t.contacts, x.q, t.qd_minus};
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& qd_plus, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.contacts, a.q, a.qd, qd_plus, ws); });
  }
};

// Contacts with Coulomb friction: cases::chain_friction_contacts (as opcounts.cpp counts them),
// with their mu halved where the state makes the problem ill posed, as the verify states' are
// (cases::make_friction_well_posed: at some random states of some trees the fixed mu = 0.5 left
// two solutions, which the start-up check's oracle refuses), made untimed in prepare(). The
// decision is taken in double, on the model and state as double, for every scalar alike.
template <> struct Call<verify::FrictionDynamicsFamily> {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo's friction is soft (elliptic or pyramidal cones in its own solver)
  template <class S> using Ws = FrictionWorkspace<S>;
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    PointContacts<S> contacts;
    VecX<S> q, qd, tau;
  };
  template <class S> static verify::StateOf<S> timed_state(const Model<S>& m, verify::StateOf<S> x) {
    x.contact_specs = cases::chain_friction_contacts(m.nb);
    auto to_double = [](const S& v) { return scalar_cast<double>(v); };
    cases::make_friction_well_posed(m.template cast<double>(), x.q.unaryExpr(to_double), x.qd.unaryExpr(to_double),
                                    x.contact_specs);
    return x;
  }
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    const verify::StateOf<S> y = timed_state<S>(m, x);
    const auto t = verify::FrictionDynamicsFamily::frictional_state<S>(m, y);
    return {t.contacts, x.q, t.qd, x.tau};
  }
  template <class V, class S> static void run(const Model<S>& m, const Arg<S>& a, Out<S>& qdd, Ws<S>& ws) {
    rbdlab::run_inlined<S>([&] { V::template run<S>(m, a.contacts, a.q, a.qd, a.tau, nullptr, qdd, ws); });
  }
};

// Joints beyond Table 4.1 (algorithms/extended_joints/): the state's drawn extensions (racks on
// revolute joints about z, reversed and driven joints; cases/extended_joints.hpp) at its time t.
// The extended model is made per state in prepare (untimed), as a user's model would be once.
template <class Family> struct ExtendedCall {
  static constexpr bool available = true;
  static constexpr bool has_mujoco_peer = false;  // MuJoCo has no rack, reversed or driven joints
  static constexpr bool inverse = std::is_same_v<Family, verify::ExtendedInverseDynamicsFamily>;
  template <class S> struct Ws {
    ExtendedWorkspace<S> ews;
    explicit Ws(const Model<S>& m) : ews(ExtendedModel<S>{m, std::vector<JointExtension<S>>(m.nb)}) {}
  };
  template <class S> using Out = VecX<S>;
  template <class S> struct Arg {
    ExtendedModel<S> em;
    verify::StateOf<S> x;
  };
  template <class S> static Out<S> make_output(const Model<S>& m) { return VecX<S>::Zero(m.nv); }
  template <class S> static Arg<S> prepare(const Model<S>& m, const verify::StateOf<S>& x) {
    return {verify::extended_model_of(m, x), x};
  }
  template <class V, class S> static void run(const Model<S>&, const Arg<S>& a, Out<S>& out, Ws<S>& ws) {
    const VecX<S>& in = inverse ? a.x.qdd : a.x.tau;
    rbdlab::run_inlined<S>([&] { V::template run<S>(a.em, a.x.t, a.x.q, a.x.qd, in, nullptr, out, ws.ews); });
  }
};
template <> struct Call<verify::ExtendedInverseDynamicsFamily> : ExtendedCall<verify::ExtendedInverseDynamicsFamily> {};
template <> struct Call<verify::ExtendedForwardDynamicsFamily> : ExtendedCall<verify::ExtendedForwardDynamicsFamily> {};

}  // namespace rbd::bench
