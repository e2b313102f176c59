#pragma once
// One uniform view of every family for the gates and the sweep: the variants to run, how to
// evaluate one of them on a state, and what the independent oracle says. A family's variants
// are held to the recursion budget unless it says otherwise (budget_rule<V>, budgets.hpp).
// A new family adds one struct here and joins `AllFamilies`; a new variant only joins its
// family's list.
#include <string_view>
#include <tuple>
#include <type_traits>

#include "bias/variants.hpp"
#include "cases/loops.hpp"
#include "cases/contacts.hpp"
#include "cases/loop_contacts.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "contact_dynamics/variants.hpp"
#include "extended_joints/variants.hpp"
#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "friction_dynamics/variants.hpp"
#include "geared_dynamics/variants.hpp"
#include "hybrid_dynamics/variants.hpp"
#include "impact_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "loop_contact_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "verify/support/budgets.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify {

struct InverseDynamicsFamily {
  static constexpr std::string_view name = "inverse_dynamics";
  using Variants = InverseDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    VecX<S> tau(m.nv);
    V::template run<S>(m, x.q, x.qd, x.qdd, &x.f_ext, tau, ws);
    return tau;
  }
};

struct MassMatrixFamily {
  static constexpr std::string_view name = "mass_matrix";
  using Variants = MassMatrixVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
    V::template run<S>(m, x.q, H, ws);
    return H;
  }
};

struct BiasFamily {
  static constexpr std::string_view name = "bias";
  using Variants = BiasVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    VecX<S> C(m.nv);
    V::template run<S>(m, x.q, x.qd, &x.f_ext, C, ws);
    return C;
  }
};

// Factor H(q) (from the CRBA, in the same scalar) and solve H x = tau. The measured error in
// double is that of the whole pipeline (H's own round-off included), amplified by cond(H).
struct FactorizationFamily {
  static constexpr std::string_view name = "factorization";
  using Variants = FactorizationVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
    Crba::run<S>(m, x.q, H, ws);
    FactorizationWorkspace<S> fws(m);  // the harness may allocate; run() does not
    VecX<S> sol(m.nv);
    V::template run<S>(m, H, x.tau, sol, fws);
    return sol;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::solve_with_H;
};

// qdd = FD(q, qd, tau, f_ext). The variants need a ForwardDynamicsWorkspace (a Workspace plus
// the family's own storage), made here per call.
struct ForwardDynamicsFamily {
  static constexpr std::string_view name = "forward_dynamics";
  using Variants = ForwardDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    ForwardDynamicsWorkspace<S> fws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, fws);
    return qdd;
  }
  // Which a-priori bound fits how each variant computes (verify/support/budgets.hpp): the
  // articulated-body variants solve only with the joints' D_i, the CRBA routes with H.
  template <class V> static consteval BudgetRule rule_for() {
    // crba_floating_schur factors the same matrix (Eq. 9.13's) in another order, base first:
    // Cholesky-type elimination of an SPD matrix is backward stable in any symmetric order
    // (Higham Thm. 10.4), and the Schur complement it solves with has cond2(H^fl) <= cond2(H)
    // ((H^fl)^-1 is a principal block of H^-1, and H^fl <= H's joint block).
    if constexpr (std::is_same_v<V, CrbaLtdl> || std::is_same_v<V, CrbaLltDense> || std::is_same_v<V, CrbaFloatingSchur>) {
      return BudgetRule::solve_with_H;
    } else if constexpr (std::is_same_v<V, AbaInverseInertia> || std::is_same_v<V, Dca>) {
      return BudgetRule::inverse_inertias;  // solves with 6x6 inertias, not the D_i (dca: section 7.5's Phi)
    } else {
      static_assert(std::is_same_v<V, Aba> || std::is_same_v<V, AbaDh> || std::is_same_v<V, AbaImplicit> ||
                        std::is_same_v<V, AbaFloating>,
                    "a new forward-dynamics variant: say here which budget rule of budgets.hpp fits it");
      return BudgetRule::articulated_solves;
    }
  }
  template <class V> static constexpr BudgetRule budget_rule = rule_for<V>();
};

// Hybrid dynamics (section 9.1) with the state's split (cases/states.hpp: each joint forward or
// inverse at random). The value is the vector of unknowns, y_v = qdd_v at a forward joint's
// variables and tau_v at an inverse joint's: what Eq. 9.2 solves for.
struct HybridDynamicsFamily {
  static constexpr std::string_view name = "hybrid_dynamics";
  using Variants = HybridDynamicsVariants;
  template <class S>
  static VecX<S> unknowns(const Model<S>& m, const std::vector<char>& fd, const VecX<S>& qdd, const VecX<S>& tau) {
    VecX<S> y(m.nv);
    for (int i = 0; i < m.nb; ++i)
      for (int k = 0; k < m.joint[i].nv(); ++k) y[m.v_idx[i] + k] = fd[i] ? qdd[m.v_idx[i] + k] : tau[m.v_idx[i] + k];
    return y;
  }
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    HybridDynamicsWorkspace<S> hws(m);
    VecX<S> qdd = x.qdd, tau = x.tau;
    V::template run<S>(m, x.q, x.qd, x.forward, qdd, tau, &x.f_ext, hws);
    return unknowns<S>(m, x.forward, qdd, tau);
  }
  // The CRBA routes solve with H_11, a principal submatrix of H: its eigenvalues interlace H's
  // (Cauchy), so cond2(H_11) <= cond2(H) and solve_with_H's bound holds for them. hybrid_aba
  // solves only with the forward joints' D_i, as aba.
  template <class V> static consteval BudgetRule rule_for() {
    if constexpr (std::is_same_v<V, HybridAba>) {
      return BudgetRule::articulated_solves;
    } else {
      static_assert(std::is_same_v<V, HybridCrbaSparse> || std::is_same_v<V, HybridCrbaDense>,
                    "a new hybrid-dynamics variant: say here which budget rule of budgets.hpp fits it");
      return BudgetRule::solve_with_H;
    }
  }
  template <class V> static constexpr BudgetRule budget_rule = rule_for<V>();
};

// Geared dynamics (section 9.6) with the state's gear pairs (cases/states.hpp): the state's
// undriven coordinates and rates are y and yd (its driven entries are not read: q = gamma(y)),
// tau is the tree's joint forces, and the value is ydd of Eq. 9.26.
struct GearedDynamicsFamily {
  static constexpr std::string_view name = "geared_dynamics";
  using Variants = GearedDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    GearedWorkspace<S> gws(m);
    gws.prepare(m, x.gears);
    VecX<S> ydd(gws.map.ny);
    V::template run<S>(m, x.gears, gws.map.independent_positions(x.q), gws.map.independent_velocities(x.qd), x.tau,
                       &x.f_ext, ydd, gws);
    return ydd;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::solve_with_geared_H;
};

// Closed-loop dynamics (chapter 8) with the state's random loop joints (cases/loops.hpp): their
// frames are solved so that q closes them in S's precision, and qd is projected onto K's null
// space in S, so every scalar evaluates a state that is consistent to its own precision (the
// oracle checks that with its own loop-closure functions). The value is the tree's qdd.
struct ClosedLoopDynamicsFamily {
  static constexpr std::string_view name = "closed_loop_dynamics";
  using Variants = ClosedLoopVariants;
  template <class S> struct Closed {
    LoopJoints<S> loops;
    VecX<S> qd;
  };
  template <class S> static Closed<S> closed_state(const Model<S>& m, const StateOf<S>& x) {
    Closed<S> c{cases::close_loops<S>(m, x.q, x.loop_specs), {}};
    c.qd = cases::consistent_velocity<S>(m, c.loops, x.q, x.qd);
    return c;
  }
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const Closed<S> c = closed_state<S>(m, x);
    ClosedLoopWorkspace<S> ws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, c.loops, x.q, c.qd, x.tau, &x.f_ext, qdd, ws);
    return qdd;
  }
  // Section 8.13's method solves with its own matrix A, not with H and K (budgets.hpp).
  template <class V>
  static constexpr BudgetRule budget_rule =
      std::is_same_v<V, LoopSparseMatrix> ? BudgetRule::solve_with_sparse_loops : BudgetRule::solve_with_loops;
};

// Contact dynamics (chapter 11, sections 11.1-11.5) with the state's random point contacts
// (cases/contacts.hpp): each plane is put through its point at q in S's precision and qd is
// projected onto null(T^T) in S, so every contact is touching (phi = 0) and not separating
// (zeta = 0) to the scalar's own precision; the oracle checks both with its own phi(q). The
// value is qdd of Eq. 11.41, unique whenever the LCP has a solution (section 11.5).
struct ContactDynamicsFamily {
  static constexpr std::string_view name = "contact_dynamics";
  using Variants = ContactVariants;
  template <class S> struct Touching {
    PointContacts<S> contacts;
    VecX<S> qd;
  };
  template <class S> static Touching<S> touching_state(const Model<S>& m, const StateOf<S>& x) {
    Touching<S> t{cases::place_contacts<S>(m, x.q, x.contact_specs), {}};
    t.qd = cases::consistent_contact_velocity<S>(m, t.contacts, x.q, x.qd);
    return t;
  }
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const Touching<S> t = touching_state<S>(m, x);
    ContactWorkspace<S> ws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, t.contacts, x.q, t.qd, x.tau, &x.f_ext, qdd, ws);
    return qdd;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::solve_with_contacts;
};

// Impacts (chapter 11, section 11.7) at the same touching contacts, with each contact's drawn
// restitution: qd^- is the state's qd changed along the normals so that contact 0 approaches
// (cases::approaching_velocity, in S). The value is qd^+, unique whenever the impact LCP has a
// solution.
struct ImpactDynamicsFamily {
  static constexpr std::string_view name = "impact_dynamics";
  using Variants = ImpactVariants;
  template <class S> struct Impact {
    PointContacts<S> contacts;
    VecX<S> qd_minus;
  };
  template <class S> static Impact<S> impact_state(const Model<S>& m, const StateOf<S>& x) {
    Impact<S> t{cases::place_contacts<S>(m, x.q, x.contact_specs), {}};
    t.qd_minus = cases::approaching_velocity<S>(m, t.contacts, x.q, x.qd);
    return t;
  }
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const Impact<S> t = impact_state<S>(m, x);
    ImpactWorkspace<S> ws(m);
    VecX<S> qd_plus(m.nv);
    V::template run<S>(m, t.contacts, x.q, t.qd_minus, qd_plus, ws);
    return qd_plus;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::impact_with_contacts;
};

// Contact dynamics with Coulomb friction (friction_dynamics/README.md) at the same touching
// contacts, each with its drawn mu, pyramid and t1: qd is projected in S so that every contact's
// separation velocity and every sticking contact's slip vanish (cases::frictional_velocity);
// sliding contacts keep their slip. The value is qdd, unique on the drawn states (the oracle
// enumerates every solution and refuses a state with two).
struct FrictionDynamicsFamily {
  static constexpr std::string_view name = "friction_dynamics";
  using Variants = FrictionVariants;
  template <class S> struct Frictional {
    PointContacts<S> contacts;
    VecX<S> qd;
  };
  template <class S> static Frictional<S> frictional_state(const Model<S>& m, const StateOf<S>& x) {
    Frictional<S> t{cases::place_contacts<S>(m, x.q, x.contact_specs), {}};
    t.qd = cases::frictional_velocity<S>(m, t.contacts, x.q, x.qd, x.contact_specs);
    return t;
  }
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const Frictional<S> t = frictional_state<S>(m, x);
    FrictionWorkspace<S> ws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, t.contacts, x.q, t.qd, x.tau, &x.f_ext, qdd, ws);
    return qdd;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::friction_with_contacts;
};

// Loops and contacts together (loop_contact_dynamics/README.md): the state's random loop joints
// closed at q as the closed-loop family closes them, the state's random contacts that the loops
// leave independent (cases::contacts_free_of_loops, decided in double so that every scalar sees
// the same ones) placed at q as the contact family places them, and qd projected onto the null
// space of both in S (cases::consistent_loop_contact_velocity). The value is the tree's qdd,
// unique: the kept contacts make the LCP's M positive definite.
struct LoopContactDynamicsFamily {
  static constexpr std::string_view name = "loop_contact_dynamics";
  using Variants = LoopContactVariants;
  template <class S> struct Held {
    LoopJoints<S> loops;
    PointContacts<S> contacts;
    VecX<S> qd;
  };
  template <class S> static std::vector<cases::ContactSpec> kept_contacts(const Model<S>& m, const StateOf<S>& x) {
    const VecX<double> q = x.q.unaryExpr([](const S& v) { return scalar_cast<double>(v); });
    if constexpr (std::is_same_v<S, double>) return cases::contacts_free_of_loops(m, x.loop_specs, q, x.contact_specs);
    else return cases::contacts_free_of_loops(m.template cast<double>(), x.loop_specs, q, x.contact_specs);
  }
  template <class S> static Held<S> held_state(const Model<S>& m, const StateOf<S>& x) {
    Held<S> h{cases::close_loops<S>(m, x.q, x.loop_specs), cases::place_contacts<S>(m, x.q, kept_contacts<S>(m, x)), {}};
    h.qd = cases::consistent_loop_contact_velocity<S>(m, h.loops, h.contacts, x.q, x.qd);
    return h;
  }
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const Held<S> h = held_state<S>(m, x);
    LoopContactWorkspace<S> ws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, h.loops, h.contacts, x.q, h.qd, x.tau, &x.f_ext, qdd, ws);
    return qdd;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::solve_with_loop_contacts;
};

// Joints beyond Table 4.1 (algorithms/extended_joints/): the case's tree with the state's joint
// extensions (rack-and-pinion, reversed and driven joints; cases/extended_joints.hpp) at the
// state's time t. A state without extensions (the op counts' neutral state) leaves every joint plain.
template <class S> ExtendedModel<S> extended_model_of(const Model<S>& m, const StateOf<S>& x) {
  ExtendedModel<S> em{m, x.extensions};
  if (em.ext.empty()) em.ext.assign(m.nb, JointExtension<S>{});
  return em;
}

struct ExtendedInverseDynamicsFamily {
  static constexpr std::string_view name = "extended_inverse_dynamics";
  using Variants = ExtendedInverseVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const ExtendedModel<S> em = extended_model_of(m, x);
    ExtendedWorkspace<S> ews(em);
    VecX<S> tau(m.nv);
    V::template run<S>(em, x.t, x.q, x.qd, x.qdd, &x.f_ext, tau, ews);
    return tau;
  }
};

// aba_extended solves only with its D_i (as aba: articulated_solves, with the extended joints'
// D_i); crba_extended solves with the extended model's H (solve_with_H, with that H).
struct ExtendedForwardDynamicsFamily {
  static constexpr std::string_view name = "extended_forward_dynamics";
  using Variants = ExtendedForwardVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    const ExtendedModel<S> em = extended_model_of(m, x);
    ExtendedWorkspace<S> ews(em);
    VecX<S> qdd(m.nv);
    V::template run<S>(em, x.t, x.q, x.qd, x.tau, &x.f_ext, qdd, ews);
    return qdd;
  }
  template <class V> static consteval BudgetRule rule_for() {
    if constexpr (std::is_same_v<V, AbaExtended>) {
      return BudgetRule::extended_articulated_solves;
    } else {
      static_assert(std::is_same_v<V, CrbaExtended>,
                    "a new extended-joint variant: say here which budget rule of budgets.hpp fits it");
      return BudgetRule::solve_with_extended_H;
    }
  }
  template <class V> static constexpr BudgetRule budget_rule = rule_for<V>();
};

using AllFamilies = std::tuple<InverseDynamicsFamily, MassMatrixFamily, BiasFamily, FactorizationFamily,
                               ForwardDynamicsFamily, HybridDynamicsFamily, GearedDynamicsFamily,
                               ClosedLoopDynamicsFamily, ContactDynamicsFamily, ImpactDynamicsFamily,
                               FrictionDynamicsFamily, LoopContactDynamicsFamily, ExtendedInverseDynamicsFamily,
                               ExtendedForwardDynamicsFamily>;

// Calls f.template operator()<T>() for each type T in a tuple.
template <class Tuple, class F> void for_each_type(F&& f) {
  [&]<class... T>(std::tuple<T...>*) { (f.template operator()<T>(), ...); }(static_cast<Tuple*>(nullptr));
}

}  // namespace rbd::verify
