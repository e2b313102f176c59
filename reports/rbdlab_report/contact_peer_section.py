"""The section on MuJoCo's contact dynamics as a peer (issue 15), for the performance page, from
reports/data/bench_contact.json (bench/bench_contact.cpp): median times per scene and solver, their ratios to
MuJoCo's step, whether issue 15's target is met on solo12, and the contact-force figures of the context key
rbdlab_contact_forces. Absent file: the section says the timings and forces are not measured. Every number
comes from the JSON."""
import json
import os

from . import fmt
from .bench_medians import by_prefix, cv_cell, medians
from .data import GenerationError, load_json

FILE = "bench_contact.json"
# Issue 15's target: rbdlab's fastest exact solver at most this multiple of MuJoCo's step, on solo12 with its
# four contacts. A requirement, not a measurement.
TARGET_RATIO = 1.0
TARGET_SCENE = "solo12"
FRICTIONLESS = ("contact_lemke", "contact_dantzig", "contact_aba_dantzig", "contact_gauss_qp")
FRICTIONAL = ("friction_lemke", "friction_aba_lemke")
MUJOCO_KINDS = ("mujoco_step", "mujoco_forward", "mujoco_no_collision")


def _pct(x):
    return f"{100 * x:.2f}%"


def _force(x):
    """A force in N to three decimals, a rounding-level negative shown as zero."""
    return f"{x:.3f}".replace("-0.000", "0.000")


def _sci(x):
    return fmt.NA if x is None else f"{x:.1e}"


def _forces(ctx):
    raw = ctx.get("rbdlab_contact_forces")
    if raw is None:
        return []
    try:
        recs = json.loads(raw)
        for r in recs:
            r["scene"], r["solver"], r["sum_over_weight"]
    except (ValueError, KeyError, TypeError) as e:
        raise GenerationError(f"{FILE}: rbdlab_contact_forces is malformed ({e!r})")
    return recs


def _condim_of(friction):
    return "condim3" if friction else "condim1"


def section(data_dir):
    L = ["## Contact dynamics beside MuJoCo's", ""]
    bench = medians(data_dir, FILE)
    if bench is None:
        return L + ["Not measured: `make bench` has not written reports/data/" + FILE + " (`bench/bench_contact.cpp`), "
                    "so there are no timings of the contact solvers beside MuJoCo and no contact-force comparison.", ""]
    ctx = load_json(os.path.join(data_dir, FILE))["context"]
    timing = by_prefix(bench, "contact")
    L += ["`bench/bench_contact.cpp` times rbdlab's contact solvers and MuJoCo "
          f"(version {ctx.get('mujoco_version', '?')}) on the same three resting scenes "
          "(`bench/mujoco_contact_peer.hpp`): a ball on the ground (one contact), a box on its bottom face (four "
          "corners) and the solo12 quadruped standing on four feet with the joint torques that hold its posture. "
          "MuJoCo's model is the exported MJCF with a ground plane and contact geoms, frictionless (condim 1) or "
          "with friction on a pyramidal cone (condim 3), at its default soft-contact parameters. Timed calls: "
          f"{ctx.get('rbdlab_timed_call', '?')}. rbdlab is given its contact points; MuJoCo's step and forward "
          "include its collision detection, and *no collision* is the like-for-like figure. Medians in ns "
          f"({ctx.get('host_name', 'this machine')}, {ctx.get('num_cpus', '?')} CPUs); each ratio is the "
          "solver's median over MuJoCo's step at the matching condim.", ""]
    rows = []
    for scene in sorted(timing):
        t = timing[scene]
        for friction, family in ((False, FRICTIONLESS), (True, FRICTIONAL)):
            step = t.get(f"mujoco_step_{_condim_of(friction)}")
            for v in family:
                r = t.get(v)
                if r is None:
                    continue
                rows.append([scene, f"`{v}`", fmt.count(r["counters"].get("nc", 0)), fmt.ns(r["ns"]), cv_cell(r),
                             fmt.ratio(r["ns"] / step["ns"]) if step else fmt.NA])
            for k in MUJOCO_KINDS:
                r = t.get(f"{k}_{_condim_of(friction)}")
                if r is None:
                    continue
                rows.append([scene, f"`{k}` ({_condim_of(friction)})", fmt.count(r["counters"].get("nc", 0)),
                             fmt.ns(r["ns"]), cv_cell(r), fmt.ratio(r["ns"] / step["ns"]) if step else fmt.NA])
    L += [fmt.table(["scene", "solver", "contacts", "median (ns)", "cv", "/ MuJoCo's step"], rows, right=(2, 3, 4, 5)),
          ""]

    # Issue 15's target on solo12.
    t = timing.get(TARGET_SCENE, {})
    lines = []
    for friction, family in ((False, FRICTIONLESS), (True, FRICTIONAL)):
        step = t.get(f"mujoco_step_{_condim_of(friction)}")
        got = {v: t[v] for v in family if v in t}
        if not step or not got:
            lines.append(f"- {'frictional' if friction else 'frictionless'}: not measured.")
            continue
        best = min(got, key=lambda v: got[v]["ns"])
        ratio = got[best]["ns"] / step["ns"]
        verdict = "met" if ratio <= TARGET_RATIO else "not met"
        # Marginal when the target lies within the two medians' combined run-to-run spread (their cvs).
        spread = ((got[best].get("cv") or 0) ** 2 + (step.get("cv") or 0) ** 2) ** 0.5
        marginal = abs(ratio / TARGET_RATIO - 1) <= spread
        nocol = t.get(f"mujoco_no_collision_{_condim_of(friction)}")
        like = (f" (like for like, against MuJoCo without collision detection, {fmt.ns(nocol['ns'])} ns: "
                f"{fmt.ratio(got[best]['ns'] / nocol['ns'])})") if nocol else ""
        lines.append(f"- {'frictional' if friction else 'frictionless'} ({_condim_of(friction)}): the fastest, "
                     f"`{best}`, takes {fmt.ns(got[best]['ns'])} ns against MuJoCo's step "
                     f"{fmt.ns(step['ns'])} ns{like}: {fmt.ratio(ratio)} of the step, target "
                     f"{fmt.ratio(TARGET_RATIO)} **{verdict}**"
                     + (" - but only within the two medians' run-to-run spread (their cv columns above), so "
                        "another run can decide it the other way." if marginal else "."))
    L += [f"Issue 15's target, rbdlab's fastest exact solver at most {fmt.ratio(TARGET_RATIO)} MuJoCo's step on "
          f"{TARGET_SCENE} standing on its four feet:", ""] + lines + [""]

    # Contact forces at rest.
    recs = _forces(ctx)
    mj = [r for r in recs if r["solver"].startswith("mujoco")]
    if not mj:
        return L + ["Contact forces: not measured (no `rbdlab_contact_forces` in the context).", ""]
    L += ["### Contact forces at rest", "",
          "rbdlab's solvers give the rigid contact forces: at rest they carry the weight exactly (checked before "
          "timing for every solver: the sum equals the weight, complementarity holds, qdd is zero, and where the "
          "forces are unique - ball, solo12 - they equal the distribution behind the torques). MuJoCo's contacts "
          "are soft. At rbdlab's resting state (*at rest*, one `mj_forward`) its constraint solver returns "
          "f = (A + R)^-1 (a_ref - J a_0), with A = J M^-1 J^T and a diagonal regulariser R = (1 - d)/d x "
          "(an approximation of A's diagonal) from solimp's impedance d; a_ref is zero at zero penetration and "
          "velocity. The rigid forces solve A f = -J a_0, so MuJoCo's carry less than the weight and let the body "
          "accelerate into the ground until it has sunk enough for a_ref to hold it. *Predicted* is that formula "
          "evaluated on rbdlab's A and J a_0 with MuJoCo's R and a_ref: it reproduces MuJoCo's forces to rounding, "
          "so the whole difference is the regularisation. *Settled* lets MuJoCo run from the resting state until "
          "it is at rest again (ball and box; solo12's constant joint torques hold no posture once it moves). "
          "*|qacc| / g* is the acceleration MuJoCo's soft contacts leave at rbdlab's resting state, where rbdlab's is "
          "zero: on solo12 it is the light lower legs that take it.", ""]
    rows = []
    for r in mj:
        rows.append([r["scene"], str(r["condim"]), str(r["ncon"]), _pct(r["sum_over_weight"]),
                     _sci(r["max_vs_prediction"]),
                     _pct(r["max_vs_rbdlab"]) if r.get("max_vs_rbdlab") is not None else "indeterminate",
                     _sci(r["qacc_over_g"]),
                     _pct(r["settled_sum_over_weight"]) if r.get("settled") else fmt.NA,
                     (f"{1e3 * r['settled_penetration']:.3f}") if r.get("settled") else fmt.NA])
    L += [fmt.table(["scene", "condim", "contacts", "sum f / weight, at rest", "|f - predicted| / weight",
                     "per contact |f - rbdlab| / weight", "|qacc| / g", "sum f / weight, settled",
                     "penetration settled (mm)"], rows, right=(1, 2, 3, 4, 5, 6, 7, 8)), ""]
    det = [r for r in mj if r.get("fn_rbdlab")]
    if det:
        rows = []
        for r in det:
            for i, (a, b, rel) in enumerate(zip(r["fn"], r["fn_rbdlab"], r["fn_rel_diff"])):
                rows.append([r["scene"], str(r["condim"]), str(i), f"{b:.4f}", f"{a:.4f}", _pct(rel)])
        L += ["Per contact, where the rigid forces are unique (N):", "",
              fmt.table(["scene", "condim", "contact", "rbdlab (rigid)", "MuJoCo at rest", "difference"], rows,
                        right=(1, 2, 3, 4, 5)), ""]
    box = [r for r in mj if not r.get("determinate")]
    rb = [r for r in recs if not r["solver"].startswith("mujoco") and any(b["scene"] == r["scene"] for b in box)]
    if box and rb:
        L += ["On the box the four corners' forces are statically indeterminate: only their sum and moments are "
              "fixed. rbdlab's pivoting solvers return a basic solution (some corners unloaded): "
              + "; ".join(f"`{r['solver']}` " + ", ".join(_force(x) for x in r["fn"]) for r in rb)
              + " N. MuJoCo's regularised problem has a unique minimiser, the even split: "
              + "; ".join(f"condim {r['condim']} " + ", ".join(_force(x) for x in r["fn"]) for r in box) + " N.", ""]
    return L
