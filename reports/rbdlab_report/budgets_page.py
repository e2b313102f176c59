"""The budgets page (budgets.md): how each result is judged, and how much room it has.

Two bars hold every double-precision error (issue 13, items 2-3):
  - the a-priori budget of its variant's rule (verify/support/budgets.hpp), from accuracy.json
    (budget_rule, budget_eps) and, for the round-off study, roundoff.json;
  - the regression limit of the gate (tools/gate.py): RATIO_LIMIT times the committed baseline
    figure (reports/baselines/accuracy.json), figures under ERR_FLOOR_EPS compared at the floor;
    the factor and the floor come from the measured variation between builds
    (reports/data/gate_variation.json).
The page shows measured / budget and measured / limit per family and variant, how many records
a 10x regression would push over each bar, and the variation study. Every number comes from the
data; RATIO_LIMIT and ERR_FLOOR_EPS are read from tools/gate.py itself.
"""
import importlib.util
import os
import statistics

from . import fmt, plots
from .data import GenerationError, load_json
from .pages import GENERATED, Context

PAGE = "budgets.md"
RULE_FORMULA = {"recursion": "16 (d + 1)", "solve_with_H": "cond2(H) (32 (d + 1) + 4 nv)",
                "articulated_solves": "32 (d + 1) max_i cond2(D_i)",
                "inverse_inertias": "32 (d + 1) max_i lambda_max(I^A_i) / lambda_min(I_i)",
                "solve_with_geared_H": "cond2(G^T H G) (32 (d + 1) + 4 nv)",
                "solve_with_loops": "cond2(Z^T H Z) cond_r(K) (32 (d + 1) + 4 (nv + nc))",
                "solve_with_sparse_loops": "cond_r(A) (32 (d + 1) + 4 m), A = T^T P^T I^-1 P T of m rows",
                "solve_with_contacts": "cond2(Z_A^T H Z_A) cond2(T_A) (32 (d + 1) + 4 (nv + nc))",
                "impact_with_contacts": "cond2(Z_A^T H Z_A) cond2(T_A) (32 (d + 1) + 4 (nv + nc)), A the impact's",
                "solve_with_loop_contacts": "cond2(Z^T H Z) cond_r([K; T_A^T]) (32 (d + 1) + 4 (nv + n^c + nc)), Z spanning the null space of both",
                "friction_with_contacts": "cond2(Z_A^T H Z_A) cond2(K_A) rho_f (32 (d + 1) + 4 (nv + N)), K_A the held rows",
                "extended_articulated_solves": "32 (d + 1) max_i cond2(D_i), D_i of the extended joints",
                "solve_with_extended_H": "cond2(H) (32 (d + 1) + 4 nv), H of the extended joints"}


def _gate(root):
    spec = importlib.util.spec_from_file_location("rbdlab_gate", os.path.join(root, "tools", "gate.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _finite(x):
    return isinstance(x, (int, float)) and x == x and abs(x) != float("inf")


def _own(records):
    """Records of a variant's own code (not those it handed to another variant)."""
    return [r for r in records if not r.get("fallback_to")]


def rows_by_variant(acc, base, ratio_limit, floor):
    """Per (family, variant): the distribution of measured / budget and measured / limit."""
    b = {(r["family"], r["variant"], r["case"]): r for r in base}
    groups = {}
    for r in _own(acc):
        groups.setdefault((r["family"], r["variant"]), []).append(r)
    rows = []
    for (fam, var), rs in groups.items():
        to_budget = [r["err_eps_vs_typical_max"] / r["budget_eps"] for r in rs
                     if _finite(r.get("err_eps_vs_typical_max")) and r.get("budget_eps")]
        to_limit, crosses_budget, crosses_limit, under_floor = [], 0, 0, 0
        for r in rs:
            o = b.get((fam, var, r["case"]))
            if o is None or not _finite(r.get("err_eps_max")):
                continue
            limit = ratio_limit * max(o["err_eps_max"], floor)
            to_limit.append(r["err_eps_max"] / limit)
            crosses_budget += 10 * r["err_eps_vs_typical_max"] > r["budget_eps"]
            crosses_limit += 10 * r["err_eps_max"] > ratio_limit * max(o["err_eps_max"], floor)
            under_floor += 10 * o["err_eps_max"] <= ratio_limit * floor
        rows.append({"family": fam, "variant": var, "rule": rs[0].get("budget_rule", ""), "records": len(rs),
                     "handed_on": sum(1 for r in acc if r["family"] == fam and r["variant"] == var and r.get("fallback_to")),
                     "budget_median": statistics.median(to_budget) if to_budget else None,
                     "budget_max": max(to_budget) if to_budget else None,
                     "limit_max": max(to_limit) if to_limit else None, "compared": len(to_limit),
                     "tenfold_crosses_budget": crosses_budget, "tenfold_crosses_limit": crosses_limit,
                     "under_floor": under_floor, "to_budget": to_budget})
    return rows


def _plot(rows, path):
    fig, ax = plots.plt.subplots(figsize=(7.5, 0.22 * len(rows) + 1.2))
    labels = []
    for k, r in enumerate(rows):
        ys = [k] * len(r["to_budget"])
        ax.scatter(r["to_budget"], ys, s=8, alpha=0.6)
        labels.append(f"{r['family']}/{r['variant']}")
    ax.axvline(1.0, color="k", lw=1)
    ax.axvline(0.1, color="k", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlabel("measured error / a-priori budget, per record (solid: the budget; dashed: a 10x regression reaches it)")
    plots._save(fig, path)
    plots.plt.close(fig)
    return True


def _g(x, d=2):
    return fmt.NA if x is None else f"{x:.{d}g}"


def _variation(v):
    if v is None:
        return ["The variation between builds has not been measured on this tree (`make gate-variation` writes "
                "reports/data/gate_variation.json).", ""]
    L = [f"Measured {v['date']} by `make gate-variation` (reference build: {v['reference_build']}). Per build: the "
         "accuracy records and study figures bit-identical to the reference, and the largest ratio of an error figure "
         f"between the two builds, raw and compared at the {v['err_floor_eps']:g}-eps floor:", ""]
    rows = []
    for name, c in v["configs"].items():
        a = c.get("accuracy", {})
        by = a.get("error_ratio_max_by_floor_eps", {})
        st = c.get("studies", {})
        rows.append([name, c.get("built", ""), f"{a.get('records_bit_identical', 0)} / {a.get('records_compared', 0)}",
                     _g(by.get("0.0"), 3), _g(by.get(str(float(v["err_floor_eps"]))), 3),
                     f"{sum(s['figures_bit_identical'] for s in st.values())} / {sum(s['figures_compared'] for s in st.values())}",
                     _g(max([s["error_ratio_max"] for s in st.values()], default=None), 3)])
    L += [fmt.table(["build", "flags", "accuracy records identical", "largest error ratio (raw)",
                     f"at the {v['err_floor_eps']:g}-eps floor", "study figures identical", "largest study ratio"],
                    rows, right=(2, 3, 4, 5, 6)), ""]
    L += [f"Largest ratio above the floor over every build: **{_g(v['largest_ratio_above_floor'], 3)}**; the gate's "
          f"factor is {v['ratio_limit']:g}. The worst figures:", ""]
    L += [fmt.table(["ratio", "figure"], [[_g(w["value"], 3), w["figure"]] for w in v["worst_above_floor"]], right=(0,)), ""]
    return L


def render(data, tmp_out, final_out):
    acc_path = os.path.join(data.data_dir, "accuracy.json")
    base_path = os.path.join(data.root, "reports", "baselines", "accuracy.json")
    base = load_json(base_path, required=False)
    if base is None:
        return []
    gate = _gate(data.root)
    plots.check_available()
    ctx = Context(data, tmp_out, final_out, [])
    rows = rows_by_variant(data.acc, base["records"], gate.RATIO_LIMIT, gate.ERR_FLOOR_EPS)
    if not rows:
        raise GenerationError(f"{acc_path}: no accuracy records to judge")
    variation = load_json(os.path.join(data.data_dir, "gate_variation.json"), required=False)
    L = [GENERATED, "", "# Budgets and the regression gate", "", "[Index](index.md)", "",
         "Every double-precision error the suite measures is held to two bars. The **a-priori budget** is a first-order "
         "bound derived from how the variant computes (one rule per way of computing, derived in "
         f"[verify/support/budgets.hpp]({ctx.link('verify/support/budgets.hpp')})); `make verify` fails a record over it. "
         f"The **regression limit** is {gate.RATIO_LIMIT:g} times the committed baseline of the same figure "
         f"([reports/baselines/]({ctx.link('reports/baselines')})), errors under {gate.ERR_FLOOR_EPS:g} eps compared "
         f"at {gate.ERR_FLOOR_EPS:g} eps; `make gate` fails a figure over it, and a NaN or inf anywhere. The budget "
         "proves the mathematics of the bound; the limit is what catches a variant that gets worse while staying "
         "under it.", "",
         fmt.table(["rule", "budget (eps)", "used for"],
                   [[k, f, ", ".join(sorted({f"{r['family']}/{r['variant']}" for r in rows if r['rule'] == k}))]
                    for k, f in RULE_FORMULA.items()]), "",
         "## Room under each bar", "",
         "Per family and variant, over its own cases (records it handed to another variant are counted apart): "
         "measured / budget (median and largest, against the typical output size as the sweep gates it), the largest "
         "measured / limit, and on how many records a 10x larger error would cross each bar. Below the floor the "
         "limit is the floor's, so a 10x change of a sub-ulp error can stay under it; those records are counted.", ""]
    t = []
    for r in rows:
        t.append([f"{r['family']}/{r['variant']}", r["rule"], str(r["records"]) + (f" (+{r['handed_on']} handed on)" if r["handed_on"] else ""),
                  _g(r["budget_median"]), _g(r["budget_max"]), _g(r["limit_max"]),
                  f"{r['tenfold_crosses_budget']} / {r['records']}", f"{r['tenfold_crosses_limit']} / {r['compared']}",
                  str(r["under_floor"])])
    L += [fmt.table(["variant", "rule", "cases", "measured/budget median", "max", "measured/limit max",
                     "10x crosses budget", "10x crosses limit", "under the floor"], t, right=(2, 3, 4, 5, 6, 7, 8)), ""]
    img = ctx.plot("budgets_measured_over_budget", lambda d, p: _plot(rows, p))
    if img:
        L += [img, ""]
    L += ["## How much the figures move between builds", ""] + _variation(variation)
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
