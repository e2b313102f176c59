"""The performance page (performance.md), from reports/data/symbolic.json (verify/symbolic_study.cpp:
operation counts of every variant's assignment list before and after simplification, Table 10.3) and, when
`make bench` has run, reports/data/bench_generated.json (bench/bench_generated.cpp: the generated functions
timed beside the generic variants in one run), bench_batch.json and bench_contact.json (MuJoCo's contact
dynamics beside rbdlab's contact solvers, contact_peer_section.py; MuJoCo's equality constraints beside the
closed-loop methods, loop_peer_section.py). Optional: without symbolic.json no page is written. Every
number comes from the JSON."""
import os

from . import fmt
from .bench_medians import cv_cell, medians
from .contact_peer_section import section as contact_peer_section
from .loop_peer_section import section as loop_peer_section
from .data import GenerationError, load_json
from .pages import GENERATED, Context

PAGE = "performance.md"
FAMILY_TITLE = {"inverse_dynamics": "inverse dynamics", "mass_matrix": "mass matrix",
                "forward_dynamics": "forward dynamics", "factorization": "factor + solve"}


def _check(raw, path):
    try:
        t = raw["table_10_3"]
        for k in ("raw", "book_rules", "optimum_operations", "factor", "share_of_possible_saving"):
            t[k]
        for r in raw["records"]:
            for k in ("family", "variant", "case", "n", "traced"):
                r[k]
            if r["traced"]:
                for k in ("raw", "simplified", "removed_by"):
                    r[k]
        for b in raw["best"]:
            for k in ("family", "case", "n", "generic_variant", "generic", "generated_from", "generated",
                      "ratio_m_plus_a"):
                b[k]
        raw["reproductions"]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _ma(c):
    return c["m"] + c["a"]


def _slug(case):
    return case[len("urdf:"):] if case.startswith("urdf:") else case


def _timing_rows(raw, bench, mhz):
    """Per (family, case) with a generated function: its median, the fastest generic variant's, the ratio."""
    rows = []
    for b in raw["best"]:
        fam, case = b["family"], _slug(b["case"])
        tail = f"/{case}/n:{b['n']}"
        gen = bench.get(f"generated/{fam}{tail}")
        if gen is None:
            continue
        generic = {name[len(fam) + 1:-len(tail)]: r for name, r in bench.items()
                   if name.startswith(fam + "/") and name.endswith(tail)}
        if not generic:
            continue
        fastest = min(generic, key=lambda v: generic[v]["ns"])
        source = generic.get(b["generated_from"])
        ops = _ma(b["generated"])
        rows.append([FAMILY_TITLE[fam], b["case"], f"`{fastest}`", fmt.ns(generic[fastest]["ns"]),
                     f"`{b['generated_from']}`", fmt.ns(source["ns"]) if source else fmt.NA,
                     fmt.ns(gen["ns"]), cv_cell(gen), fmt.ratio(gen["ns"] / generic[fastest]["ns"]),
                     f"{ops / (gen['ns'] * mhz * 1e-3):.2f}" if mhz else fmt.NA])
    return rows


def _generated_targets(raw, bench):
    """Issue 17's targets for the generated code, one line per robot and recursion: operation count at most
    0.6x the generic variant with the fewest, and (when make bench has run) time at most 0.5x the fastest
    generic variant's in the same run. Inverse and forward dynamics on ur5, iiwa14 and panda."""
    ops_target, time_target = 0.6, 0.5
    lines = []
    for b in raw["best"]:
        if b["family"] not in ("inverse_dynamics", "forward_dynamics") or b["case"] not in (
                "urdf:ur5", "urdf:iiwa14", "urdf:panda"):
            continue
        ops = b["ratio_m_plus_a"]
        text = (f"- {FAMILY_TITLE[b['family']]}, {b['case']}: operations {fmt.ratio(ops)} "
                f"({'met' if ops <= ops_target else '**not met**'})")
        if bench is not None:
            fam, tail = b["family"], f"/{_slug(b['case'])}/n:{b['n']}"
            gen = bench.get(f"generated/{fam}{tail}")
            generic = [r["ns"] for name, r in bench.items() if name.startswith(fam + "/") and name.endswith(tail)]
            if gen is not None and generic:
                t = gen["ns"] / min(generic)
                text += f", time {fmt.ratio(t)} ({'met' if t <= time_target else '**not met**'})"
        lines.append(text + ".")
    if not lines:
        return []
    return [f"Issue 17's targets for the generated code: at most {ops_target}x the operations of the generic "
            f"variant with the fewest, and at most {time_target}x the time of the fastest generic variant in the "
            "same `make bench` run:", ""] + lines + [""]


def _raw_ops(raw, family, variant, case):
    """m + a of one call of the generic variant on the case (symbolic.json's raw list = the counting scalar's count)."""
    for r in raw["records"]:
        if r["family"] == family and r["variant"] == variant and r["case"] == case and r["traced"]:
            return _ma(r["raw"])
    return None


def _batch_section(data, raw):
    bench = medians(data.data_dir, "bench_batch.json")
    L = ["## Batches of states in the vector unit", ""]
    if bench is None:
        return L + ["`make bench` has not written reports/data/bench_batch.json yet: no timings.", ""]
    ctxinfo = load_json(os.path.join(data.data_dir, "bench_batch.json"))["context"]
    mhz = ctxinfo.get("mhz_per_cpu")
    # batch/<family>/<variant>/<case>/lanes:<N>
    groups, n_states, lane_counts = {}, set(), set()
    for name, r in bench.items():
        parts = name.split("/")
        if len(parts) != 5 or parts[0] != "batch":
            continue
        _, fam, variant, case, lanes = parts
        states = r["counters"].get("states")
        if not states:
            raise GenerationError(f"bench_batch.json: {name} has no 'states' counter")
        n = int(lanes.split(":")[1])
        n_states.add(int(states))
        if n > 1:
            lane_counts.add(n)
        groups.setdefault((fam, case), {}).setdefault(variant, {})[n] = r["ns"] / states
    lane_list = sorted(lane_counts)
    states_txt = "/".join(str(x) for x in sorted(n_states))
    L += ["`Batch<N>` holds N states, one per vector lane, and every variant runs on it unchanged "
          "(`algorithms/batch/`). `bench/bench_batch.cpp` evaluates the same " + states_txt + " states one call at a "
          "time, N = " + ", ".join(map(str, lane_list)) + " at a time, and with MuJoCo, in one run, all compiled with "
          f"`{ctxinfo.get('batch_flags', '?')}`. Time per state = the iteration's median / {states_txt}. "
          "Operations per cycle = the generic variant's m + a on that robot (the counting scalar's count, "
          f"symbolic.json) / (time per state x the clock Google Benchmark reports, {mhz} MHz); sines, cosines "
          "and the copying of states into lanes are in the time but not in the count.", ""]
    rows = []
    for (fam, case), variants in sorted(groups.items()):
        mj = variants.pop("mujoco", {}).get(1)
        for variant, per in sorted(variants.items()):
            single = per.get(1)
            if single is None:
                continue
            best_n = min((n for n in per if n > 1), key=lambda n: per[n], default=None)
            ops = _raw_ops(raw, fam, variant, "urdf:" + case)
            def per_cycle(ns):
                return f"{ops / (ns * mhz * 1e-3):.2f}" if ops and mhz else fmt.NA
            rows.append([FAMILY_TITLE.get(fam, fam), case, f"`{variant}`", fmt.ns(single), per_cycle(single),
                         *(fmt.ns(per[n]) if n in per else fmt.NA for n in lane_list),
                         str(best_n) if best_n else fmt.NA,
                         fmt.ratio(single / per[best_n]) if best_n else fmt.NA,
                         per_cycle(per[best_n]) if best_n else fmt.NA,
                         fmt.ns(mj) if mj else fmt.NA,
                         fmt.ratio(mj / per[best_n]) if (mj and best_n) else fmt.NA])
    L += [fmt.table(["family", "case", "variant", "1 state", "ops/cycle", *(f"N = {n}" for n in lane_list), "best N",
                     "speed-up", "ops/cycle", "MuJoCo", "MuJoCo / best"], rows,
                    right=tuple(range(3, 10 + len(lane_list)))), "",
          "Times are per state, in ns. *Speed-up* is the single call's time per state over the best batch's; "
          "*MuJoCo / best* is MuJoCo's time per state over the best batch's (above 1: the batch is faster).", "",
          "For scale: operations per cycle are not measured against a counter here but computed from the counted "
          "operations and the time. A current x86 core issues about two vector floating-point operations per cycle, "
          "each on as many doubles as the widest vector the flags enable; without fused multiply-adds (rbdlab "
          "builds with contraction off so that results are reproducible) that product is the ceiling. The single "
          "calls' figures show how far scalar-order code with its loads, stores and C-library sines stays from it.", "",
          "A single call takes its sines and cosines from the C library; a batch takes them from "
          "`core/lane_sincos.hpp`, a polynomial written once for a double and for a vector of lanes, so that all "
          "lanes are computed at once and each equals the counting scalar's single call to the bit "
          "(`verify/test_lane_sincos.cpp` holds it within 3 ulps of the correctly rounded value). That is part of "
          "the speed-up, as it is in any vectorised library.", ""]
    # Issue 17's target: throughput per state at least 3x the single-state double variant, on ur5 and
    # panda, for the three recursions. Judged per family and robot on the fastest of each kind, so
    # that a slow variant's large speed-up cannot stand in for the family.
    target = 3.0
    lines = []
    for (fam, case), variants in sorted(groups.items()):
        singles = {v: per[1] for v, per in variants.items() if 1 in per}
        batches = {(v, n): t for v, per in variants.items() for n, t in per.items() if n > 1}
        if not singles or not batches:
            continue
        sv = min(singles, key=singles.get)
        (bv, bn) = min(batches, key=batches.get)
        ratio = singles[sv] / batches[(bv, bn)]
        met = "**met**" if ratio >= target else "**not met**"
        lines.append(f"- {FAMILY_TITLE.get(fam, fam)}, {case}: the fastest single call, `{sv}`, {fmt.ns(singles[sv])} ns "
                     f"per state; the fastest batch, `{bv}` with N = {bn}, {fmt.ns(batches[(bv, bn)])} ns: "
                     f"{fmt.ratio(ratio)}, target {target:.0f}x {met}.")
    if lines:
        L += [f"Issue 17's target, throughput per state at least {target:.0f}x the single-state variant's (fastest "
              "against fastest, same run):", ""] + lines + [""]
    return L


def render(data, tmp_out, final_out):
    """Writes performance.md into tmp_out; returns the list of files written."""
    path = os.path.join(data.data_dir, "symbolic.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    t = raw["table_10_3"]
    L = [GENERATED, "", "# Performance past the generic variants: symbolic simplification (Featherstone section 10.4) "
         "and batches of states", "",
         "[Index](index.md) · [Reproductions](reproductions.md) · source: `algorithms/symbolic/` "
         "(its README.md says how each rule keeps every value)", ""]
    L += ["A generic variant multiplies by the zeros and ones of whatever model it is given. Section 10.4 removes "
          "that arithmetic for one model: a *symbolic executer* runs the algorithm on the model and records every "
          "scalar assignment, with the model's parameters as numbers and the state as unknowns, and a *simplifier* "
          "deletes what the numbers make unnecessary. In rbdlab the executer is a fourth scalar type, "
          "`symbolic::Traced`, so every variant traces itself unchanged. The simplifier applies constant folding, "
          "the identities x*0, x*1, x+0 and their kin (with signs moved out of products and sums, each exact in "
          "IEEE arithmetic), common subexpressions and dead-assignment removal. `rbdlab_codegen` writes the "
          "shortest list of each family as one straight-line C++ function at build time.", ""]
    L += ["## Table 10.3", "",
          "The book's example, p = v x (I v), tau_out = p . s, with I = diag(1.5, 1.6, 1.7) and s = (0, 0, 1):", "",
          fmt.table(["list", "m", "a", "m + a"],
                    [["the executer's assignment file", fmt.count(t["raw"]["m"]), fmt.count(t["raw"]["a"]),
                      fmt.count(_ma(t["raw"]))],
                     ["after the book's rules", fmt.count(t["book_rules"]["m"]), fmt.count(t["book_rules"]["a"]),
                      fmt.count(_ma(t["book_rules"]))],
                     ["the optimum, (I22 - I11) v1 v2", fmt.NA, fmt.NA, fmt.count(t["optimum_operations"])]],
                    right=(1, 2, 3)), "",
          f"The rules cut the cost by a factor of {t['factor']:.2f} and find "
          f"{100 * t['share_of_possible_saving']:.1f}% of the saving the optimum would give. The checks against the "
          "book's printed figures are rows of the [Reproductions](reproductions.md) page.", ""]

    best = raw["best"]
    L += ["## Generated against generic, operation counts", "",
          "For each case and family: the generic variant with the fewest operations, and the simplified list with the "
          "fewest (the variant it was traced from can differ: what the model's zeros remove depends on how the variant "
          "computes). Sines and cosines (one pair per joint, in both) are left out, as Table 10.1 leaves them out.", "",
          fmt.table(["family", "case", "n", "fewest generic", "m + a", "generated from", "m + a", "generated / generic"],
                    [[FAMILY_TITLE[b["family"]], b["case"], str(b["n"]), f"`{b['generic_variant']}`",
                      fmt.count(_ma(b["generic"])), f"`{b['generated_from']}`", fmt.count(_ma(b["generated"])),
                      fmt.ratio(b["ratio_m_plus_a"])] for b in best],
                    right=(2, 4, 6, 7)), ""]
    rec = [b for b in best if b["family"] != "factorization"]
    fac = [b for b in best if b["family"] == "factorization"]
    if rec:
        worst = max(rec, key=lambda b: b["ratio_m_plus_a"])
        bestr = min(rec, key=lambda b: b["ratio_m_plus_a"])
        L += [f"Over the three recursions the ratio runs from {fmt.ratio(bestr['ratio_m_plus_a'])} "
              f"({FAMILY_TITLE[bestr['family']]}, {bestr['case']}) to {fmt.ratio(worst['ratio_m_plus_a'])} "
              f"({FAMILY_TITLE[worst['family']]}, {worst['case']}). GU(n) is the book's general-case model, with "
              "random non-zero geometry and inertias, so it leaves the least to remove; the robots' axis-aligned "
              "frames and joint axes the most."]
    if fac:
        lo, hi = min(b["ratio_m_plus_a"] for b in fac), max(b["ratio_m_plus_a"] for b in fac)
        L += [f"Factor + solve takes H's pattern entries as inputs and has no model constants to fold: its ratio is "
              f"{fmt.ratio(lo)}" + (f" to {fmt.ratio(hi)}" if hi != lo else "") + ", since the sparse "
              "factorization already skips every structural zero; what the generated code saves there is the "
              "index arithmetic (timings below)."]
    L.append("")

    recs = [r for r in raw["records"] if r["traced"]]
    if recs:
        L += ["## Where the savings come from", "",
              "Every traced variant on every case: its raw list (what the counting scalar counts for the same call), "
              "the simplified list, and how many operations each rule removed (counted operations only: m, a, sqrt, "
              "sin, cos; negation is free).", ""]
        rows = []
        for r in recs:
            rb = r["removed_by"]
            rows.append([FAMILY_TITLE[r["family"]], r["case"], f"`{r['variant']}`", fmt.count(_ma(r["raw"])),
                         fmt.count(_ma(r["simplified"])), fmt.ratio(_ma(r["simplified"]) / _ma(r["raw"])),
                         fmt.count(rb["constant_folding"]), fmt.count(rb["identities"]),
                         fmt.count(rb["common_subexpressions"]), fmt.count(rb["dead_assignments"])])
        L += [fmt.table(["family", "case", "variant", "raw m + a", "simplified", "ratio", "folded", "identities",
                         "common", "dead"], rows, right=(3, 4, 5, 6, 7, 8, 9)), ""]
        untraced = [r for r in raw["records"] if not r["traced"]]
        if untraced:
            names = sorted({r["variant"] for r in untraced})
            L += ["Not traceable (a comparison on a value that depends on the state, which straight-line code cannot "
                  "hold): " + ", ".join(f"`{v}`" for v in names) + ".", ""]

    bench = medians(data.data_dir, "bench_generated.json")
    L += ["## Time", ""]
    if bench is None:
        L += ["`make bench` has not written reports/data/bench_generated.json yet: no timings.", ""]
    else:
        ctxinfo = load_json(os.path.join(data.data_dir, "bench_generated.json"))["context"]
        rows = _timing_rows(raw, bench, ctxinfo.get("mhz_per_cpu"))
        L += ["Medians of one `make bench` run (`bench/bench_generated.cpp`): the generated function and every "
              "generic variant of the family on the same case and the same rotating pool of states, in one program, "
              f"compiled by the bench tree's compiler ({ctxinfo.get('host_name', 'this machine')}, "
              f"{ctxinfo.get('num_cpus', '?')} CPUs, {ctxinfo.get('mhz_per_cpu', '?')} MHz). Times in ns. "
              "*generated / fastest* is the generated function's median over the fastest generic variant's; "
              "*ops/cycle* is the generated list's m + a over its time in clock cycles at that clock.", "",
              fmt.table(["family", "case", "fastest generic", "time (ns)", "generated from", "its time", "generated",
                         "cv", "generated / fastest", "ops/cycle"], rows, right=(3, 5, 6, 7, 8, 9)), ""]
    L += _generated_targets(raw, bench)
    L += _batch_section(data, raw)
    L += contact_peer_section(data.data_dir)
    L += loop_peer_section(data.data_dir)
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
