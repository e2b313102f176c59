"""The section on MuJoCo's forward dynamics with equality constraints as a peer for the closed-loop variants
(issue 14), for the performance page, from reports/data/bench_loops.json (bench/bench_loops.cpp): median times
per mechanism and method, their ratios to MuJoCo's mj_forward, whether issue 14's target is met, and the
agreement figures of the context key rbdlab_loop_agreement. Absent file: the section says so. Every number comes
from the JSON."""
import json
import os

from . import fmt
from .bench_medians import by_prefix, cv_cell, medians
from .data import GenerationError, load_json

FILE = "bench_loops.json"
# Issue 14's target: the fastest exact method at most this multiple of MuJoCo's time on each mechanism.
# A requirement, not a measurement.
TARGET_RATIO = 0.7
METHODS = ("loop_kkt", "loop_lambda_first", "loop_nullspace", "loop_clustered_nullspace", "loop_proximal",
           "loop_sparse_matrix")
MUJOCO = "mujoco_forward"


def _agreement(ctx):
    raw = ctx.get("rbdlab_loop_agreement")
    if raw is None:
        return []
    try:
        recs = json.loads(raw)
        for r in recs:
            r["mechanism"], r["method"]
    except (ValueError, KeyError, TypeError) as e:
        raise GenerationError(f"{FILE}: rbdlab_loop_agreement is malformed ({e!r})")
    return recs


def _version(v):
    """MuJoCo's mj_version() as printed by the benchmark (222) in its dotted form (2.2.2)."""
    return ".".join(v) if isinstance(v, str) and v.isdigit() and len(v) == 3 else v


def section(data_dir):
    L = ["## Closed loops beside MuJoCo's equality constraints", ""]
    bench = medians(data_dir, FILE)
    if bench is None:
        return L + ["Not measured: `make bench` has not written reports/data/" + FILE + " (`bench/bench_loops.cpp`), "
                    "so there are no timings of the closed-loop methods beside MuJoCo.", ""]
    ctx = load_json(os.path.join(data_dir, FILE))["context"]
    timing = by_prefix(bench, "loops")
    L += ["`bench/bench_loops.cpp` times rbdlab's closed-loop methods and MuJoCo "
          f"(version {_version(ctx.get('mujoco_version', '?'))}) on mechanisms read from the same MJCF by both "
          "(`cases/closed_mjcf.hpp`): the planar four-bar and five-bar and the Stewart-Gough platform of "
          "`examples/mjcf/` "
          "(`<connect>`s) and the floating humanoid standing with both feet `<weld>`ed. Timed calls: "
          f"{ctx.get('rbdlab_timed_call', '?')}. Medians in ns ({ctx.get('host_name', 'this machine')}, "
          f"{ctx.get('num_cpus', '?')} CPUs); *nc* is the loop constraint rows, *rank* K's rank; each ratio is "
          "the method's median over MuJoCo's.", ""]
    rows = []
    for mech in sorted(timing):
        t = timing[mech]
        mj = t.get(MUJOCO)
        for v in METHODS + (MUJOCO,):
            r = t.get(v)
            if r is None:
                continue
            c = r["counters"]
            rows.append([mech, f"`{v}`", fmt.count(c.get("nv", 0)), fmt.count(c.get("nc", 0)),
                         fmt.count(c.get("rank", 0)), fmt.ns(r["ns"]), cv_cell(r),
                         fmt.ratio(r["ns"] / mj["ns"]) if mj else fmt.NA])
    L += [fmt.table(["mechanism", "method", "nv", "nc", "rank", "median (ns)", "cv", "/ MuJoCo"], rows,
                    right=(2, 3, 4, 5, 6, 7)), ""]
    lines = []
    for mech in sorted(timing):
        t = timing[mech]
        mj = t.get(MUJOCO)
        got = {v: t[v] for v in METHODS if v in t}
        if not mj or not got:
            lines.append(f"- {mech}: not measured.")
            continue
        best = min(got, key=lambda v: got[v]["ns"])
        ratio = got[best]["ns"] / mj["ns"]
        spread = ((got[best].get("cv") or 0) ** 2 + (mj.get("cv") or 0) ** 2) ** 0.5
        marginal = abs(ratio / TARGET_RATIO - 1) <= spread
        lines.append(f"- {mech}: the fastest, `{best}`, {fmt.ns(got[best]['ns'])} ns against MuJoCo's "
                     f"{fmt.ns(mj['ns'])} ns: {fmt.ratio(ratio)}, target {fmt.ratio(TARGET_RATIO)} "
                     f"**{'met' if ratio <= TARGET_RATIO else 'not met'}**"
                     + (" - within the two medians' run-to-run spread, so another run may decide it the other way."
                        if marginal else "."))
    L += [f"Issue 14's target, the fastest exact method at most {fmt.ratio(TARGET_RATIO)} MuJoCo's time on each "
          "mechanism:", ""] + lines + [""]
    recs = _agreement(ctx)
    if recs:
        rows = []
        for r in recs:
            if "rel_diff_at_rest" in r:
                rows.append([r["mechanism"], f"`{r['method']}`", "rbdlab's qdd at rest (qd = 0)",
                             fmt.sci(r["rel_diff_at_rest"]), f"solimp {r.get('solimp', '?')}, {r.get('nefc', '?')} rows"])
            elif r["method"] != "loop_kkt":  # the reference the others are held to
                rows.append([r["mechanism"], f"`{r['method']}`", "loop_kkt's qdd", fmt.sci(r["rel_diff_vs_loop_kkt"]),
                             ""])
        L += ["Checked before timing (relative difference, free joints left out of MuJoCo's: its free-joint "
              "accelerations are world-linear and body-angular). MuJoCo's equality constraints are soft: its solver "
              "adds R = (1 - d)/d x (A's diagonal) to the constraint-space inverse inertia A, so its accelerations "
              "at rest differ by O(1 - d), and moving it drops K's velocity product (J qacc is driven to zero where "
              "Eq. 8.9 has K qdd = k); `verify/test_mjcf_loader.cpp` measures both.", "",
              fmt.table(["mechanism", "method", "against", "difference", "notes"], rows, right=(3,)), ""]
    return L
