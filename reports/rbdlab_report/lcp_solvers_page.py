"""The contact LCP solvers page (lcp_solvers.md), from reports/data/lcp_solvers.json (written by
verify/lcp_solver_study.cpp): projected Gauss-Seidel against the pivoting solution, frictionless and with
Coulomb friction, and the exact solvers side by side on block stacks.
Optional: without lcp_solvers.json no page is written. Every number comes from the JSON."""
import os
import statistics

from . import fmt, plots
from .data import GenerationError, load_json
from .pages import GENERATED, Context

PAGE = "lcp_solvers.md"
# The study's error levels, as its JSON keys name them (verify/lcp_solver_study.cpp).
K3, K6, K12 = "sweeps_to_1e-3", "sweeps_to_1e-6", "sweeps_to_1e-12"


def _level(key):
    return key[len("sweeps_to_"):]


def _check(raw, path):
    try:
        for key in ("records", "stacks", "curves", "checks", "pass", "max_sweeps", "seeds", "friction"):
            raw[key]
        for r in raw["friction"]:
            for k in ("case", "seed", "nc", "sliding", K3, K6, K12, "final_error", "sweeps_run"):
                r[k]
        for r in raw["records"] + raw["stacks"]:
            for k in ("case", "cond_M", K3, K6, K12, "final_error",
                      "sweeps_run"):
                r[k]
        for s in raw["stacks"]:
            for k in ("n", "mass_ratio", "pivoting_vs_closed_form", "points", "exact_solvers"):
                s[k]
            for e in s["exact_solvers"]:
                for k in ("variant", "lambda_vs_closed_form", "qdd_over_g", "active_set_changes"):
                    e[k]
        for c in raw["checks"]:
            for k in ("what", "value", "limit", "pass"):
                c[k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _sweeps(x):
    return fmt.NA if x is None else fmt.count(x)


def _stack_plot(raw, path):
    fig, ax = plots.plt.subplots(figsize=(10, 3.6))
    for s in raw["stacks"]:
        pts = [p for p in s["points"] if p[1] > 0]
        ax.semilogy([p[0] for p in pts], [p[1] for p in pts], lw=0.9,
                    ls="-" if s["mass_ratio"] == 1 else "--",
                    label=f"n = {s['n']}, mass ratio {s['mass_ratio']:g}, cond(M) = {s['cond_M']:.2g}")
    ax.set(xlabel="PGS sweeps", ylabel="|lambda - lambda*| / |lambda*|", title="block stacks: PGS error vs sweeps")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    plots._save(fig, path)
    return True


def _scatter_plot(raw, path):
    fig, ax = plots.plt.subplots(figsize=(8, 3.6))
    pts = [(r["cond_M"], r[K6]) for r in raw["records"] if r[K6] is not None and r["nc"] > 1]
    ax.loglog([p[0] for p in pts], [max(p[1], 1) for p in pts], ".", ms=4, label="verify cases' contacts (n_c >= 2)")
    st = [(s["cond_M"], s[K6]) for s in raw["stacks"] if s[K6] is not None]
    ax.loglog([p[0] for p in st], [p[1] for p in st], "s", ms=5, label="block stacks")
    ax.set(xlabel="cond2(M)", ylabel=f"sweeps to error {_level(K6)}", title="PGS: sweeps needed vs conditioning of M")
    ax.legend(fontsize=7)
    plots._save(fig, path)
    return True


def render(data, tmp_out, final_out):
    """Writes lcp_solvers.md into tmp_out; returns the list of files written."""
    path = os.path.join(data.data_dir, "lcp_solvers.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    recs = raw["records"]
    multi = [r for r in recs if r["nc"] > 1]
    L = [GENERATED, "", "# Contact LCP solvers: projected Gauss-Seidel vs pivoting (Featherstone Eqs. 11.42-11.43)", "",
         "[Index](index.md) · [Contact dynamics](contact_dynamics.md)", ""]
    L.append("Study status: " + ("every check passes." if raw["pass"] else "**a check failed** (see the table below)."))
    L += ["",
          "The contact family's variants solve the LCP of Eq. 11.42 exactly, by pivoting (Lemke, Cottle-Dantzig), "
          "and are gated to 40 digits against the enumerating oracle. Most real-time simulators use projected "
          "Gauss-Seidel instead (`algorithms/contact_dynamics/pgs.hpp`): each sweep minimises Eq. 11.43's quadratic "
          "over one lambda_i >= 0 at a time. It converges linearly and never ends exactly, so it is measured here "
          "rather than gated: PGS from lambda = 0 against the pivoting solution (contact_dantzig) of the same M and "
          f"d, for up to {fmt.count(raw['max_sweeps'])} sweeps. Error = |lambda - lambda*|_inf / |lambda*|_inf.", ""]
    L += ["## Block stacks", "",
          "n blocks on vertical sliders, each resting on the one below (`cases::block_stack`): every contact carries "
          "the weight above it, lambda_k = g (mass above k), a closed form the pivoting solution meets. The contacts "
          "are coupled in a chain, the case iterative solvers find hardest.", ""]
    rows = [[str(s["n"]), f"{s['mass_ratio']:g}", fmt.sci(s["cond_M"]), fmt.sci(s["pivoting_vs_closed_form"]),
             _sweeps(s[K3]), _sweeps(s[K6]), _sweeps(s[K12]),
             fmt.sci(s["final_error"])] for s in raw["stacks"]]
    L += [fmt.table(["n", "mass ratio", "cond2(M)", "pivoting vs closed form", f"sweeps to {_level(K3)}",
                     f"to {_level(K6)}", f"to {_level(K12)}", "error at the end"], rows, right=tuple(range(8))), "",
          f"A dash: not reached within {fmt.count(raw['max_sweeps'])} sweeps.", "",
          ctx.plot("lcp_solvers_stacks", lambda _data, path: _stack_plot(raw, path)), ""]
    L += ["### The exact solvers on the stacks", "",
          "The contact family's three LCP solvers on the same stacks in double: Lemke's complementary pivoting, "
          "Cottle-Dantzig principal pivoting, and Gauss's principle (Eq. 11.44) as a least-distance QP solved by "
          "Goldfarb and Idnani's dual active-set method on a QR factorization of L^-1 T, which never forms M. "
          "Each one's lambda against the closed form, and |qdd| (zero at rest) over g. The QP's active-set "
          "changes count every constraint added and dropped.", ""]
    rows = []
    for s in raw["stacks"]:
        for e in s["exact_solvers"]:
            rows.append([str(s["n"]), f"{s['mass_ratio']:g}", fmt.sci(s["cond_M"]), f"`{e['variant']}`",
                         fmt.sci(e["lambda_vs_closed_form"]), fmt.sci(e["qdd_over_g"]),
                         fmt.NA if e["active_set_changes"] is None else fmt.count(e["active_set_changes"])])
    L += [fmt.table(["n", "mass ratio", "cond2(M)", "solver", "lambda vs closed form", "|qdd| / g", "active-set changes"],
                    rows, right=(0, 1, 2, 4, 5, 6)), ""]
    if recs:
        to12 = [r[K12] for r in multi if r[K12] is not None]
        L += ["## The verify cases' random contacts", "",
              f"{fmt.count(len(recs))} problems ({raw['seeds']} seeds per verify case with contacts), "
              f"{fmt.count(len(multi))} of them with two or more contacts; cond2(M) from "
              f"{fmt.sci(min(r['cond_M'] for r in recs))} to {fmt.sci(max(r['cond_M'] for r in recs))}. "
              f"With one contact a single sweep is exact. With more, the sweeps PGS needed to reach an error of {_level(K12)}: "
              + (f"median {fmt.count(statistics.median(to12))}, maximum {fmt.count(max(to12))}."
                 if to12 else "none reached it."), ""]
        hardest = sorted(multi, key=lambda r: -(r[K12] if r[K12] is not None else 10 ** 9))[:8]
        rows = [[r["case"], str(r["seed"]), str(r["nc"]), fmt.sci(r["cond_M"]), _sweeps(r[K3]),
                 _sweeps(r[K6]), _sweeps(r[K12]),
                 fmt.NA if r.get("rate_per_sweep") is None else f"{r['rate_per_sweep']:.3g}"] for r in hardest]
        L += ["The hardest of them:", "",
              fmt.table(["case", "seed", "n_c", "cond2(M)", f"sweeps to {_level(K3)}", f"to {_level(K6)}", f"to {_level(K12)}",
                         "error factor per sweep"], rows, right=(1, 2, 3, 4, 5, 6, 7)), "",
              "The error factor per sweep is the geometric mean between the first two levels: the linear rate, "
              "near 1 for slow problems. A factor far below 1 means the error fell at once: when a single contact "
              "is left pressing, the first sweep after PGS releases the others solves it exactly.", "",
              ctx.plot("lcp_solvers_sweeps_vs_cond", lambda _data, path: _scatter_plot(raw, path)), ""]
    fr = raw["friction"]
    if fr:
        slid = [r for r in fr if r["sliding"] > 0]
        to6 = [r[K6] for r in fr if r[K6] is not None]
        to12 = [r[K12] for r in fr if r[K12] is not None]
        L += ["## With Coulomb friction", "",
              "Blocked PGS with friction (`algorithms/friction_dynamics/pgs.hpp`), the scheme of real-time engines, on the "
              "friction family's rows a = G f + g: per contact, the normal force by the frictionless step, then the "
              "tangential force stepped by the largest eigenvalue of its 2 x 2 block and projected onto the polygon of the "
              "contact's pyramid at that normal force (sliding contacts: the kinetic law). Against friction_lemke's "
              "solution of the same G and g, on every verify case and seed whose contacts carry friction. G is singular "
              "wherever a contact's three rows outnumber the joints that move it, so f itself need not be unique; the "
              "error is measured in G's norm, |f - f*|_G / |f*|_G (the H-norm of the acceleration difference).", "",
              f"{fmt.count(len(fr))} problems, {fmt.count(len(slid))} of them with sliding contacts. Sweeps to an error of "
              f"{_level(K6)}: " + (f"median {fmt.count(statistics.median(to6))}, maximum {fmt.count(max(to6))}"
                                   if to6 else "none reached it") +
              f" ({fmt.count(len(fr) - len(to6))} not within {fmt.count(raw['max_sweeps'])}); to {_level(K12)}: "
              + (f"median {fmt.count(statistics.median(to12))}, maximum {fmt.count(max(to12))}"
                 if to12 else "none reached it") + f" ({fmt.count(len(fr) - len(to12))} not reached).", ""]
        hardest = sorted(fr, key=lambda r: -(r[K12] if r[K12] is not None else 10 ** 9))[:8]
        rows = [[r["case"], str(r["seed"]), str(r["nc"]), str(r["sliding"]), _sweeps(r[K3]), _sweeps(r[K6]),
                 _sweeps(r[K12]), fmt.sci(r["final_error"])] for r in hardest]
        L += ["The slowest:", "",
              fmt.table(["case", "seed", "n_c", "sliding", f"sweeps to {_level(K3)}", f"to {_level(K6)}",
                         f"to {_level(K12)}", "error at the end"], rows, right=(1, 2, 3, 4, 5, 6, 7)), "",
              "Nothing guarantees this iteration converges (the polygon grows with lambda_n, so a sweep is not a descent "
              "step of one quadratic); on these problems it always did. The check below fails if it stops reaching "
              "Lemke's solution: projecting onto the square |f_1|, |f_2| <= mu lambda_n instead of the polygon, or "
              "stepping the tangential force by the inverse of its 2 x 2 block instead of a scalar, each converge "
              "elsewhere wherever a contact starts to slip, and both were tried.", ""]
    L += ["## Checks (verify/lcp_solver_study.cpp)", "",
          fmt.table(["check", "measured", "limit", "pass"],
                    [[c["what"], fmt.sci(c["value"]), fmt.sci(c["limit"]), fmt.yesno(c["pass"])] for c in raw["checks"]],
                    right=(1, 2)), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
