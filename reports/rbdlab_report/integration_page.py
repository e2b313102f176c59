"""The integration family page (integration.md), from reports/data/integration.json (written by
verify/integration_study.cpp) and algorithms/integration/README.md: the reproduction of seed 004
(Mueller & Terze, DETC2013-12151), Munthe-Kaas on SE(3) vs SO(3)xR3; the independent truth of the
order study (Gragg-Bulirsch-Stoer on quaternion coordinates) and its cross-check with the former
one; the two readings of the heavy top's Eqs. 38-42. Optional: without integration.json no page is
written. Every number comes from the JSON."""
import os

from . import bench_medians, fmt, plots
from .data import GenerationError, load_json
from .pages import GENERATED, Context, embed_readme, read_readme

FAMILY = "integration"
PAGE = "integration.md"
LINES = {"rkmk4_se3": "-", "rkmk4_so3xr3": "--", "quat_rk4": ":"}


def _check(raw, path):
    try:
        for key in ("lie_accuracy", "printed_formulas", "systems", "verdict", "discrepancies", "pass", "constants",
                    "heavy_top_readings"):
            raw[key]
        for s in raw["systems"]:
            for k in ("id", "title", "choices", "runs", "order", "cost", "E0"):
                s[k]
            for r in s["runs"]:
                for k in ("variant", "scalar", "t", "energy_drift", "joints", "max_energy_drift", "max_energy_drift_1s"):
                    r[k]
            for v in s["order"]["variants"]:
                for k in ("variant", "errors", "order", "order_full_range", "pass"):
                    v[k]
            for k in ("method", "columns", "order", "macro_steps", "H", "evaluations", "halving_diff", "tableau_estimate",
                      "error_estimate", "position_residual", "velocity_residual", "energy_change"):
                s["order"]["reference"][k]
            for k in ("against", "h", "error_estimate", "distance", "distance_over_estimate", "factor", "pass"):
                s["order"]["cross_check"][k]
        for rd in raw["heavy_top_readings"]["readings"]:
            for k in ("reading", "label", "runs", "max_energy_drift"):
                rd[k]
        for v in raw["verdict"]:
            for k in ("where", "claim", "confirmed", "evidence"):
                v[k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _bench_step_ns(data_dir):
    """Median ns per RK4 step from bench_integration.json (Google Benchmark, `make bench`), keyed by
    (variant, system id); empty when that file is absent. Names: integration/VARIANT/SYSTEM/n:BODIES."""
    out = {}
    for name, r in (bench_medians.medians(data_dir, "bench_integration.json") or {}).items():
        parts = name.split("/")
        if len(parts) >= 4 and parts[0] == "integration":
            out[(parts[1], parts[2])] = r["ns"]
    return out


def _with_bench_times(system, bench_ns):
    """The system's cost rows, with ns_per_step from the benchmark medians where they exist
    (the study's own figure is one wall-clock run, kept only when no benchmark ran)."""
    rows = []
    for c in system["cost"]:
        c = dict(c)
        ns = bench_ns.get((c["variant"], system["id"]))
        c["timed_by"] = "benchmark median" if ns is not None else "one study run"
        if ns is not None:
            c["ns_per_step"] = ns
            c["ns_per_body_update"] = ns / max(system["bodies"], 1)
        rows.append(c)
    return rows


def _sci(x):
    return f"{x:.2g}"


# ------------------------------------------------------------------ plots
def _lie_accuracy_plot(raw, path):
    a = raw["lie_accuracy"]
    th = a["theta"]
    fig, (ax1, ax2) = plots.plt.subplots(1, 2, figsize=(9, 3.6))
    for name, errs in a["functions"].items():
        ax1.plot(th, [max(e, 1e-2) for e in errs], label=name, lw=0.8)
    ax1.set(xscale="log", yscale="log", xlabel="rotation angle |w| (rad)", ylabel="error / eps",
            title="closed forms in double vs Reference")
    ax1.legend(ncol=2)
    for name, br in a["coefficients"].items():
        line, = ax2.plot(th, [max(e, 1e-2) for e in br["series"]], lw=0.8, label=f"{name} series")
        ax2.plot(th, [max(e, 1e-2) for e in br["closed"]], lw=0.8, ls="--", color=line.get_color(), label=f"{name} closed")
    ax2.axvline(a["threshold_theta"]["A_B"], color="grey", lw=0.6, ls=":")
    ax2.set(xscale="log", yscale="log", xlabel="|w| (rad)", ylabel="error / eps",
            title="coefficients, each branch forced (dotted: A, B switch)")
    ax2.set_ylim(1e-2, 1e17)
    ax2.legend(ncol=2, fontsize=5)
    plots._save(fig, path)
    return True


def _violation_plot(system, path):
    runs = [r for r in system["runs"]]
    nj = system["joints"]
    if nj == 0:
        return False
    fig, axes = plots.plt.subplots(2, nj, figsize=(3.3 * nj, 5.2), squeeze=False)
    for j in range(nj):
        for row, span in enumerate((1.0, 10.0)):
            ax = axes[row][j]
            for r in runs:
                if r["scalar"] != "double" and span > 1.0:
                    continue
                pts = [(t, g) for t, g in zip(r["t"], r["joints"][j]["position"]) if t <= span + 1e-9]
                style = LINES.get(r["variant"], "-")
                label = r["variant"] + ("" if r["scalar"] == "double" else " (Reference)")
                ax.plot([t for t, _ in pts], [max(g, 1e-17) for _, g in pts], ls=style, lw=0.8 if r["scalar"] == "double" else 1.6,
                        alpha=1.0 if r["scalar"] == "double" else 0.6, label=label)
            ax.set(yscale="log", xlabel="t (s)", ylabel="|g| (m)" if j == 0 else None,
                   title=f"joint {j + 1}, {span:g} s")
            if j == 0 and row == 0:
                ax.legend(fontsize=5)
    fig.suptitle(f"{system['title']}: position-constraint violation, h = 1 ms", fontsize=9)
    plots._save(fig, path)
    return True


def _energy_plot(system, path):
    fig, (a1, a2) = plots.plt.subplots(1, 2, figsize=(8, 3))
    for r in system["runs"]:
        label = r["variant"] + ("" if r["scalar"] == "double" else " (Reference)")
        for ax, span in ((a1, 1.0), (a2, 10.0)):
            if r["scalar"] != "double" and span > 1.0:
                continue
            pts = [(t, e) for t, e in zip(r["t"], r["energy_drift"]) if t <= span + 1e-9]
            ax.plot([t for t, _ in pts], [e for _, e in pts], ls=LINES.get(r["variant"], "-"), lw=0.8, label=label)
    for ax, span in ((a1, 1.0), (a2, 10.0)):
        ax.set(xlabel="t (s)", ylabel="E - E0 (J)", title=f"energy drift, {span:g} s")
    a1.legend(fontsize=5)
    plots._save(fig, path)
    return True


def _order_plot(system, path):
    o = system["order"]
    h = o["h"]
    fig, ax = plots.plt.subplots(figsize=(4.2, 3.4))
    for v in o["variants"]:
        ax.plot([x * 1e3 for x in h], v["errors"], "o", ls=LINES.get(v["variant"], "-"), lw=0.8, markersize=3,
                label=f"{v['variant']} (p = {fmt.slope(v['order'])})")
    e0 = o["variants"][0]["errors"][-1]
    ax.plot([x * 1e3 for x in h], [e0 * (x / h[-1]) ** 4 for x in h], color="grey", lw=0.6, ls=":", label="slope 4")
    ax.set(xscale="log", yscale="log", xlabel="h (ms)", ylabel="configuration error at T",
           title=f"{system['id']}: error vs h, T = {o['T']:g} s")
    ax.legend(fontsize=5)
    plots._save(fig, path)
    return True


def _work_precision_plot(system, path):
    o = system["order"]
    cost = {c["variant"]: c for c in system["cost"]}
    fig, ax = plots.plt.subplots(figsize=(4.2, 3.4))
    for v in o["variants"]:
        c = cost.get(v["variant"])
        if not c:
            continue
        t = [c["ns_per_step"] * 1e-9 * round(o["T"] / h) for h in o["h"]]
        ax.plot(t, v["errors"], "o", ls=LINES.get(v["variant"], "-"), lw=0.8, markersize=3, label=v["variant"])
    ax.set(xscale="log", yscale="log", xlabel="time to solution (s): steps x median ns/step", ylabel="configuration error",
           title=f"{system['id']}: work vs precision")
    ax.legend(fontsize=5)
    plots._save(fig, path)
    return True


def _readings_plot(readings, path):
    fig, (a1, a2) = plots.plt.subplots(1, 2, figsize=(8, 3))
    for ax, rd in zip((a1, a2), readings["readings"]):
        for r in rd["runs"]:
            ax.plot(r["t"], [max(abs(e), 1e-9) for e in r["energy_drift"]], ls=LINES.get(r["variant"], "-"), lw=0.8,
                    label=r["variant"])
        ax.set(xlabel="t (s)", ylabel="|T - T0| (J)", title=rd["label"].split(":")[0], yscale="log")
        ax.legend(fontsize=5)
    fig.suptitle("heavy top: kinetic-energy drift, h = 1 ms (the two readings of Eqs. 38-42)", fontsize=9)
    plots._save(fig, path)
    return True


def _plot(ctx, name, fn, *args):
    rel = f"plots/{name}.svg"
    if fn(*args, os.path.join(ctx.tmp_out, rel)):
        ctx.written.append(rel)
        return f"![{name}]({rel})"
    return ""


# ------------------------------------------------------------------ page
def _system_section(ctx, s, const):
    L = [f"## {s['title']}", "", f"Source: {s.get('source', fmt.NA)}. {s['bodies']} bodies, {s['joints']} spherical joints; "
         f"initial energy E0 = {s['E0']:.6g} J (kinetic {s.get('T0', 0):.6g} J).", ""]
    if s["choices"]:
        L += ["Choices where the paper is silent (recorded in [cases/lie_systems.hpp]("
              f"{ctx.link('cases/lie_systems.hpp')})):", ""] + [f"- {c}" for c in s["choices"]] + [""]
    rows = []
    for r in s["runs"]:
        span = r["T"]
        for jt in r["joints"]:
            rows.append([r["variant"], r["scalar"], f"{span:g}", str(jt["joint"]), _sci(jt["max_position_1s"]),
                         _sci(jt["max_position"]), _sci(jt["max_velocity_1s"]), _sci(jt["max_velocity"])])
    if rows:
        L += [f"Largest constraint violation at h = {const['h'] * 1e3:g} ms (position |g| in m, velocity |J V| in m/s; "
              "Reference runs cover the first "
              f"{const['T_reference']:g} s and show the method error without round-off):", "",
              fmt.table(["variant", "scalar", "run (s)", "joint", "|g| max, 1 s", "|g| max, run", "|Jv| max, 1 s",
                         "|Jv| max, run"], rows, right=(2, 3, 4, 5, 6, 7)), ""]
    L += [_plot(ctx, f"integration_{s['id']}_violation", _violation_plot, s), ""]
    erows = [[r["variant"], r["scalar"], _sci(r["max_energy_drift_1s"]), _sci(r["max_energy_drift"]),
              _sci(r["max_energy_drift"] / abs(s["E0"])) if s["E0"] else fmt.NA] for r in s["runs"]]
    L += ["Energy drift max |E - E0| (J):", "", fmt.table(["variant", "scalar", "1 s", "run", "relative"], erows, right=(2, 3, 4)),
          "", _plot(ctx, f"integration_{s['id']}_energy", _energy_plot, s), ""]
    o = s["order"]
    ref, xc = o["reference"], o["cross_check"]
    orows = [[v["variant"], fmt.slope(v["order"]), " ".join(f"{h * 1e3:g}" for h in v.get("gated_h", [])),
              fmt.slope(v["order_full_range"]), _sci(v["errors"][0]), _sci(v["errors"][-1]), fmt.yesno(v["pass"])]
             for v in o["variants"]]
    L += [f"Convergence order: configuration error at T = {o['T']:g} s against an independent Reference solution "
          f"({ref['method']}; k = {ref['columns']} columns, order {ref['order']}, {ref['macro_steps']} macro steps of "
          f"H = {ref['H'] * 1e3:g} ms, {ref['evaluations']} field evaluations). Its own error estimate is "
          f"{_sci(ref['error_estimate'])} m: the larger of the distance to the same run with H doubled "
          f"({_sci(ref['halving_diff'])} m) and its extrapolation tableau's summed |T_kk - T_k,k-1| "
          f"({_sci(ref['tableau_estimate'])} m). Its own physics at T: |E - E0| = {_sci(ref['energy_change'])} J, "
          f"|g| = {_sci(ref['position_residual'])} m (at t = 0: {_sci(ref.get('initial_position_residual', 0))} m, the "
          f"initial configuration as built in double), |J V| = {_sci(ref['velocity_residual'])} m/s.", "",
          f"Cross-check: the former truth, {xc['against']} at h = {xc['h'] * 1e6:g} us, lies {_sci(xc['distance'])} m "
          f"from it; its own Richardson estimate is {_sci(xc['error_estimate'])} m (ratio {xc['distance_over_estimate']:.3g}), "
          f"and the check needs the distance within {xc['factor']:g} x that + the new estimate: "
          f"{'pass' if xc['pass'] else '**fail**'}.", "",
          f"The order check fits the steps with h * max|w| <= {o.get('asymptotic_h_rho', 0):g} rad (max|w| = "
          f"{o.get('rho', 0):.3g} rad/s), needs 4 +- {const['order_tolerance']:g} and the truth's estimate below "
          f"{o.get('truth_margin', 0):g} x the smallest error fitted; the fit over all of 8..0.5 ms is beside it.",
          "", fmt.table(["variant", "order (checked)", "checked h (ms)", "order 8..0.5 ms", "error at 8 ms", "error at 0.5 ms", "pass"],
                        orows, right=(1, 3, 4, 5)), "",
          _plot(ctx, f"integration_{s['id']}_order", _order_plot, s), " ",
          _plot(ctx, f"integration_{s['id']}_work_precision", _work_precision_plot, s), ""]
    if "step_roundoff" in s:
        rrows = [[r["variant"], str(r["states"]), _sci(r["configuration_eps"]), _sci(r["velocity_eps"])] for r in s["step_roundoff"]]
        L += ["Round-off of one step on its own: the same RK4 step at h = 1 ms from the same state (exact in both scalars) "
              "in double and in Reference, largest difference over states along the first "
              f"{const['T_reference']:g} s (configuration in eps x 1 m, velocity in eps relative to the largest body twist). "
              "The trajectory figures above are truncation error; this one is the double arithmetic alone, and the "
              "regression gate holds it to its baseline.", "",
              fmt.table(["variant", "states", "configuration (eps)", "velocity (eps)"], rrows, right=(1, 2, 3)), ""]
    crows = [[c["variant"], fmt.count(c["m"]), fmt.count(c["a"]), fmt.count(c["sin"] + c["cos"]), fmt.count(c["sqrt"]),
              fmt.ns(c["ns_per_step"]), fmt.ns(c["ns_per_body_update"]), c["timed_by"]] for c in s["cost"]]
    L += ["Cost of one RK4 step at h = 1 ms (operation counts from the Counted scalar; times are the median of "
          "`make bench`'s repetitions (bench_integration.json) where it ran, else one wall-clock run of 2000 steps "
          "in the study; not gated):", "",
          fmt.table(["variant", "m", "a", "sin+cos", "sqrt", "ns/step", "ns/body update", "timed by"], crows,
                    right=(1, 2, 3, 4, 5, 6)), ""]
    return L


def _readings_section(ctx, raw):
    rds = raw["heavy_top_readings"]
    L = ["## Heavy top: two readings of Eqs. 38-42 (section 5.1, Fig. 3)", "",
         "The pivot constraint is printed as g = r0 - R^T r^s (Eq. 38), r0 the COM seen from the pivot in the body frame. "
         "Its derivative has rows with R^T r^s (Eq. 39); the index-1 systems of Eqs. 40 and 42 put the constant r0 in its "
         "place, \"where (38) is assumed satisfied\". On SO(3)xR3 the pivot drifts, and then the two are different "
         "equations, so each is run and judged: (a) J and eta of Eqs. 40/42 with the fixed r0 (what the variants of "
         "algorithms/integration solve), and (b) Eq. 3's J(q) and eta(q, V) = -Jdot V of Eq. 38 at the current "
         "configuration, r0 replaced by p = R^T r^s. On the constraint manifold both are the same; off it, (b) applies "
         "the reaction at the drifted point and holds the offset p - r0 to a zero second derivative, while (a) keeps the "
         "body point r0 on the pivot's velocity and acceleration constraints. Both groups, both readings, "
         f"RK4 Munthe-Kaas, h = {raw['constants']['h'] * 1e3:g} ms, {raw['constants']['T_long']:g} s, double "
         "(verify/support/lie_integration.hpp).", ""]
    rows = []
    for rd in rds["readings"]:
        for r in rd["runs"]:
            j = r["joints"][0]
            rows.append([rd["label"].split(":")[0], r["variant"], _sci(r["max_energy_drift_1s"]), _sci(r["max_energy_drift"]),
                         _sci(j["max_position"]), _sci(j["max_velocity"])])
    L += [fmt.table(["reading", "variant", "max |T - T0|, 1 s (J)", "max |T - T0|, 10 s (J)", "pivot max |g| (m)",
                     "pivot max |Jv| (m/s)"], rows, right=(2, 3, 4, 5)), ""]
    verdicts = [v for v in raw["verdict"] if v.get("reading")]
    for v in verdicts:
        L.append(f"- {'confirmed' if v['confirmed'] else '**contradicted**'}: {v['evidence']}")
    L += ["", _plot(ctx, "integration_heavy_top_readings", _readings_plot, rds), ""]
    return L


def render(data, tmp_out, final_out):
    """Writes integration.md into tmp_out; returns the list of files written (for the manifest)."""
    path = os.path.join(data.data_dir, "integration.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    const = raw["constants"]
    L = [GENERATED, "", "# Integration: Munthe-Kaas on SE(3) vs SO(3)xR3 (seed 004)", "",
         "[Index](index.md) · [Reproductions](reproductions.md)", "",
         "Gate status: " + ("all integration gates pass." if raw["pass"] else "**an integration gate failed**: " +
                            "; ".join(raw.get("failures", [])) + "."), "",
         f"The regression gate compares {len(raw.get('gated_figures', []))} figures of this study with their baseline "
         "(energy drifts, constraint violations, fitted orders, the truth's error estimate and cross-check, printed "
         "formulas' digits, operation counts).", "",
         "Reproduces Mueller & Terze, *Is there an optimal choice of configuration space for Lie group integration "
         "schemes applied to constrained MBS?* (DETC2013-12151, seed 004): the four systems of its section 5 integrated "
         "with the Munthe-Kaas scheme of its Eq. 37 (classical RK4 tableau) on both configuration groups, plus a "
         "quaternion RK4 baseline.", ""]
    L += ["## Verdict on the paper's conclusions", "",
          f"'Similar' means maxima within a factor {const['similar_factor']:g}; 'to computing accuracy' means below "
          f"{_sci(const['roundoff_10s_m'])} m over 10 s (10^4 steps x 0.5 m x 8 eps).", "",
          fmt.table(["where", "claim", "reading", "measured", "evidence"],
                    [[v["where"], v["claim"], v.get("reading_label", "").split(":")[0] or "–",
                      "confirmed" if v["confirmed"] else "**contradicted**", v["evidence"]]
                     for v in raw["verdict"]]), ""]
    L += _readings_section(ctx, raw)
    L += ["## The printed formulas (section 2)", "",
          fmt.table(["equation", "digits vs series", "right", "note"],
                    [[p["equation"], fmt.digits(p["digits"]), fmt.yesno(p["correct"]), p["note"]] for p in raw["printed_formulas"]],
                    right=(1,)), ""]
    if raw["discrepancies"]:
        L += ["Found wrong (also in this run's discrepancy list):", ""]
        for d in raw["discrepancies"]:
            L += [f"- **{d['quantity']}** ({d['source']}): printed `{d['published']}`; rbdlab: {d['rbdlab_exact']}. "
                  f"Evidence: {d['evidence']}"]
        L.append("")
    a = raw["lie_accuracy"]
    L += ["## Accuracy of the closed forms in double", "",
          f"Each SO(3)/SE(3) function in double against the same in Reference (held to the series to 40 digits by "
          f"[test_lie_groups.cpp]({ctx.link('verify/test_lie_groups.cpp')})), at {len(a['theta'])} angles from 1e-8 to pi; "
          f"worst {fmt.eps(a['worst_eps'])} eps (budget {fmt.eps(a.get('budget_eps', 0))} eps, "
          f"{'pass' if a.get('pass', True) else '**over budget**'}). Right: each coefficient's two branches forced over the whole range; the "
          f"series is used below |w| = {a['threshold_theta']['A_B']:.3g} (A, B) and "
          f"{a['threshold_theta']['C_G_dB_dC_dG']:.3g} (C, G and the derivatives).", "",
          _plot(ctx, "integration_lie_accuracy", _lie_accuracy_plot, raw), ""]
    bench_ns = _bench_step_ns(data.data_dir)
    for s in raw["systems"]:
        s = dict(s, cost=_with_bench_times(s, bench_ns))
        L += _system_section(ctx, s, const)
    readme = read_readme(ctx, FAMILY)
    if readme:
        L += ["## The family (algorithms/integration/README.md)", "", embed_readme(ctx, FAMILY, readme), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
