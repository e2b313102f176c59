"""The constraints family page (constraints.md), from reports/data/constraints.json (written by
verify/constraints_study.cpp) and algorithms/constraints/README.md. Optional: without
constraints.json no page is written. Every number comes from the JSON through fmt."""
import os

from . import bench_medians, fmt
from .data import GenerationError, load_json
from .pages import GENERATED, Context, embed_readme, read_readme

FAMILY = "constraints"
PAGE = "constraints.md"


def _check(raw, path):
    try:
        for key in ("exactness", "accuracy", "opcounts", "discrepancies", "verdicts", "pass"):
            raw[key]
        for r in raw["exactness"]:
            for k in ("mask", "name", "rows", "exact_digits", "digits_required", "pass"):
                r[k]
        for r in raw["accuracy"]:
            for k in ("mask", "err_eps_max", "err_eps_mean", "worst_seed", "budget_eps", "pass"):
                r[k]
        for r in raw["discrepancies"]:
            for k in ("quantity", "source", "published", "rbdlab_exact", "evidence"):
                r[k]
        for r in raw["verdicts"]:
            for k in ("formula", "holds_as_printed", "max_deviation"):
                r[k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _mask_table(raw):
    acc = {int(r["mask"]): r for r in raw["accuracy"]}
    rows = []
    for r in raw["exactness"]:
        a = acc.get(int(r["mask"]))
        bits = "".join("X" if (int(r["mask"]) >> k) & 1 else "." for k in range(6))
        rows.append([str(r["mask"]), bits, r["name"] or "", str(r["rows"]), fmt.digits(r["exact_digits"]),
                     fmt.NA if a is None else f"{fmt.eps(a['err_eps_max'])} / {fmt.eps(a['err_eps_mean'])}"
                     + ("" if a is None or a["pass"] else " **over budget**"),
                     fmt.yesno(r["pass"] and (a is None or a["pass"]))])
    return fmt.table(["mask", "rows x y z i j k", "name (Table 1)", "rows", "exact digits", "double: max / mean eps", "pass"],
                     rows, right=(0, 3, 4, 5))


def _maximal(raw, ctx):
    mm = raw.get("maximal_vs_minimal")
    if not mm:
        return []
    L = ["## Maximal vs minimal coordinates", "", mm.get("mechanism", ""), ""]
    if "acceleration_digits" in mm:
        L.append(f"KKT accelerations in absolute coordinates against ABA in joint coordinates (Reference): "
                 f"{fmt.digits(mm['acceleration_digits'])} digits at the fewest over {mm.get('states', fmt.NA)} consistent states "
                 f"(required {fmt.digits(mm.get('digits_required', 40))}).")
        L.append("")
    if mm.get("trajectories"):
        rows = [[t["option"], fmt.cell(t["h"]), fmt.cell(t["steps"]), f"{t['max_position_violation']:.3g}",
                 f"{t['max_velocity_violation']:.3g}", f"{t['max_pose_difference']:.3g}"] for t in mm["trajectories"]]
        L += ["Trajectories in double (RK4, the same initial state), maximal route against the minimal route:", "",
              fmt.table(["stabilisation", "h", "steps", "max |C|", "max |C_dot| = |C_v v + C_t|", "max pose difference vs ABA"], rows,
                        right=(1, 2, 3, 4, 5)), ""]
    return L


BENCH_FILE = "bench_constraints.json"
_TERMS = ["C", "C_q7", "C_v", "C_t", "gamma7", "gamma6"]


def _timing(data):
    """Median times of rbdlab_bench_constraints: one lock's terms, and the lock mechanism's forward
    dynamics by KKT in maximal coordinates against ABA in minimal coordinates (issue 7)."""
    med = bench_medians.medians(data.data_dir, BENCH_FILE)
    L = ["## Timing (Google Benchmark, `make bench`)", ""]
    if med is None:
        return L + [f"Not run: `make bench` writes reports/data/{BENCH_FILE}.", ""]
    rows = [[t, fmt.ns(med[f"constraints/{t}/lock"]["ns"]), bench_medians.cv_cell(med[f"constraints/{t}/lock"])]
            for t in _TERMS if f"constraints/{t}/lock" in med]
    L += [f"Medians over repetitions (reports/data/{BENCH_FILE}). One full six-row lock between two bodies:", "",
          fmt.table(["term", "median ns", "cv"], rows, right=(1, 2)), ""]
    kkt = med.get("constraints/forward_dynamics/maximal_kkt/lock_mechanism")
    aba = med.get("constraints/forward_dynamics/minimal_aba/lock_mechanism")
    if kkt and aba:
        c = kkt["counters"]
        L += ["Forward dynamics of the lock mechanism (above), the same state and forces, one call:", "",
              fmt.table(["route", "unknowns", "median ns", "cv"],
                        [["maximal coordinates, KKT", f"{fmt.count(c.get('nv_maximal', 0))} velocities + "
                          f"{fmt.count(c.get('lock_rows', 0))} multipliers", fmt.ns(kkt["ns"]), bench_medians.cv_cell(kkt)],
                         ["minimal coordinates, ABA", f"{fmt.count(c.get('nv_minimal', 0))} velocities",
                          fmt.ns(aba["ns"]), bench_medians.cv_cell(aba)]], right=(2, 3)), "",
              f"The maximal route costs {fmt.ratio(kkt['ns'] / aba['ns'])} the minimal one in this run.", ""]
    return L


def render(data, tmp_out, final_out):
    """Writes constraints.md into tmp_out; returns the list of files written (for the manifest)."""
    path = os.path.join(data.data_dir, "constraints.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    readme = read_readme(ctx, FAMILY)
    L = [GENERATED, "", "# Constraints: quaternion lock and its 64 joints (seed 001)", "",
         "[Index](index.md) · [Reproductions](reproductions.md)", ""]
    L.append("Gate status: " + ("all constraints checks pass." if raw["pass"] else "**a constraints check failed** (see below)."))
    ex, acc = raw["exactness"], raw["accuracy"]
    if ex and acc:
        worst_d = min(ex, key=lambda r: r["exact_digits"])
        worst_e = max(acc, key=lambda r: r["err_eps_max"])
        L += ["", f"Over the {len(ex)} masks with at least one row: fewest exact digits "
              f"{fmt.digits(worst_d['exact_digits'])} (mask {worst_d['mask']}, {worst_d.get('worst_case', '')}); "
              f"worst double error {fmt.eps(worst_e['err_eps_max'])} eps (mask {worst_e['mask']}, budget "
              f"{fmt.eps(worst_e['budget_eps'])} eps)."]
    L += ["", "## Exactness and accuracy by mask", "",
          "Exact digits: the masked rows of C, C_q7 q_dot + C_t, C_v v + C_t, C_q7 q_ddot - gamma7 and "
          "C_v v_dot - gamma6 in Reference against the AD oracle's C, C_dot, C_ddot (fewest over the "
          "trajectories and terms). Double: the same terms (C, C_q7, C_v, C_t, gamma7, gamma6) in double "
          "against Reference on the same inputs, normwise over the masked rows.", "", _mask_table(raw), ""]
    rows = [[name, fmt.count(c["m"]), fmt.count(c["a"]), fmt.count(c.get("sqrt", 0))] for name, c in raw["opcounts"].items()]
    L += ["## Operation counts (Counted scalar, full six-row lock)", "",
          fmt.table(["term", "m", "a", "sqrt"], rows, right=(1, 2, 3)), ""]
    L += _maximal(raw, ctx)
    L += _timing(data)
    L += ["## The seed's printed formulas", "",
          fmt.table(["formula", "holds as printed", "largest deviation of the printed form"],
                    [[v["formula"], fmt.yesno(v["holds_as_printed"]), v["max_deviation"]] for v in raw["verdicts"]]), ""]
    L += ["### Found wrong", ""]
    if not raw["discrepancies"]:
        L.append("None.")
    for d in raw["discrepancies"]:
        L += [f"#### {d['quantity']}", "", f"- source: {d['source']}", f"- printed: `{d['published']}`",
              f"- corrected: {d['rbdlab_exact']}", f"- evidence: {d['evidence']}"]
        if d.get("test"):
            L.append(f"- test: [{d['test']}]({ctx.link(d['test'])})")
        L.append("")
    if readme:
        L += ["## The family (algorithms/constraints/README.md)", "", embed_readme(ctx, FAMILY, readme), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
