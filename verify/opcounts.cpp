// Gate 5 (issue 2): operation counts of the inverse-dynamics, mass-matrix, factorization and
// forward-dynamics variants on GU(n), n = 1..30, from the counting scalar, with a polynomial
// fitted per variant and laid beside the published rows of Featherstone Table 10.1. Writes reports/data/opcounts.json.
// Issue 5 adds Figure 10.5 (section 10.3.2): the forward-dynamics variants and the O(nd^2) route's parts on binary
// trees of n = 1..63 bodies (records of case "binary_tree"), beside the book's own tree formulas ("figure_10_5").
//
// Counting convention (section 10.3): "m" = multiplications + divisions, "a" = additions +
// subtractions; sine and cosine (one each per revolute joint) are left out of m and a and
// recorded separately, as the book leaves them out.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cases/actuated_arm.hpp"
#include "cases/four_bar.hpp"
#include "cases/auto_tree.hpp"
#include "cases/gu.hpp"
#include "cases/geared_arm.hpp"
#include "cases/gu_dh.hpp"
#include "cases/planar.hpp"
#include "cases/registry.hpp"
#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/steps.hpp"
#include "core/counting_scalar.hpp"
#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "planar/variants.hpp"
#include "verify/support/families.hpp"
#include "verify/support/json_out.hpp"
#include "verify/support/ladder.hpp"
#include "verify/support/polyfit.hpp"
#include "verify/support/table_a_4.hpp"

namespace rbd::verify {
namespace {

constexpr int kMaxN = 30;

nlohmann::json counts_json(const OpCounts& c) {
  return {{"m", c.m()}, {"a", c.a()}, {"mul", c.mul}, {"div", c.div}, {"add", c.add},
          {"sqrt", c.sqrt}, {"sin", c.sin}, {"cos", c.cos}};
}

// The variants on Denavit-Hartenberg frames (static dh_frames = true) are also counted on
// cases::gu_dh(n), the book's GU(n) (joint variable = DH angle), where their counts are laid
// beside Table 10.1 with nothing in between (cases/gu_dh.hpp, model/dh_frames.hpp).
template <class V> constexpr bool uses_dh_frames() {
  if constexpr (requires { V::dh_frames; }) return V::dh_frames;
  else return false;
}

// The floating-base variants (algorithms/floating_base/) apply only to a tree on a free joint:
// they are counted on cases::gu_floating(n), GU(n) with body 0 on a free joint, instead of GU(n).
template <class V> bool floating_base_only() { return !V::template applicable<double>(cases::gu(2)); }

// One call of variant V of Family on `model`, counted.
template <class Family, class V> OpCounts count_on(const Model<double>& model) {
  const Model<Counted> m = model.template cast<Counted>();
  Workspace<Counted> ws(m);
  // q at the neutral configuration (all zeros for GU(n); the identity quaternion for
  // gu_floating's free joint, so its rotation is a rotation).
  StateOf<Counted> x{neutral_configuration(m), VecX<Counted>::Zero(m.nv),
                     VecX<Counted>::Zero(m.nv), VecX<Counted>::Zero(m.nv), {}, {}, {}, {}, {}, {}, Counted(0)};
  x.f_ext.assign(m.nb, Vec6<Counted>::Zero());
  // GU(n) has no external forces: the book's counts assume none, so pass none.
  OpCounts c;
  if constexpr (std::is_same_v<Family, MassMatrixFamily>) {
    MatX<Counted> H = MatX<Counted>::Zero(m.nv, m.nv);
    c = count_ops([&] { V::template run<Counted>(m, x.q, H, ws); });
  } else if constexpr (std::is_same_v<Family, FactorizationFamily>) {
    // Factor + solve only: H comes from the CRBA outside the count (the F&S row of
    // Table 10.1 is "factorize and solve", without computing H, C or tau - C).
    MatX<Counted> H = MatX<Counted>::Zero(m.nv, m.nv);
    Crba::run<Counted>(m, x.q, H, ws);
    FactorizationWorkspace<Counted> fws(m);
    VecX<Counted> sol(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, H, x.tau, sol, fws); });
  } else if constexpr (std::is_same_v<Family, ForwardDynamicsFamily>) {
    ForwardDynamicsWorkspace<Counted> fws(m);
    VecX<Counted> qdd(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, x.q, x.qd, x.tau, nullptr, qdd, fws); });
  } else if constexpr (std::is_same_v<Family, HybridDynamicsFamily>) {
    // The split: joint 1 prescribed (inverse), every other joint forward -- section 9.1's
    // "compound pendulum under a given kinematic excitation". One fixed split keeps the counts
    // a polynomial in n (a split that alternates would make them depend on n's parity).
    HybridDynamicsWorkspace<Counted> hws(m);
    ForwardJoints fd(m.nb, 1);
    fd[0] = 0;
    hws.prepare(m, fd);  // derived from the split once, outside the count, as a run would
    VecX<Counted> qdd = x.qdd, tau = x.tau;
    c = count_ops([&] { V::template run<Counted>(m, x.q, x.qd, fd, qdd, tau, nullptr, hws); });
  } else if constexpr (std::is_same_v<Family, GearedDynamicsFamily>) {
    // The pairs: joint 2k + 1 driven by joint 2k with ratio 3 (a motor's rotor beside the joint it
    // drives; on a chain the driver is the driven joint's parent). The map and Eq. 9.27's plan
    // are derived once, outside the count, as a run would.
    GearPairs pairs;
    for (int i = 1; i < m.nb; i += 2) pairs.push_back({i, i - 1, 3.0});
    GearedWorkspace<Counted> gws(m);
    gws.prepare(m, pairs);
    const VecX<Counted> y = gws.map.independent_positions(x.q), yd = gws.map.independent_velocities(x.qd);
    VecX<Counted> ydd(gws.map.ny);
    c = count_ops([&] { V::template run<Counted>(m, pairs, y, yd, x.tau, nullptr, ydd, gws); });
  } else if constexpr (std::is_same_v<Family, ClosedLoopDynamicsFamily>) {
    // One loop: a spherical joint from the chain's tip to the base, its frames solved so that the
    // state closes it (cases/loops.hpp), and qd made consistent -- both outside the count, as a
    // simulation's set-up would be. On GU(n) with n < 4 the loop locks the chain (rank K = n):
    // the count is then the locked solve's.
    const cases::LoopSpec spec = cases::chain_tip_loop(m.nb);
    const LoopJoints<Counted> loops = cases::close_loops<Counted>(m, x.q, {spec});
    const VecX<Counted> qd = cases::consistent_velocity<Counted>(m, loops, x.q, x.qd);
    ClosedLoopWorkspace<Counted> cws(m);
    cws.prepare(m, loops);
    VecX<Counted> qdd(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, loops, x.q, qd, x.tau, nullptr, qdd, cws); });
  } else if constexpr (std::is_same_v<Family, ContactDynamicsFamily>) {
    // cases::chain_contacts: a point of the tip body and one of the middle body against planes fixed
    // in the base, each put through its point at the state's q, and qd made consistent (zeta = 0)
    // -- outside the count, as a simulation's collision detection would be. Which contacts press
    // depends on the state, so the count includes whichever pivots it takes.
    const std::vector<cases::ContactSpec> specs = cases::chain_contacts(m.nb);
    const PointContacts<Counted> contacts = cases::place_contacts<Counted>(m, x.q, specs);
    const VecX<Counted> qd = cases::consistent_contact_velocity<Counted>(m, contacts, x.q, x.qd);
    ContactWorkspace<Counted> cws(m);
    cws.prepare(m, contacts);
    VecX<Counted> qdd(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, contacts, x.q, qd, x.tau, nullptr, qdd, cws); });
  } else if constexpr (std::is_same_v<Family, LoopContactDynamicsFamily>) {
    // The closed-loop family's loop (a spherical joint from the tip to the base) and the contact
    // family's cases::chain_contacts, of which the family keeps those the loop leaves independent
    // (cases::contacts_free_of_loops, as its gates do: the tip's contact sits at the loop's centre,
    // where the loop holds it, and on GU(n) with n < 5 the loop leaves too few freedoms for the
    // middle one), closed and placed at the state's q with qd consistent with both, outside the
    // count. For n < 4 the loop locks the chain: the count is then the locked solve's.
    const cases::LoopSpec spec = cases::chain_tip_loop(m.nb);
    const LoopJoints<Counted> loops = cases::close_loops<Counted>(m, x.q, {spec});
    std::vector<cases::ContactSpec> chain = cases::chain_contacts(m.nb);
    std::reverse(chain.begin(), chain.end());  // the middle body's first: the family keeps the longest independent prefix
    const std::vector<cases::ContactSpec> specs =
        cases::contacts_free_of_loops(model, {spec}, neutral_configuration(model), chain);
    const PointContacts<Counted> contacts = cases::place_contacts<Counted>(m, x.q, specs);
    const VecX<Counted> qd = cases::consistent_loop_contact_velocity<Counted>(m, loops, contacts, x.q, x.qd);
    LoopContactWorkspace<Counted> lws(m);
    VecX<Counted> qdd(m.nv);
    V::template run<Counted>(m, loops, contacts, x.q, qd, x.tau, nullptr, qdd, lws);  // sizes the workspace
    c = count_ops([&] { V::template run<Counted>(m, loops, contacts, x.q, qd, x.tau, nullptr, qdd, lws); });
  } else if constexpr (std::is_same_v<Family, ImpactDynamicsFamily>) {
    // The same two contacts with e = 0.5, the tip's approaching (cases::approaching_velocity),
    // outside the count; the count includes whichever pivots the impact takes.
    std::vector<cases::ContactSpec> specs = cases::chain_contacts(m.nb);
    for (cases::ContactSpec& sp : specs) sp.restitution = 0.5;
    const PointContacts<Counted> contacts = cases::place_contacts<Counted>(m, x.q, specs);
    const VecX<Counted> qd = cases::approaching_velocity<Counted>(m, contacts, x.q, x.qd);
    ImpactWorkspace<Counted> iws(m);
    iws.prepare(m, contacts);
    VecX<Counted> qd_plus(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, contacts, x.q, qd, qd_plus, iws); });
  } else if constexpr (std::is_same_v<Family, FrictionDynamicsFamily>) {
    // cases::chain_friction_contacts: the same two contacts with mu = 0.5 and 4-facet pyramids, both
    // sticking at this rest state (qd = 0), placed outside the count; the count includes whichever
    // pivots Lemke takes.
    const std::vector<cases::ContactSpec> specs = cases::chain_friction_contacts(m.nb);
    const PointContacts<Counted> contacts = cases::place_contacts<Counted>(m, x.q, specs);
    const VecX<Counted> qd = cases::frictional_velocity<Counted>(m, contacts, x.q, x.qd, specs);
    FrictionWorkspace<Counted> fws(m);
    fws.prepare(m, contacts);
    VecX<Counted> qdd(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, contacts, x.q, qd, x.tau, nullptr, qdd, fws); });
  } else if constexpr (std::is_same_v<Family, ExtendedInverseDynamicsFamily> ||
                       std::is_same_v<Family, ExtendedForwardDynamicsFamily>) {
    // Every joint plain (no extension): what Tables 5.1, 6.2 and 7.1 cost written with jcalc's
    // full output (a 6 x n_i S, c_J and v_J as 6-vectors, 6x6 inertias), beside the fast
    // variants' counts on the same GU(n). A rack, a reversal or a drive adds a fixed number of
    // operations per joint on top (jcalc_extended.hpp).
    const ExtendedModel<Counted> em{m, std::vector<JointExtension<Counted>>(m.nb)};
    ExtendedWorkspace<Counted> ews(em);
    VecX<Counted> out(m.nv);
    const VecX<Counted>& in = std::is_same_v<Family, ExtendedInverseDynamicsFamily> ? x.qdd : x.tau;
    c = count_ops([&] { V::template run<Counted>(em, Counted(0), x.q, x.qd, in, nullptr, out, ews); });
  } else {
    VecX<Counted> tau(m.nv);
    c = count_ops([&] { V::template run<Counted>(m, x.q, x.qd, x.qdd, nullptr, tau, ws); });
  }
  return c;
}

template <class Family>
void count_family(nlohmann::json& records, nlohmann::json& fits) {
  for_each_type<typename Family::Variants>([&]<class V>() {
    for (const std::string case_name : {"gu", "gu_dh", "gu_floating"}) {
      if (case_name == "gu_dh" && !uses_dh_frames<V>()) continue;
      if ((case_name == "gu_floating") != floating_base_only<V>()) continue;
      std::vector<double> ns, ms, as;
      for (int n = 1; n <= kMaxN; ++n) {
        const OpCounts c = count_on<Family, V>(case_name == "gu"      ? cases::gu(n)
                                               : case_name == "gu_dh" ? cases::gu_dh(n)
                                                                      : cases::gu_floating(n));
        nlohmann::json r = counts_json(c);
        r["family"] = Family::name; r["variant"] = V::name; r["case"] = case_name; r["n"] = n;
        records.push_back(r);
        ns.push_back(n); ms.push_back(double(c.m())); as.push_back(double(c.a()));
      }
      // Fit on n >= 2: at n = 1 the root-only special cases (no parent to transform from)
      // make the count differ from the general formula, as Table 10.1's constants allow for.
      const std::vector<double> n2(ns.begin() + 1, ns.end()), m2(ms.begin() + 1, ms.end()), a2(as.begin() + 1, as.end());
      const Polynomial pm = fit_exact_polynomial(n2, m2), pa = fit_exact_polynomial(n2, a2);
      // A variant built on blocked library kernels (Eigen's dense factorizations) may declare
      // polynomial_op_counts = false: its best cubic is recorded but not required to be exact.
      constexpr bool polynomial_expected = [] {
        if constexpr (requires { V::polynomial_op_counts; }) return V::polynomial_op_counts;
        else return true;
      }();
      fits.push_back({{"family", Family::name}, {"variant", V::name}, {"case", case_name},
                      {"valid_for", "n >= 2"}, {"m", pm.to_json()}, {"a", pa.to_json()},
                      {"polynomial_expected", polynomial_expected},
                      {"formula", pm.to_string() + " m + " + pa.to_string() + " a"}});
      if (uses_dh_frames<V>())
        fits.back()["note"] = case_name == "gu"
            ? "rbdlab's GU(n) has general tree transforms, so in DH frames every joint but the first and "
              "the last keeps a constant angle offset: one addition q_i + theta_i each; on gu_dh (the "
              "book's GU(n), theta_i = q_i) there is none"
            : "the book's GU(n): a DH chain whose joint variables are the DH angles (cases/gu_dh.hpp)";
      std::cout << Family::name << "/" << V::name << " on "
                << (case_name == "gu" ? "GU(n)" : case_name == "gu_dh" ? "GU_DH(n)" : "GU_floating(n)") << ": (" << pm.to_string() << ")m + ("
                << pa.to_string() << ")a"
                << (pm.exact && pa.exact ? "" : polynomial_expected ? "  (not an exact polynomial)"
                                                                    : "  (piecewise by design: best cubic shown)")
                << "\n";
    }
  });
}

// Published rows of Table 10.1 (Featherstone 2008, p. 182), coefficients of n^0, n^1, n^2.
nlohmann::json book_rows() {
  auto row = [](const char* alg, std::vector<double> m, std::vector<double> a, const char* src) {
    return nlohmann::json{{"algorithm", alg}, {"m", m}, {"a", a}, {"source", src}};
  };
  return nlohmann::json::array({
      row("RNEA", {-108, 93}, {-100, 81}, "Table 10.1 row 1 (Balafoutis and Patel 1991)"),
      row("RNEA", {-69, 93}, {-66, 81}, "Table 10.1 row 2 (Balafoutis et al. 1988; B&P 1991)"),
      row("RNEA", {-68, 130}, {-56, 101}, "Table 10.1 row 3 (Featherstone 1987)"),
      row("RNEA", {-48, 150}, {-48, 131}, "Table 10.1 row 4 (Hollerbach 1980)"),
      row("CRBA", {-32, 22, 10}, {-43, 37, 6}, "Table 10.1 row 5 = Eq. 10.3 (Featherstone 2005)"),
      row("CRBA", {-41, 31, 10}, {-46, 40, 6}, "Table 10.1 row 6 (Featherstone 1987)"),
      row("CRBA", {-51, 41, 10}, {-58, 52, 6}, "Table 10.1 row 7 (Lilly and Orin 1991)"),
      row("CRBA", {-42, 11, 11}, {-54, 32.5, 5.5}, "Table 10.1 row 8 (Balafoutis and Patel 1989)"),
      row("CRBA", {-27, 56, 12}, {-53, 67, 7}, "Table 10.1 row 9 (Walker and Orin 1982)"),
      // F&S = factorize and solve H qdd = tau - C: Table 6.6's L^T D L factorization plus
      // back-substitution with D1, D2 of Eq. 6.28 (no branches), divisions counted as m.
      row("F&S", {0, -2.0 / 3, 1.5, 1.0 / 6}, {0, -7.0 / 6, 1, 1.0 / 6},
          "Table 10.1 row 10 (Table 6.6 with Eq. 6.28)"),
      row("ABA", {-259, 224}, {-248, 205}, "Table 10.1 row 11 (McMillan et al. 1995)"),
      row("ABA", {-222, 250}, {-198, 220}, "Table 10.1 row 12 (Brandl et al. 1988)"),
      row("ABA", {-267, 300}, {-259, 279}, "Table 10.1 row 13 (Featherstone 1987)"),
  });
}

// Section 10.3's reading of Figure 10.4: "the O(n^3) algorithm is slightly faster than the
// articulated-body algorithm for n <= 8, and has risen to about 1.6 times the cost of the
// articulated-body algorithm by the time n = 18" (cost = m + a). Evaluated twice: from the
// book's best rows (ABA row 11 against CRBA row 5 + RNEA row 1 + F&S) and from rbdlab's
// counts (aba against crba_ltdl, which also counts the n subtractions tau - C).
nlohmann::json fd_crossover(const nlohmann::json& records) {
  auto poly = [](const nlohmann::json& c, double n) {
    double s = 0, p = 1;
    for (double ck : c) { s += ck * p; p *= n; }
    return s;
  };
  const nlohmann::json rows = book_rows();
  auto total = [&](int row, double n) { return poly(rows[row]["m"], n) + poly(rows[row]["a"], n); };
  auto ours = [&](const char* variant, int n) {
    for (const auto& r : records)
      if (r["family"] == "forward_dynamics" && r["variant"] == variant && r["case"] == "gu" && r["n"] == n)
        return double(r["m"].get<std::uint64_t>() + r["a"].get<std::uint64_t>());
    return 0.0;
  };
  nlohmann::json book = nlohmann::json::array(), rbd = nlohmann::json::array();
  int book_last = 0, rbd_last = 0;
  for (int n = 1; n <= kMaxN; ++n) {
    const double aba = total(10, n), route = total(4, n) + total(0, n) + total(9, n);
    book.push_back({{"n", n}, {"aba", aba}, {"crba_rnea_fs", route}, {"ratio", route / aba}});
    if (route < aba) book_last = n;  // the largest such n (the rows are not valid at n = 1)
    const double a = ours("aba", n), r = ours("crba_ltdl", n);
    rbd.push_back({{"n", n}, {"aba", a}, {"crba_ltdl", r}, {"ratio", r / a}});
    if (r < a) rbd_last = n;
  }
  return {{"claim", "O(n^3) route cheaper than ABA for n <= 8; about 1.6x ABA at n = 18 (section 10.3, Fig. 10.4)"},
          {"cost", "m + a"},
          {"book_rows", {{"route", "CRBA row 5 + RNEA row 1 + F&S row 10 vs ABA row 11"},
                         {"route_cheaper_up_to_n", book_last}, {"ratio_at_18", book[17]["ratio"]}, {"per_n", book}}},
          {"rbdlab", {{"route", "crba_ltdl vs aba"},
                      {"route_cheaper_up_to_n", rbd_last}, {"ratio_at_18", rbd[17]["ratio"]}, {"per_n", rbd}}}};
}

// ---------------------------------------------------------------------------------------------
// Figure 10.5 (section 10.3.2): "the cost of applying the O(nd^2) algorithm to a binary tree ...
// is almost identical to the curve for the articulated-body algorithm, and very different from
// the curve for the O(nd^2) algorithm applied to an unbranched chain".

constexpr int kTreeMaxN = 63;  // binary trees of n = 1..63 bodies (63: complete, depth 6)

// The binary tree of GU(n)'s bodies: the same Rng draws as cases::gu(n) (general tree transforms
// and inertias, revolute joints), body k hanging on auto_tree's bf = 2 parent (cases/auto_tree.hpp:
// lambda(i) = floor(i/2), breadth first, two children per body until n is reached). auto_tree's
// own geometry is not used: it puts both children of a body on one axis line, which
// model/dh_frames.hpp then gives two DH links, whereas on a general tree "only one child per
// nonterminal body can benefit" from DH frames (section 10.3.2).
Model<double> binary_tree(int n) {
  cases::Rng rng(1);
  ModelBuilder mb("binary_tree:" + std::to_string(n));
  mb.gravity(cases::Vec3d(0, 0, -9.81));
  for (int k = 0; k < n; ++k) {
    const Transform<double> X = cases::random_xtree(rng);
    const cases::BodyInertia b = cases::random_body(rng);
    cases::add(mb, "link" + std::to_string(k + 1), cases::auto_tree_parent(k, 2),
               cases::make_joint(JointType::Revolute, cases::Vec3d::UnitZ()), X, b);
  }
  return mb.finish();
}

// The variants of Figure 10.5's two algorithms and of the O(nd^2) route's parts, counted on
// binary_tree(n) as records of case "binary_tree" (gated exactly like the GU(n) records; no
// polynomial fit, the route being O(n d^2) = O(n log^2 n) there).
constexpr std::string_view kTreeVariants[] = {"rnea_spatial", "rnea_dh", "crba", "crba_dh",
                                              "ltdl_sparse", "aba", "aba_dh", "crba_ltdl"};

template <class Family> void count_binary_trees(nlohmann::json& records) {
  for_each_type<typename Family::Variants>([&]<class V>() {
    if (std::find(std::begin(kTreeVariants), std::end(kTreeVariants), V::name) == std::end(kTreeVariants)) return;
    for (int n = 1; n <= kTreeMaxN; ++n) {
      nlohmann::json r = counts_json(count_on<Family, V>(binary_tree(n)));
      r["family"] = Family::name; r["variant"] = V::name; r["case"] = "binary_tree"; r["n"] = n;
      records.push_back(r);
    }
  });
}

// Section 10.3.2's tree quantities from a parent array (0-based, -1 = the base).
struct TreeD {
  double D0dh = 0, D0g = 0, D1dh = 0, D1g = 0;  // Eq. 10.11
  double D1 = 0, D2 = 0;                         // Eqs. 6.26, 6.27 (D1 is also Eq. 10.5's)
  int d = 0;                                     // depth of the tree
};
TreeD tree_d(const std::vector<int>& parent) {
  const int n = int(parent.size());
  std::vector<int> nu(n, 1), depth(n, 1), dh_child(n, -1);  // |nu(i)|, d_k = |kappa(k)|
  for (int i = n - 1; i >= 0; --i)
    if (parent[i] >= 0) nu[parent[i]] += nu[i];
  for (int i = 0; i < n; ++i)
    if (parent[i] >= 0) depth[i] = depth[parent[i]] + 1;
  // One DH child per nonterminal body. The book leaves the choice open; the child with the
  // largest subtree is used most (|nu(i)| times in Eq. 10.11), so it minimises Eq. 10.12. It is
  // model/dh_frames.hpp's choice too.
  for (int i = 0; i < n; ++i)
    if (const int p = parent[i]; p >= 0 && (dh_child[p] < 0 || nu[i] > nu[dh_child[p]])) dh_child[p] = i;
  TreeD D;
  for (int i = 0; i < n; ++i) {
    D.d = std::max(D.d, depth[i]);
    D.D1 += depth[i] - 1;                      // Eq. 6.26
    D.D2 += depth[i] * (depth[i] - 1) / 2.0;   // Eq. 6.27
    if (parent[i] < 0) continue;               // children of the base: in neither pi^dh nor pi^g
    const bool dh = dh_child[parent[i]] == i;
    (dh ? D.D0dh : D.D0g) += 1;                // Eq. 10.11
    (dh ? D.D1dh : D.D1g) += nu[i];
  }
  if (D.D1dh + D.D1g != D.D1) throw std::logic_error("figure 10.5: D1^dh + D1^g != D1 (Eqs. 10.5, 10.11)");
  return D;
}

struct Ma { double m = 0, a = 0; double total() const { return m + a; } };
// Eq. 10.12 (section 10.3.2's costs: ra = 10a folded into the D0 terms, rx^dh = 32m + 33a,
// rx^g = 47m + 48a, vx^dh = 20m + 12a, vx^g = 24m + 18a).
Ma crba_eq_10_12(const TreeD& D) {
  return {32 * D.D0dh + 47 * D.D0g + 20 * D.D1dh + 24 * D.D1g, 43 * D.D0dh + 58 * D.D0g + 12 * D.D1dh + 18 * D.D1g};
}
// Table 6.6, L^T D L column: factorization D1 d + D2 (m + a), back-substitution n d + 2 D1 (m + a),
// divisions d counted as m (Table 10.1's convention). With Eq. 6.28's chain values this is F&S row 10.
Ma fs_table_6_6(const TreeD& D, int n) { return {D.D1 + D.D2 + n + 2 * D.D1, D.D2 + 2 * D.D1}; }

template <class Family, class V> double total_ops(const Model<double>& m) {  // m + a
  const OpCounts c = count_on<Family, V>(m);
  return double(c.m() + c.a());
}

nlohmann::json figure_10_5() {
  const nlohmann::json rows = book_rows();
  auto poly = [](const nlohmann::json& c, double n) {
    double s = 0, p = 1;
    for (double ck : c) { s += ck * p; p *= n; }
    return s;
  };
  auto row = [&](int r, double n) { return Ma{poly(rows[r]["m"], n), poly(rows[r]["a"], n)}; };  // Table 10.1
  // rbdlab's O(nd^2) route on DH frames, composed from its counted parts like crba_ltdl:
  // crba_dh + rnea_dh (C = ID(q, qd, 0)) + n subtractions (tau - C) + ltdl_sparse.
  auto dh_route = [](const Model<double>& m) {
    return total_ops<MassMatrixFamily, CrbaDh>(m) + total_ops<InverseDynamicsFamily, RneaDh>(m) + m.nv +
           total_ops<FactorizationFamily, LtdlSparse>(m);
  };
  nlohmann::json book = nlohmann::json::array(), rbd = nlohmann::json::array(), checks = nlohmann::json::array();
  double book_dev = 0, rbd_dev = 0, dh_dev = 0;  // max |ratio - 1| over 8 <= n <= 63
  bool ltdl_exact = true;                         // ltdl_sparse's count = Table 6.6's at every n
  nlohmann::json branching = nlohmann::json::array();
  for (int n = 1; n <= kTreeMaxN; ++n) {
    const Model<double> tree = binary_tree(n), chain = cases::gu(n);
    std::vector<int> chain_parent(n);
    for (int i = 0; i < n; ++i) chain_parent[i] = i - 1;
    const TreeD Dt = tree_d(tree.parent), Dc = tree_d(chain_parent);
    // The book's route: CRBA (Eq. 10.12) + RNEA (Table 10.1 row 1, unchanged: "branches have
    // very little effect on the recursive Newton-Euler ... algorithm") + F&S (Table 6.6).
    const Ma rnea = row(0, n), aba = row(10, n);
    const Ma crba_t = crba_eq_10_12(Dt), fs_t = fs_table_6_6(Dt, n);
    const double route_t = crba_t.total() + rnea.total() + fs_t.total();
    const double route_c = crba_eq_10_12(Dc).total() + rnea.total() + fs_table_6_6(Dc, n).total();
    // On the chain the same formulas must give Table 10.1's rows 5 + 1 + 10 (Eq. 10.12 = Eq. 10.3,
    // Table 6.6 with Eq. 6.28 = F&S): a check of the D quantities.
    const double rows_c = row(4, n).total() + rnea.total() + row(9, n).total();
    if (n >= 2 && std::abs(route_c - rows_c) > 1e-9 * rows_c)
      throw std::logic_error("figure 10.5: Eq. 10.12 + Table 6.6 on a chain != Table 10.1 rows 5 + 1 + 10 at n = " + std::to_string(n));
    book.push_back({{"n", n}, {"aba", aba.total()}, {"route_chain", route_c}, {"route_binary_tree", route_t},
                    {"ratio_chain", route_c / aba.total()}, {"ratio_binary_tree", route_t / aba.total()},
                    {"crba_eq_10_12", {crba_t.m, crba_t.a}}, {"fs_table_6_6", {fs_t.m, fs_t.a}},
                    {"D", {{"D0_dh", Dt.D0dh}, {"D0_g", Dt.D0g}, {"D1_dh", Dt.D1dh}, {"D1_g", Dt.D1g},
                           {"D1", Dt.D1}, {"D2", Dt.D2}, {"depth", Dt.d}}}});
    // rbdlab: counted aba vs crba_ltdl (as in fd_crossover), and the DH-frame pair
    // aba_dh vs crba_dh + rnea_dh + n + ltdl_sparse, on the binary tree and on GU(n).
    const double aba_t = total_ops<ForwardDynamicsFamily, Aba>(tree),
                 aba_c = total_ops<ForwardDynamicsFamily, Aba>(chain),
                 ltdl_t = total_ops<ForwardDynamicsFamily, CrbaLtdl>(tree),
                 ltdl_c = total_ops<ForwardDynamicsFamily, CrbaLtdl>(chain),
                 abadh_t = total_ops<ForwardDynamicsFamily, AbaDh>(tree),
                 abadh_c = total_ops<ForwardDynamicsFamily, AbaDh>(chain),
                 dh_t = dh_route(tree), dh_c = dh_route(chain);
    rbd.push_back({{"n", n}, {"aba_binary_tree", aba_t}, {"aba_chain", aba_c},
                   {"crba_ltdl_binary_tree", ltdl_t}, {"crba_ltdl_chain", ltdl_c},
                   {"ratio_binary_tree", ltdl_t / aba_t}, {"ratio_chain", ltdl_c / aba_c},
                   {"aba_dh_binary_tree", abadh_t}, {"aba_dh_chain", abadh_c},
                   {"dh_route_binary_tree", dh_t}, {"dh_route_chain", dh_c},
                   {"dh_ratio_binary_tree", dh_t / abadh_t}, {"dh_ratio_chain", dh_c / abadh_c}});
    if (n >= 8) {
      book_dev = std::max(book_dev, std::abs(route_t / aba.total() - 1));
      rbd_dev = std::max(rbd_dev, std::abs(ltdl_t / aba_t - 1));
      dh_dev = std::max(dh_dev, std::abs(dh_t / abadh_t - 1));
    }
    // rbdlab's counts against the book's tree formulas, term by term: ltdl_sparse vs Table 6.6
    // (Eqs. 6.26-6.27), crba_dh vs Eq. 10.12.
    const OpCounts fs = count_on<FactorizationFamily, LtdlSparse>(tree), cr = count_on<MassMatrixFamily, CrbaDh>(tree);
    checks.push_back({{"n", n}, {"ltdl_sparse", {fs.m(), fs.a()}}, {"table_6_6", {fs_t.m, fs_t.a}},
                      {"crba_dh", {cr.m(), cr.a()}}, {"eq_10_12", {crba_t.m, crba_t.a}}});
    ltdl_exact = ltdl_exact && double(fs.m()) == fs_t.m && double(fs.a()) == fs_t.a;
  }
  // Section 10.3.2: "branches have very little effect on the recursive Newton-Euler and
  // articulated-body algorithms" -- rbdlab's m + a on the binary tree over that on GU(n).
  for (int n : {15, 31, 63}) {
    const Model<double> tree = binary_tree(n), chain = cases::gu(n);
    branching.push_back(
        {{"n", n},
         {"rnea_spatial", total_ops<InverseDynamicsFamily, RneaSpatial>(tree) / total_ops<InverseDynamicsFamily, RneaSpatial>(chain)},
         {"rnea_dh", total_ops<InverseDynamicsFamily, RneaDh>(tree) / total_ops<InverseDynamicsFamily, RneaDh>(chain)},
         {"aba", total_ops<ForwardDynamicsFamily, Aba>(tree) / total_ops<ForwardDynamicsFamily, Aba>(chain)},
         {"aba_dh", total_ops<ForwardDynamicsFamily, AbaDh>(tree) / total_ops<ForwardDynamicsFamily, AbaDh>(chain)}});
  }
  auto at = [](const nlohmann::json& per_n, const char* key) {
    nlohmann::json o;
    for (int n : {15, 31, 63}) o[std::to_string(n)] = per_n[n - 1][key];
    return o;
  };
  return {{"claim", "the O(nd^2) algorithm on a binary tree costs almost the same as the articulated-body "
                    "algorithm, and very much less than on an unbranched chain (section 10.3.2, Fig. 10.5)"},
          {"cost", "m + a"},
          {"tree", "binary_tree(n): GU(n)'s bodies and draws, body k on auto_tree's bf = 2 parent (breadth first)"},
          {"closeness", {{"measure", "max |ratio - 1| over 8 <= n <= 63"}, {"tolerance", 0.25}}},
          {"book_rows", {{"route", "CRBA Eq. 10.12 (D's of Eq. 10.11 for the tree) + RNEA Table 10.1 row 1 + "
                                   "LTDL factorize and solve Table 6.6 (D1, D2 of Eqs. 6.26-6.27) vs ABA row 11; "
                                   "on the chain the same formulas give rows 5 + 1 + 10"},
                         {"rnea_assumption", "Table 10.1 row 1 unchanged on the tree (section 10.3.2: branches have "
                                             "very little effect on the RNEA and the ABA)"},
                         {"ratio_binary_tree_at", at(book, "ratio_binary_tree")}, {"ratio_chain_at", at(book, "ratio_chain")},
                         {"max_deviation_binary_tree", book_dev}, {"per_n", book}}},
          {"rbdlab", {{"route", "crba_ltdl vs aba; dh: crba_dh + rnea_dh + n + ltdl_sparse vs aba_dh (counted)"},
                      {"ratio_binary_tree_at", at(rbd, "ratio_binary_tree")}, {"ratio_chain_at", at(rbd, "ratio_chain")},
                      {"dh_ratio_binary_tree_at", at(rbd, "dh_ratio_binary_tree")},
                      {"dh_ratio_chain_at", at(rbd, "dh_ratio_chain")},
                      {"max_deviation_binary_tree", rbd_dev}, {"dh_max_deviation_binary_tree", dh_dev},
                      {"per_n", rbd}}},
          {"branching_effect", {{"what", "m + a on binary_tree(n) / m + a on GU(n)"},
                                {"note", "the general variants use general transforms everywhere, so branching "
                                         "changes nothing; the DH-frame variants give only one child per body a DH "
                                         "transform (section 10.3.2), and aba_dh uses aba's general 6x6 congruence "
                                         "on the others (aba_dh.hpp)"},
                                {"per_n", branching}}},
          {"formula_checks", {{"ltdl_sparse_equals_table_6_6_at_every_n", ltdl_exact}, {"per_n", checks}}}};
}

// Section 9.7: "Assuming that most joints are revolute, this technique can cut the cost of the
// recursive Newton-Euler algorithm by about 15%". Checked as rnea_equivalent's m + a against
// rnea_spatial's (the same passes on the original inertias) on GU(n), whose joints are all
// revolute, and on the shared robots; "about 15%" is read as a saving between 10% and 20% on
// GU(30). The saving is a ratio of two counts that CI gates exactly, so it cannot drift unseen.
nlohmann::json section_9_7_statement() {
  auto pct = [](double x) { char b[32]; std::snprintf(b, sizeof b, "%.1f%%", 100 * x); return std::string(b); };
  auto saving = [](const Model<double>& m) {
    return 1 - total_ops<InverseDynamicsFamily, RneaEquivalent>(m) / total_ops<InverseDynamicsFamily, RneaSpatial>(m);
  };
  const double gu30 = saving(cases::gu(30)), gu7 = saving(cases::gu(7));
  std::string robots;
  for (const cases::UrdfRobot& r : cases::urdf_robots())
    robots += (robots.empty() ? "" : ", ") + r.name + " " + pct(saving(cases::build_case("urdf:" + r.name)));
  std::cout << "section 9.7: rnea_equivalent saves " << pct(gu30) << " of rnea_spatial's m + a on GU(30), " << pct(gu7)
            << " on GU(7); " << robots << "\n";
  return nlohmann::json{
      {"quantity", "RNEA cost saved by dynamic equivalence, m + a (rnea_equivalent vs rnea_spatial)"},
      {"source", "Featherstone section 9.7 ('about 15%', most joints revolute)"},
      {"published", "about 15%"},
      {"rbdlab", "GU(30) " + pct(gu30) + ", GU(7) " + pct(gu7) + "; " + robots},
      {"criterion", "10% to 20% on GU(30)"},
      {"agree", gu30 >= 0.10 && gu30 <= 0.20}};
}

// Planar vectors (section 2.16) against spatial ones on planar revolute chains of n = 1..10 bodies
// (cases/planar.hpp, the chains verify/test_planar.cpp checks for equal results): RNEA, CRBA and
// ABA counted both ways, and section 10.3's footnote -- planar vectors pay most in the ABA, whose
// articulated inertias shrink from 21 parameters to 6 -- checked as: the ABA's spatial / planar
// ratio of m + a at n = 10 is the largest of the three.
nlohmann::json planar_counts() {
  using C = Counted;
  nlohmann::json rows = nlohmann::json::array();
  for (int n = 1; n <= 10; ++n) {
    const planar::Model<double> pmd = cases::random_planar(77, n, false, true);
    const planar::Model<C> pm = pmd.cast<C>();
    const Model<C> sm = planar::to_spatial(pmd).cast<C>();
    const cases::PlanarState st = cases::random_pstate(77, n);
    const VecX<C> q = cases::to<C>(st.q), qd = cases::to<C>(st.qd), qdd = cases::to<C>(st.qdd), tau = cases::to<C>(st.tau);
    VecX<C> out = VecX<C>::Zero(n);
    MatX<C> H = MatX<C>::Zero(n, n);
    planar::Workspace<C> pws(pm);
    Workspace<C> ws(sm);
    ForwardDynamicsWorkspace<C> fws(sm);
    nlohmann::json row = {{"n", n}};
    row["rnea"] = {{"planar", counts_json(count_ops([&] { planar::Rnea::run(pm, q, qd, qdd, out, pws); }))},
                   {"spatial", counts_json(count_ops([&] { RneaSpatial::run<C>(sm, q, qd, qdd, nullptr, out, ws); }))}};
    row["crba"] = {{"planar", counts_json(count_ops([&] { planar::Crba::run(pm, q, H, pws); }))},
                   {"spatial", counts_json(count_ops([&] { Crba::run<C>(sm, q, H, ws); }))}};
    row["aba"] = {{"planar", counts_json(count_ops([&] { planar::Aba::run(pm, q, qd, tau, out, pws); }))},
                  {"spatial", counts_json(count_ops([&] { Aba::run<C>(sm, q, qd, tau, nullptr, out, fws); }))}};
    rows.push_back(row);
  }
  return rows;
}
nlohmann::json planar_statement(const nlohmann::json& rows) {
  const nlohmann::json& last = rows.back();
  auto ratio = [&](const char* alg) {
    const auto &p = last[alg]["planar"], &s = last[alg]["spatial"];
    return double(s["m"].get<long>() + s["a"].get<long>()) / double(p["m"].get<long>() + p["a"].get<long>());
  };
  const double r = ratio("rnea"), c = ratio("crba"), a = ratio("aba");
  char buf[160];
  std::snprintf(buf, sizeof buf, "spatial / planar m + a at n = %d: RNEA %.2f, CRBA %.2f, ABA %.2f", last["n"].get<int>(), r,
                c, a);
  std::cout << "planar vectors: " << buf << "\n";
  return nlohmann::json{{"quantity", "planar vs spatial vectors on a planar revolute chain: cost ratio per algorithm"},
                        {"source", "Featherstone section 10.3, footnote ('particularly beneficial' for the ABA: 21 parameters to 6)"},
                        {"published", "largest saving in the ABA"},
                        {"rbdlab", buf},
                        {"criterion", "the ABA's ratio is the largest"},
                        {"agree", a > r && a > c}};
}

// Section 9.6's cost of G^T H G on Figure 9.2's arm (Eq. 9.27): dense G and H against their
// actual nonzeros, counted on the two variants' own product steps.
nlohmann::json section_9_6_counts() {
  const cases::GearedArm arm = cases::geared_arm(50, 80);
  const Model<Counted> m = arm.model.cast<Counted>();
  GearedWorkspace<Counted> ws(m);
  ws.prepare(m, arm.pairs);
  MatX<Counted> H = MatX<Counted>::Zero(m.nv, m.nv), Hy = MatX<Counted>::Zero(2, 2), HG(m.nv, 2);
  Crba::run<Counted>(m, VecX<Counted>::Zero(m.nq), H, ws);
  const OpCounts dense = count_ops([&] { GearedDense::project<Counted>(H, ws.G, HG, Hy); });
  const OpCounts sparse = count_ops([&] { GearedSparse::project<Counted>(ws.plan, ws.map, H, Hy); });
  std::cout << "section 9.6, G^T H G on Figure 9.2's arm: dense " << dense.m() << "m + " << dense.a() << "a, sparse "
            << sparse.m() << "m + " << sparse.a() << "a\n";
  return {{"dense", counts_json(dense)}, {"sparse", counts_json(sparse)}};
}
nlohmann::json section_9_6_statements(const nlohmann::json& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const char* which : {"dense", "sparse"}) {
    const bool dense = std::string(which) == "dense";
    const long m = c[which]["m"].get<long>(), a = c[which]["a"].get<long>();
    const long pm = dense ? 44 : 5, pa = dense ? 33 : 3;
    rows.push_back({{"quantity", std::string("G^T H G for Figure 9.2's arm, ") +
                                     (dense ? "G and H treated as dense (geared_dense)" : "actual nonzeros (geared_sparse, Eq. 9.27)")},
                    {"source", "Featherstone section 9.6, Eq. 9.27"},
                    {"published", std::to_string(pm) + "m + " + std::to_string(pa) + "a"},
                    {"rbdlab", std::to_string(m) + "m + " + std::to_string(a) + "a"},
                    {"criterion", "equal"},
                    {"agree", m == pm && a == pa}});
  }
  return rows;
}

// Section 8.11's claim that G and g from a loop-closure function cost much less than sections
// 8.7-8.8's route, counted on Figure 8.3's mechanism (cases/actuated_arm.hpp) at one state
// (q1, q1', q4, q4') = (0.7, -1.3, -0.4, 0.9): the figure's own formulas
// (cases::Figure83Closure::evaluate) against K and k (Table 8.4, Eq. 8.47), the elimination and
// the back-substitution to G and g (Eqs. 8.48-8.51). Both need the RNEA pass that gives C (the
// elimination route also reads its v_i and a_i^vp), so it is not counted on either side.
// atan2 is evaluated but not counted (OpCounts has no field for it); the closed form calls it
// twice. The elimination's pivoting depends on the state, so its count is this state's.
nlohmann::json section_8_11_counts() {
  const cases::ActuatedArm arm = cases::figure_8_3_arm();
  const Model<Counted> m = arm.model.cast<Counted>();
  const LoopJoints<Counted> loops = cast_loops<Counted>(arm.loops);
  const cases::Figure83Closure<Counted> closure{arm.params};
  VecX<Counted> y(2), yd(2), q(4), g(4);
  y << Counted(0.7), Counted(-0.4);
  yd << Counted(-1.3), Counted(0.9);
  MatX<Counted> G = MatX<Counted>::Zero(4, 2);
  const OpCounts closed = count_ops([&] { closure.evaluate(y, yd, q, G, g); });
  ClosedLoopWorkspace<Counted> ws(m);
  ws.prepare(m, loops);
  const VecX<Counted> qd = G * yd;
  RneaSpatial::run<Counted>(m, q, qd, ws.zero, nullptr, ws.C, ws);
  const OpCounts elim = count_ops([&] {
    loops::loop_constraints<Counted>(m, loops, ws);
    loops::eliminate<Counted>(ws);
    loops::null_space_form<Counted>(ws);
  });
  std::cout << "section 8.11, G and g on Figure 8.3's mechanism: closed form " << closed.m() << "m + " << closed.a()
            << "a, elimination " << elim.m() << "m + " << elim.a() << "a\n";
  return {{"closed_form", counts_json(closed)}, {"elimination", counts_json(elim)},
          {"state", "q1 = 0.7, q1' = -1.3, q4 = -0.4, q4' = 0.9"}};
}
nlohmann::json section_8_11_statement(const nlohmann::json& c) {
  auto ops = [](const nlohmann::json& x) {
    return std::to_string(x["m"].get<long>()) + "m + " + std::to_string(x["a"].get<long>()) + "a + " +
           std::to_string(x["sqrt"].get<long>()) + " sqrt + " +
           std::to_string(x["sin"].get<long>() + x["cos"].get<long>()) + " sin/cos";
  };
  const auto &f = c["closed_form"], &e = c["elimination"];
  // "Much cheaper" read as: at least 5 times fewer multiplications and 5 times fewer additions,
  // with the closed form's square roots and sines and cosines listed beside (the elimination has
  // none).
  const bool cheaper = e["m"].get<long>() >= 5 * f["m"].get<long>() && e["a"].get<long>() >= 5 * f["a"].get<long>();
  return {{"quantity", "G and g for Figure 8.3's mechanism: the figure's formulas vs K, k and the elimination of sections 8.7-8.8"},
          {"source", "Featherstone section 8.11 ('much cheaper to calculate G and g via the equations presented here')"},
          {"published", "much cheaper"},
          {"rbdlab", ops(f) + " against " + ops(e)},
          {"criterion", "elimination's m and a each >= 5 times the formulas' (their sqrt, sin, cos listed)"},
          {"agree", cheaper}};
}

// Section 8.9 on M four-bars side by side (cases::four_bar_bank): M minimal clusters of one loop
// each, so K is M blocks of 5 x 3 and G M blocks of 3 x 1. Whole calls counted for the method
// that eliminates the whole K (loop_nullspace) and the one that eliminates and projects block by
// block (loop_clustered_nullspace), at crank angles 0.4 + 0.7 c and rates 1 - 0.3 c (the
// pivoting makes the counts the state's). The section's claim is qualitative ("block-diagonal
// sparsity can be exploited"); the counts show by how much.
nlohmann::json section_8_9_counts() {
  nlohmann::json rows = nlohmann::json::array();
  const cases::FourBarParams p = cases::four_bar_crank_rocker();
  for (const int copies : {1, 2, 4, 8}) {
    const cases::FourBar bank = cases::four_bar_bank(p, copies);
    std::vector<double> angles, rates;
    for (int c = 0; c < copies; ++c) {
      angles.push_back(0.4 + 0.7 * c);
      rates.push_back(1 - 0.3 * c);
    }
    const cases::FourBarState<double> st = cases::four_bar_bank_state<double>(p, angles, rates);
    const Model<Counted> m = bank.model.cast<Counted>();
    const LoopJoints<Counted> loops = cast_loops<Counted>(bank.loops);
    const VecX<Counted> q = st.q.cast<Counted>(), qd = st.qd.cast<Counted>(), tau = VecX<Counted>::Zero(m.nv);
    ClosedLoopWorkspace<Counted> ws(m);
    VecX<Counted> qdd(m.nv);
    nlohmann::json row = {{"copies", copies}, {"nv", m.nv}};
    auto count = [&]<class V>() {
      V::template run<Counted>(m, loops, q, qd, tau, nullptr, qdd, ws);  // prepare outside the count
      row[std::string(V::name)] = counts_json(count_ops([&] { V::template run<Counted>(m, loops, q, qd, tau, nullptr, qdd, ws); }));
    };
    count.template operator()<LoopNullspace>();
    count.template operator()<LoopClusteredNullspace>();
    row["clusters"] = static_cast<int>(ws.clusters.clusters.size());
    std::cout << "section 8.9, " << copies << " four-bars (n = " << m.nv << "): whole K " << row["loop_nullspace"]["m"]
              << "m, by clusters " << row["loop_clustered_nullspace"]["m"] << "m\n";
    rows.push_back(row);
  }
  return {{"case", "cases::four_bar_bank(M): M crank-rocker four-bars on one base, one revolute loop joint each"},
          {"rows", rows}};
}
nlohmann::json section_8_9_statement(const nlohmann::json& c) {
  auto ma = [](const nlohmann::json& r, const char* v) { return r[v]["m"].get<long>() + r[v]["a"].get<long>(); };
  bool cheaper = true, clusters_ok = true;
  for (const auto& r : c["rows"]) {
    clusters_ok = clusters_ok && r["clusters"].get<int>() == r["copies"].get<int>();
    if (r["copies"].get<int>() >= 2) cheaper = cheaper && ma(r, "loop_clustered_nullspace") < ma(r, "loop_nullspace");
  }
  const auto& last = c["rows"].back();
  char buf[200];
  std::snprintf(buf, sizeof buf, "m + a at M = %d four-bars (n = %d): by clusters %ld, whole K %ld (ratio %.3f); %d clusters",
                last["copies"].get<int>(), last["nv"].get<int>(), ma(last, "loop_clustered_nullspace"), ma(last, "loop_nullspace"),
                static_cast<double>(ma(last, "loop_clustered_nullspace")) / static_cast<double>(ma(last, "loop_nullspace")),
                last["clusters"].get<int>());
  return {{"quantity", "Section 8.9: K and G block-diagonal over minimal loop clusters, and the saving it allows"},
          {"source", "Featherstone section 8.9 ('block-diagonal sparsity can be exploited')"},
          {"published", "one block per minimal cluster; G computed block by block"},
          {"rbdlab", buf},
          {"criterion", "M clusters for M independent loops, and fewer m + a by clusters at every M >= 2"},
          {"agree", cheaper && clusters_ok}};
}

// Section 8.13 on Figure 8.4's ladder (cases/ladder.hpp), N = 1 .. 16 rungs: whole
// forward-dynamics calls counted for the sparse-matrix method and for the two spanning-tree
// methods that factor H (lambda first, null space), and the structure of Eq. 8.64 from the
// sparse method's own analysis. The rails' spherical joints give H two dense 3N blocks, so the
// spanning-tree methods grow at least as n^2; the sparse method's factor has no fill beyond a
// fixed band, so its count is affine in N. Counts at a seeded state (no pivot is dropped on the
// ladder, so they do not depend on it).
nlohmann::json section_8_13_counts() {
  nlohmann::json rows = nlohmann::json::array();
  for (const int rungs : {1, 2, 4, 8, 16}) {
    const verify::LadderState<Counted> s = verify::ladder_state<Counted>(rungs, 5);
    ClosedLoopWorkspace<Counted> ws(s.m);
    VecX<Counted> qdd(s.m.nv);
    nlohmann::json row = {{"rungs", rungs}, {"nv", s.m.nv}, {"nb", s.m.nb}};
    auto count = [&]<class V>() {
      V::template run<Counted>(s.m, s.loops, s.q, s.qd, s.tau, nullptr, qdd, ws);  // prepare outside the count
      const OpCounts c = count_ops([&] { V::template run<Counted>(s.m, s.loops, s.q, s.qd, s.tau, nullptr, qdd, ws); });
      row[std::string(V::name)] = counts_json(c);
    };
    count.template operator()<LoopSparseMatrix>();
    const auto& sm = ws.sparse;
    int ends = 0;
    for (const auto& J : sm.joint) ends += (J.p >= 0) + (J.s >= 0);
    row["eq_8_64_size"] = 6 * s.m.nb + sm.rows;
    row["joints"] = static_cast<int>(sm.joint.size());
    row["offdiagonal_blocks"] = 2 * ends;
    row["figure_8_4_bandwidth"] = verify::block_bandwidth(sm, verify::figure_8_4_order(rungs));
    row["factor_nonzeros"] = sm.ldlt.nonzeros();
    row["h_nonzeros"] = 2 * TreePattern(expanded_parent(s.m)).nonzeros() - s.m.nv;  // symmetric, both triangles
    count.template operator()<LoopLambdaFirst>();
    count.template operator()<LoopNullspace>();
    std::cout << "section 8.13, ladder of " << rungs << " rungs (n = " << s.m.nv << "): sparse "
              << row["loop_sparse_matrix"]["m"] << "m, lambda first " << row["loop_lambda_first"]["m"] << "m, null space "
              << row["loop_nullspace"]["m"] << "m; Eq. 8.64 " << row["eq_8_64_size"] << " square, band "
              << row["figure_8_4_bandwidth"] << "\n";
    rows.push_back(row);
  }
  return {{"case", "cases::ladder(N): two rails of spherical joints, a revolute rung per cell"}, {"rows", rows}};
}
nlohmann::json section_8_13_statements(const nlohmann::json& c) {
  const auto& rows = c["rows"];
  nlohmann::json out = nlohmann::json::array();
  bool size_ok = true, band_ok = true, blocks_ok = true;
  for (const auto& r : rows) {
    const int N = r["rungs"].get<int>(), NJ = r["joints"].get<int>();
    size_ok = size_ok && r["eq_8_64_size"].get<int>() == 6 * r["nb"].get<int>() + 11 * N;  // 3 + 3 + 5 constraints per cell
    blocks_ok = blocks_ok && r["offdiagonal_blocks"].get<int>() <= 4 * NJ;
    band_ok = band_ok && r["figure_8_4_bandwidth"].get<int>() <= 3;
  }
  const auto& last = rows.back();
  out.push_back({{"quantity", "Eq. 8.64 on a ladder: size 6 N_B + n^c_tot, N_B diagonal and at most 4 N_J off-diagonal blocks"},
                 {"source", "Featherstone section 8.13, Eq. 8.64"},
                 {"published", "6 N_B + n^c_tot square; N_B diagonal blocks, up to 4 N_J off the diagonal"},
                 {"rbdlab", "at N = " + std::to_string(last["rungs"].get<int>()) + ": " +
                                std::to_string(last["eq_8_64_size"].get<int>()) + " square, " +
                                std::to_string(last["offdiagonal_blocks"].get<int>()) + " off-diagonal blocks for N_J = " +
                                std::to_string(last["joints"].get<int>())},
                 {"criterion", "equal size, blocks <= 4 N_J, at every N counted"},
                 {"agree", size_ok && blocks_ok}});
  out.push_back({{"quantity", "Figure 8.4: the permuted coefficient matrix of a ladder has block bandwidth 3"},
                 {"source", "Featherstone section 8.13, Figure 8.4"},
                 {"published", "every nonzero block on the main diagonal or the three nearest either side"},
                 {"rbdlab", "bandwidth " + std::to_string(last["figure_8_4_bandwidth"].get<int>()) +
                                " under the text's order at N = " + std::to_string(last["rungs"].get<int>())},
                 {"criterion", "<= 3 at every N counted"},
                 {"agree", band_ok}});
  // O(n) vs O(n^2): the sparse method's count doubles (to within 10%) from 8 to 16 rungs; the
  // spanning-tree methods' at least quadruples, as H's nonzeros do.
  const auto& r8 = rows[rows.size() - 2];
  auto ratio = [&](const char* v) {
    return static_cast<double>(last[v]["m"].get<long>() + last[v]["a"].get<long>()) /
           static_cast<double>(r8[v]["m"].get<long>() + r8[v]["a"].get<long>());
  };
  const double rs = ratio("loop_sparse_matrix"), rl = ratio("loop_lambda_first"), rn = ratio("loop_nullspace");
  // Where the sparse method becomes the cheapest (section 8.13: "for a sufficiently large n").
  int cheapest_from = -1;
  for (const auto& r : rows) {
    auto ma = [&](const char* v) { return r[v]["m"].get<long>() + r[v]["a"].get<long>(); };
    const bool cheapest = ma("loop_sparse_matrix") < ma("loop_lambda_first") && ma("loop_sparse_matrix") < ma("loop_nullspace");
    if (!cheapest) cheapest_from = -1;
    else if (cheapest_from < 0) cheapest_from = r["rungs"].get<int>();
  }
  char buf[300];
  std::snprintf(buf, sizeof buf,
                "m + a from 8 to 16 rungs: sparse x%.2f, lambda first x%.2f, null space x%.2f; the sparse method is the "
                "cheapest of the three from %d rungs on",
                rs, rl, rn, cheapest_from);
  out.push_back({{"quantity", "Figure 8.4's ladder: O(n) by the sparse-matrix method, not by any spanning-tree method"},
                 {"source", "Featherstone section 8.13"},
                 {"published", "O(n) sparse factorization; O(n^2) nonzeros in H whatever the spanning tree"},
                 {"rbdlab", buf},
                 {"criterion", "sparse ratio <= 2.2; both spanning-tree ratios >= 4"},
                 {"agree", rs <= 2.2 && rl >= 4 && rn >= 4}});
  return out;
}

// Figure 10.5's statements checked, in reproductions.json's record format (the report lists them on
// the Reproductions page). "Almost identical" is read as: the route's m + a within 25% of ABA's
// at every 8 <= n <= 63 (below n = 8 the chain's route is itself cheaper than ABA, the crossover of
// Fig. 10.4, so there the statement would not set the tree apart from the chain); "very different"
// as: on the chain the route costs at least twice what it costs on the binary tree at n = 63.
nlohmann::json figure_10_5_statements(const nlohmann::json& fig) {
  auto f3 = [](double x) { char b[32]; std::snprintf(b, sizeof b, "%.3f", x); return std::string(b); };
  const double tol = fig["closeness"]["tolerance"].get<double>();
  const std::string src = "Featherstone section 10.3.2, Figure 10.5 ('almost identical to the curve for the "
                          "articulated-body algorithm')";
  auto near = [&](const nlohmann::json& part, const char* at, const char* dev, const std::string& what) {
    const nlohmann::json& r = part[at];
    const double d = part[dev].get<double>();
    return nlohmann::json{{"quantity", "Figure 10.5: O(nd^2) route on a binary tree / ABA, m + a (" + what + ")"},
                          {"source", src}, {"published", "almost identical"},
                          {"rbdlab", f3(r["15"]) + " / " + f3(r["31"]) + " / " + f3(r["63"]) + " at n = 15 / 31 / 63; max |ratio - 1| = " + f3(d)},
                          {"criterion", "max |ratio - 1| <= " + f3(tol) + " over 8 <= n <= 63"}, {"agree", d <= tol}};
  };
  const nlohmann::json &book = fig["book_rows"], &rbd = fig["rbdlab"];
  nlohmann::json rep = nlohmann::json::array(), disc = nlohmann::json::array();
  rep.push_back(near(book, "ratio_binary_tree_at", "max_deviation_binary_tree",
                     "the book's formulas: Eq. 10.12 + Table 10.1 row 1 + Table 6.6 vs row 11"));
  rep.push_back(near(rbd, "ratio_binary_tree_at", "max_deviation_binary_tree", "rbdlab counts: crba_ltdl vs aba"));
  rep.push_back(near(rbd, "dh_ratio_binary_tree_at", "dh_max_deviation_binary_tree",
                     "rbdlab counts: crba_dh + rnea_dh + n + ltdl_sparse vs aba_dh"));
  // Chain route / tree route at n = 63, from the book's formulas, crba_ltdl and the DH route.
  const nlohmann::json &b63 = book["per_n"][62], &r63 = rbd["per_n"][62];
  const double cb = b63["route_chain"].get<double>() / b63["route_binary_tree"].get<double>(),
               cr = r63["crba_ltdl_chain"].get<double>() / r63["crba_ltdl_binary_tree"].get<double>(),
               cd = r63["dh_route_chain"].get<double>() / r63["dh_route_binary_tree"].get<double>();
  rep.push_back({{"quantity", "Figure 10.5: O(nd^2) route on the chain / on the binary tree at n = 63, m + a"},
                 {"source", "Featherstone section 10.3.2, Figure 10.5 ('very different from the curve for the O(nd^2) "
                            "algorithm applied to an unbranched chain')"},
                 {"published", "very different"},
                 {"rbdlab", "book's formulas " + f3(cb) + "; crba_ltdl " + f3(cr) + "; DH route " + f3(cd)},
                 {"criterion", "each >= 2"}, {"agree", cb >= 2 && cr >= 2 && cd >= 2}});
  const nlohmann::json& c63 = fig["formula_checks"]["per_n"][62];
  rep.push_back({{"quantity", "Table 6.6 (L^T D L factorize + back-substitute) with D1, D2 of Eqs. 6.26-6.27 on "
                              "binary trees: m, a at n = 63"},
                 {"source", "Featherstone Table 6.6, Eqs. 6.26-6.27"},
                 {"published", std::to_string(int(c63["table_6_6"][0].get<double>())) + "m + " +
                                   std::to_string(int(c63["table_6_6"][1].get<double>())) + "a"},
                 {"rbdlab", "ltdl_sparse counted: " + c63["ltdl_sparse"][0].dump() + "m + " + c63["ltdl_sparse"][1].dump() + "a"},
                 {"criterion", "equal at every n = 1..63"},
                 {"agree", fig["formula_checks"]["ltdl_sparse_equals_table_6_6_at_every_n"].get<bool>()}});
  // The book's own formulas contradicting its statements would be a discrepancy of the book.
  for (int i : {0, 3})
    if (!rep[i]["agree"].get<bool>())
      disc.push_back({{"quantity", rep[i]["quantity"]}, {"source", rep[i]["source"]}, {"published", rep[i]["published"]},
                      {"rbdlab_exact", rep[i]["rbdlab"]},
                      {"evidence", "computed from the book's own cost formulas (opcounts.json figure_10_5.book_rows); "
                                   "criterion: " + rep[i]["criterion"].get<std::string>()}});
  return {{"reproductions", rep}, {"discrepancies", disc}};
}

}  // namespace
}  // namespace rbd::verify

int main(int argc, char** argv) {
  using namespace rbd::verify;
  const std::filesystem::path data_dir = argc > 1 ? argv[1] : "reports/data";
  nlohmann::json records = nlohmann::json::array(), fits = nlohmann::json::array();
  try {
    count_family<InverseDynamicsFamily>(records, fits);
    count_family<MassMatrixFamily>(records, fits);
    count_family<FactorizationFamily>(records, fits);
    count_family<ForwardDynamicsFamily>(records, fits);
    count_family<HybridDynamicsFamily>(records, fits);
    count_family<GearedDynamicsFamily>(records, fits);
    count_family<ClosedLoopDynamicsFamily>(records, fits);
    count_family<ContactDynamicsFamily>(records, fits);
    count_family<LoopContactDynamicsFamily>(records, fits);
    count_family<ImpactDynamicsFamily>(records, fits);
    count_family<FrictionDynamicsFamily>(records, fits);
    count_family<ExtendedInverseDynamicsFamily>(records, fits);
    count_family<ExtendedForwardDynamicsFamily>(records, fits);
    count_binary_trees<InverseDynamicsFamily>(records);
    count_binary_trees<MassMatrixFamily>(records);
    count_binary_trees<FactorizationFamily>(records);
    count_binary_trees<ForwardDynamicsFamily>(records);
  } catch (const std::exception& e) {
    std::cerr << "op counts failed: " << e.what() << "\n";
    return 2;
  }
  bool exact = true;
  for (const auto& f : fits)
    if (f["polynomial_expected"].get<bool>()) exact = exact && f["m"]["exact"].get<bool>() && f["a"]["exact"].get<bool>();
  const nlohmann::json crossover = fd_crossover(records);
  std::cout << "O(n^3) route vs ABA (m + a): book rows cheaper up to n = "
            << crossover["book_rows"]["route_cheaper_up_to_n"] << ", ratio at n = 18 "
            << crossover["book_rows"]["ratio_at_18"] << "; rbdlab crba_ltdl vs aba cheaper up to n = "
            << crossover["rbdlab"]["route_cheaper_up_to_n"] << ", ratio at n = 18 "
            << crossover["rbdlab"]["ratio_at_18"] << "\n";
  const nlohmann::json fig = figure_10_5(), statements = figure_10_5_statements(fig);
  nlohmann::json reproductions = statements["reproductions"];
  reproductions.push_back(section_9_7_statement());
  const nlohmann::json gears_9_6 = section_9_6_counts();
  for (const auto& r : section_9_6_statements(gears_9_6)) reproductions.push_back(r);
  const nlohmann::json loops_8_11 = section_8_11_counts();
  reproductions.push_back(section_8_11_statement(loops_8_11));
  const nlohmann::json loops_8_9 = section_8_9_counts();
  reproductions.push_back(section_8_9_statement(loops_8_9));
  const nlohmann::json loops_8_13 = section_8_13_counts();
  for (const auto& r : section_8_13_statements(loops_8_13)) reproductions.push_back(r);
  const nlohmann::json table_a4 = table_a_4();  // App. A.3's cost of each compact operation
  for (const auto& r : table_a_4_reproductions(table_a4)) reproductions.push_back(r);
  const nlohmann::json planar = planar_counts();
  reproductions.push_back(planar_statement(planar));
  {
    const auto &b = fig["book_rows"], &r = fig["rbdlab"];
    auto three = [](const nlohmann::json& at) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3f, %.3f, %.3f", at["15"].get<double>(), at["31"].get<double>(), at["63"].get<double>());
      return std::string(buf);
    };
    std::cout << "Figure 10.5, O(nd^2) route / ABA (m + a) at n = 15, 31, 63: book formulas binary tree "
              << three(b["ratio_binary_tree_at"]) << " (chain " << three(b["ratio_chain_at"])
              << "); rbdlab crba_ltdl / aba binary tree " << three(r["ratio_binary_tree_at"]) << " (chain "
              << three(r["ratio_chain_at"]) << "); DH route / aba_dh binary tree " << three(r["dh_ratio_binary_tree_at"])
              << "\n";
  }
  const auto path = result_path(data_dir, "opcounts.json", exact);
  write_json_atomically(path, {{"what", "operation counts on GU(n) (and binary trees, Figure 10.5) from the counting scalar"},
                               {"convention", "m = multiplications + divisions; a = additions + "
                                              "subtractions; sin and cos counted separately"},
                               {"records", records}, {"fits", fits}, {"book_table_10_1", book_rows()},
                               {"forward_dynamics_crossover", crossover}, {"figure_10_5", fig},
                               {"table_a_4", table_a4}, {"section_9_6", gears_9_6}, {"section_8_9", loops_8_9}, {"section_8_11", loops_8_11},
                               {"section_8_13", loops_8_13}, {"planar", planar},
                               // Figure 10.5's, sections 9.6-9.7's and Table A.4's figures checked (Reproductions page)
                               {"reproductions", reproductions},
                               {"discrepancies", statements["discrepancies"]}});
  std::cout << "wrote " << path.string() << "\n";
  return exact ? 0 : 1;
}
