"""The contact simulation page (contact_simulation.md), from reports/data/contact_simulation.json
(written by verify/contact_simulation_study.cpp) and algorithms/contact_simulation/README.md.
Optional: without contact_simulation.json no page is written. Every number comes from the JSON."""
import math
import os

from . import fmt, plots
from .data import GenerationError, load_json
from .pages import GENERATED, Context, embed_readme, read_readme

FAMILY = "contact_simulation"
PAGE = "contact_simulation.md"


def _check(raw, path):
    try:
        for key in ("bouncing_ball", "cradle", "soft_contact", "sliding_block", "checks", "pass"):
            raw[key]
        b = raw["bouncing_ball"]
        for key in ("setup", "t0", "t_inf", "event_driven", "time_stepping", "first_apex_error_ratio"):
            b[key]
        for k in ("impacts", "impact_count", "rest_time", "steps", "evaluations", "trajectory", "h", "rest_speed"):
            b["event_driven"][k]
        for r in b["time_stepping"]:
            for k in ("h", "apexes", "first_apex_error", "resting_impulse", "m_g_h", "trajectory"):
                r[k]
        for r in raw["cradle"]["runs"]:
            for k in ("restitution", "closed_form", "event_driven", "time_stepping"):
                r[k]
        s = raw["soft_contact"]
        for key in ("setup", "restitution_limit", "rigid_apexes", "runs", "scaling_ratio"):
            s[key]
        for k in ("zeta", "omega_h", "rigid_restitution", "impact_speed"):
            s["setup"][k]
        for r in s["runs"]:
            for k in ("K", "h", "omega_n", "duration_limit", "depth_limit", "impacts", "trajectory"):
                r[k]
            for im in r["impacts"]:
                for k in ("restitution", "restitution_closed", "restitution_bound", "duration", "duration_closed",
                          "depth", "depth_closed", "apex", "apex_closed"):
                    im[k]
        for k in ("K_ratio_sqrt", "gravity_share", "depth", "depth_band", "apex_gap", "apex_gap_band"):
            s["scaling_ratio"][k]
        sb = raw["sliding_block"]
        for key in ("setup", "stop_time_closed", "stop_distance_closed", "runs", "decade_ratios", "pyramid"):
            sb[key]
        for r in sb["runs"]:
            for k in ("h", "stop_step", "stop_time", "stop_distance", "distance_error", "distance_error_discrete",
                      "time_error"):
                r[k]
        for r in sb["pyramid"]["runs"]:
            for k in ("facets", "midway_angle", "midway", "midway_closed", "diagonal", "diagonal_closed"):
                r[k]
        for c in raw["checks"]:
            for k in ("what", "value", "limit", "pass"):
                c[k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _g(x):
    return f"{x:.6g}"


def _k(x):
    """A stiffness (a power of ten here): 1e3, 1e6."""
    return fmt.sci(x, 1) if x >= 1e3 else f"{x:g}"


def _figure(x):
    """A check's value or limit: four figures between 1e-3 and 1e4, else scientific."""
    return f"{x:.4g}" if 1e-3 <= abs(x) < 1e4 else fmt.sci(x)


def _height_plot(raw, path):
    b = raw["bouncing_ball"]
    fig, ax = plots.plt.subplots(figsize=(8, 3.2))
    ed = b["event_driven"]["trajectory"]
    ax.plot([p[0] for p in ed], [p[1] for p in ed], lw=1.0, color="k",
            label=f"event-driven, h = {b['event_driven']['h']:g} s")
    for r, ls in zip(b["time_stepping"], ("--", ":")):
        tr = r["trajectory"]
        ax.plot([p[0] for p in tr], [p[1] for p in tr], lw=0.8, ls=ls, label=f"time-stepping, h = {r['h']:g} s")
    ax.axvline(b["t_inf"], lw=0.6, color="gray")
    ax.text(b["t_inf"], 0.9 * b["setup"]["drop_height"], " t_inf", fontsize=7, color="gray")
    ax.set(xlabel="t (s)", ylabel="height of the lowest point (m)",
           title=f"bouncing ball, e = {b['setup']['restitution']:g}")
    ax.legend()
    plots._save(fig, path)
    return True


def _energy_plot(raw, path):
    b = raw["bouncing_ball"]
    fig, ax = plots.plt.subplots(figsize=(8, 3.0))
    ed = b["event_driven"]["trajectory"]
    ax.plot([p[0] for p in ed], [p[2] for p in ed], lw=1.0, color="k", label="event-driven")
    for r, ls in zip(b["time_stepping"], ("--", ":")):
        tr = r["trajectory"]
        ax.plot([p[0] for p in tr], [p[2] for p in tr], lw=0.8, ls=ls, label=f"time-stepping, h = {r['h']:g} s")
    ax.set(xlabel="t (s)", ylabel="kinetic + potential energy (J)", title="bouncing ball: mechanical energy")
    ax.legend()
    plots._save(fig, path)
    return True


def _ball(ctx, raw):
    b = raw["bouncing_ball"]
    s, ed = b["setup"], b["event_driven"]
    ts = {r["h"]: r for r in b["time_stepping"]}
    L = ["## A bouncing ball", "",
         f"A ball of radius {s['radius']:g} m and mass {s['mass']:g} kg dropped from {s['drop_height']:g} m "
         f"(its lowest point) with restitution e = {s['restitution']:g} and a sideways speed of "
         f"{s['horizontal_velocity']:g} m/s, under g = {s['g']:g} m/s^2. Closed forms: the first impact at "
         f"t_0 = sqrt(2 h_0 / g) = {_g(b['t0'])} s, impact k at t_0 + 2 t_0 (e - e^(k+1)) / (1 - e), the apex after "
         f"it e^(2(k+1)) h_0, and the impacts accumulate at t_inf = t_0 (1 + e) / (1 - e) = {_g(b['t_inf'])} s "
         "(infinitely many impacts in finite time).", ""]
    hs = sorted(ts)
    headers = ["k", "impact t (s)", "closed form", "apex after (m)", "e^(2(k+1)) h_0"] + \
              [f"time-stepping apex, h = {h:g}" for h in hs]
    rows = []
    for i, im in enumerate(ed["impacts"]):
        row = [str(im["k"]), _g(im["t"]), _g(im["t_closed"]), _g(im["apex"]), _g(im["apex_closed"])]
        for h in hs:
            ap = ts[h]["apexes"]
            row.append(_g(ap[i]["apex"]) if i < len(ap) else fmt.NA)
        rows.append(row)
    L += [f"Event-driven (Table 11.1 with Heun's method, h = {ed['h']:g} s) and time-stepping, the first "
          f"{len(rows)} impacts:", "", fmt.table(headers, rows, right=tuple(range(len(headers)))), ""]
    L += [f"The event-driven run made {fmt.count(ed['impact_count'])} impacts in {fmt.count(ed['steps'])} steps "
          f"({fmt.count(ed['evaluations'])} evaluations of the dynamics) and came to rest at "
          f"{_g(ed['rest_time'])} s, when a rebound fell below {ed['rest_speed']:g} m/s and the contact was made "
          f"plastic; t_inf - rest time = {fmt.sci(b['t_inf'] - ed['rest_time'])} s. Its energy between impacts "
          f"stayed within {fmt.sci(ed['flight_energy_drift'])} of E_0 (relative).", ""]
    for h in hs:
        r = ts[h]
        L.append(f"- Time-stepping, h = {h:g} s: first apex off by {fmt.sci(r['first_apex_error'])} h_0; "
                 f"at rest (10 s) each step's impulse is {_g(r['resting_impulse'])} N s against m g h = {_g(r['m_g_h'])}.")
    L += ["", f"The first apex's error falls by {b['first_apex_error_ratio']:.3g}x from h = {hs[-1]:g} to h = {hs[0]:g}: "
          "the scheme rebounds from wherever the step ends, up to h |zeta| short of the ground, and its impacts "
          "fall on the step grid.", ""]
    L += [ctx.plot("contact_simulation_height", lambda _data, path: _height_plot(raw, path)), "",
          ctx.plot("contact_simulation_energy", lambda _data, path: _energy_plot(raw, path)), ""]
    return L


def _soft_plot(raw, path):
    """Height of the lowest point against time: the rigid ball (event-driven) and the soft ball at the
    softest and stiffest K over the whole run; beside it, the first contact at every K."""
    b, s = raw["bouncing_ball"], raw["soft_contact"]
    runs = s["runs"]
    rigid = b["event_driven"]["trajectory"]
    t_end = s["setup"]["t_end"]
    fig, (ax, zoom) = plots.plt.subplots(1, 2, figsize=(10, 3.4), gridspec_kw={"width_ratios": [2, 1]})
    styles = ("-", "--", "-.", ":")
    colors = plots.plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for a in (ax, zoom):
        a.plot([p[0] for p in rigid if p[0] <= t_end], [p[1] for p in rigid if p[0] <= t_end], lw=1.0, color="k",
               label=f"rigid, event-driven, e = {s['setup']['rigid_restitution']:g}")
    for i, r in enumerate(runs):
        tr = r["trajectory"]
        label = f"soft, K = {_k(r['K'])} N/m"
        style = {"lw": 0.9, "ls": styles[i % len(styles)], "color": colors[i % len(colors)], "label": label}
        if i in (0, len(runs) - 1):
            ax.plot([p[0] for p in tr], [p[1] for p in tr], **style)
        zoom.plot([p[0] for p in tr], [p[1] for p in tr], **style)
    first = runs[0]["impacts"][0]
    lo, hi = first["t_on"] - 0.5 * first["duration"], first["t_on"] + 2.0 * first["duration"]
    ys = [p[1] for r in runs for p in r["trajectory"] if lo <= p[0] <= hi] + [p[1] for p in rigid if lo <= p[0] <= hi]
    zoom.set(xlim=(lo, hi), ylim=(1.1 * min(ys), max(ys)), xlabel="t (s)", title="the first contact")
    zoom.axhline(0, lw=0.6, color="gray")
    ax.axhline(0, lw=0.6, color="gray")
    ax.set(xlabel="t (s)", ylabel="height of the lowest point (m)",
           title=f"bouncing ball on a compliant contact, zeta = {s['setup']['zeta']:.4g}")
    ax.legend(loc="upper right")
    zoom.legend(loc="upper left", fontsize=6)
    plots._save(fig, path)
    return True


def _sliding_plot(raw, path):
    sb = raw["sliding_block"]
    runs = sb["runs"]
    hs = [r["h"] for r in runs]
    v0 = sb["setup"]["speed"]
    fig, ax = plots.plt.subplots(figsize=(6.5, 3.4))
    ax.loglog(hs, [r["distance_error"] for r in runs], "o", ms=5, label="stopping distance: continuum - measured (m)")
    ax.loglog(hs, [r["distance_error_discrete"] for r in runs], "-", lw=0.8,
              label="h v0 / 2 - mu g h^2 delta (1 - delta) / 2 (discrete closed form)")
    ax.loglog(hs, [r["time_error"] for r in runs], "s", ms=4, mfc="none", label="stop time: measured - continuum (s)")
    ax.loglog(hs, hs, ":", lw=0.8, color="gray", label="h (one step)")
    ax.set(xlabel="step h (s)", ylabel="shortfall (m), lateness (s)",
           title=f"sliding to rest: mu = {sb['setup']['mu']:g}, v0 = {v0:g} m/s, {sb['setup']['facets']} facets")
    ax.legend(loc="upper left")
    plots._save(fig, path)
    return True


def _soft(ctx, raw):
    s = raw["soft_contact"]
    st, runs = s["setup"], s["runs"]
    first = [r["impacts"][0] for r in runs]
    L = ["## Compliant contact on the bouncing ball (section 11.8)", "",
         "The same ball dropped on a compliant contact (`soft_contact.hpp`): a massless patch on a spring K and a "
         "damper D = 2 zeta sqrt(K m). While the ball presses it, the contact is a damped oscillator, and it lets go "
         "when the force -K p - D pdot reaches 0, which happens before p is back at 0 (at that instant the damper "
         "balances the spring). Its closed form (`verify/support/soft_drop.hpp`, shared with "
         "`verify/test_soft_contact.cpp`) gives each impact's rebound speed, duration and depth; without gravity "
         "they depend on zeta and omega_n = sqrt(K / m) alone: restitution exp(-zeta (pi - 2 asin zeta) / "
         "sqrt(1 - zeta^2)), duration (pi - 2 asin zeta) / (omega_n sqrt(1 - zeta^2)), depth "
         f"(v0 / omega_n) exp(-zeta acos(zeta) / sqrt(1 - zeta^2)). Here zeta = {st['zeta']:.6g}, chosen so that "
         f"this restitution is the rigid ball's e = {st['rigid_restitution']:g}; each K runs with "
         f"h = {st['omega_h']:g} / omega_n. As K grows the contact shortens like 1 / sqrt(K), gravity's part in "
         "it shrinks with it, and the soft ball should bounce like the rigid one.", ""]
    rows = []
    for r, im in zip(runs, first):
        rows.append([_k(r["K"]), fmt.sci(r["h"]), _g(im["restitution"]), _g(im["restitution_closed"]),
                     fmt.sci(abs(im["restitution"] - im["restitution_closed"])), fmt.sci(im["restitution_bound"]),
                     _g(s["restitution_limit"])])
    L += ["The first impact, at the drop's speed: rebound speed (through p = 0, going up) over impact speed. The "
          "bound is the step's: RK4 on the contact phase and the release step's kink (the release is resolved to "
          "the step).", "",
          fmt.table(["K (N/m)", "h (s)", "measured", "closed form", "difference", "bound from h", "without gravity"],
                    rows, right=tuple(range(1, 7))), ""]
    rows = []
    for r, im in zip(runs, first):
        rows.append([_k(r["K"]), _g(im["duration"]), _g(im["duration_closed"]), _g(r["duration_limit"]),
                     _g(im["depth"]), _g(im["depth_closed"]), _g(r["depth_limit"])])
    L += ["Its duration (onset bisected, release at the zero of the force interpolated between two step ends) "
          "and depth (the deepest step end):", "",
          fmt.table(["K (N/m)", "duration (s)", "closed form", "without gravity", "depth (m)", "closed form",
                     "without gravity"], rows, right=tuple(range(1, 7))), ""]
    n = len(s["rigid_apexes"])
    rows = []
    for k in range(n):
        row = [str(k + 1), _g(s["rigid_apexes"][k])]
        for r in runs:
            im = r["impacts"]
            row.append(_g(im[k]["apex"]) if k < len(im) else fmt.NA)
        rows.append(row)
    sc = s["scaling_ratio"]
    L += ["The apexes (m) after each impact, soft beside rigid; each soft apex is checked against the closed form "
          "applied impact by impact from the drop:", "",
          fmt.table(["bounce", "rigid, e^(2k) h_0"] + [f"soft, K = {_k(r['K'])}" for r in runs], rows,
                    right=tuple(range(len(runs) + 2))), "",
          f"From K = {_k(runs[0]['K'])} to K = {_k(runs[-1]['K'])} N/m (sqrt of the ratio {sc['K_ratio_sqrt']:.4g}) the "
          f"first depth falls by {sc['depth'] * sc['K_ratio_sqrt']:.4g} and the first apex's gap to the rigid "
          f"ball's by {sc['apex_gap'] * sc['K_ratio_sqrt']:.4g}: over that square root, {sc['depth']:.4g} and "
          f"{sc['apex_gap']:.4g}, within {sc['depth_band']:.3g} and {sc['apex_gap_band']:.3g} of 1 (gravity's "
          f"share, {sc['gravity_share']:.3g} at the softest K, plus each measurement's bound from h).", "",
          ctx.plot("contact_simulation_soft", lambda _data, path: _soft_plot(raw, path)), ""]
    return L


def _sliding(ctx, raw):
    sb = raw["sliding_block"]
    st = sb["setup"]
    L = ["## Time-stepping with friction: a mass sliding to rest", "",
         f"A point mass (the ball with its contact point at its centre, so that it never turns) on the ground with "
         f"mu = {st['mu']:g}, sliding at v0 = {st['speed']:g} m/s along t1, a facet direction of its "
         f"{st['facets']}-facet pyramid, where the pyramid's friction is the cone's "
         "(`friction_time_stepping.hpp`). The continuum stops after v0^2 / (2 mu g) = "
         f"{_g(sb['stop_distance_closed'])} m at v0 / (mu g) = {_g(sb['stop_time_closed'])} s. The scheme takes "
         "mu g h of speed per step until that would reverse it, and moves by h times each step's new speed: "
         "with v0 / (mu g h) = n + delta, its distance falls short by h v0 / 2 - mu g h^2 delta (1 - delta) / 2 "
         "(first order) and it stops h (1 - delta) late, within one step.", ""]
    rows = [[fmt.sci(r["h"]), str(r["stop_step"]), _g(r["stop_time"]), fmt.sci(r["time_error"]), _g(r["stop_distance"]),
             _g(r["distance_error"]), _g(r["distance_error_discrete"])] for r in sb["runs"]]
    L += [fmt.table(["h (s)", "stop step", "stop time (s)", "late by (s)", "distance (m)", "short by (m)",
                     "discrete closed form"], rows, right=tuple(range(7))), ""]
    L += ["The shortfall per decade of h (first order: 10): " +
          ", ".join(f"{r['h']:g} over {r['h_over_10']:g}: {r['ratio']:.4g}" for r in sb["decade_ratios"]) + ".", "",
          ctx.plot("contact_simulation_sliding", lambda _data, path: _sliding_plot(raw, path)), ""]
    p = sb["pyramid"]
    rows = [[str(r["facets"]), f"{math.degrees(r['midway_angle']):.4g}", f"{r['midway']:.12f}",
             f"{r['midway_closed']:.12f}", f"{r['diagonal']:.12f}", f"{r['diagonal_closed']:.12f}"] for r in p["runs"]]
    L += ["The pyramid is not the cone. Its facets d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2 span a k-gon; a "
          "slip exactly midway between two of them gets the impulse at the middle of their edge, the k-gon's "
          "inradius: mu g cos(pi / k) of deceleration, where the cone gives mu g. Along a facet the two agree. The "
          f"table slides the same mass for {p['steps']} steps of h = {p['h']:g} s midway between the first two "
          "facets and along the 45-degree diagonal, which is midway for 4 facets and a facet direction for "
          "multiples of 8 (deceleration over mu g):", "",
          fmt.table(["facets k", "midway at (degrees)", "midway", "cos(pi / k)", "diagonal", "closed form"], rows,
                    right=tuple(range(6))), ""]
    return L


def _cradle(raw):
    c = raw["cradle"]
    s = c["setup"]
    L = ["## Newton's cradle", "",
         f"{s['balls']} equal balls on sliders, the first arriving at {s['speed']:g} m/s after a gap of "
         f"{s['gap']:g} m; the others at rest, touching. One contact at a time (what a real cradle does) would "
         f"end at {', '.join(_g(x) for x in c['sequential_closed_form_e1'])} m/s for e = 1. Both schemes resolve "
         "the two contacts together in one impact LCP (impact_dynamics/README.md):", ""]
    rows = []
    for r in c["runs"]:
        ed, ts = r["event_driven"], r["time_stepping"]
        rows.append([_g(r["restitution"]), ", ".join(_g(x) for x in r["closed_form"]),
                     ", ".join(_g(x) for x in ed["velocities"]), fmt.sci(ed["error"]),
                     ", ".join(_g(x) for x in ts["velocities"]), fmt.sci(ts["error"]),
                     fmt.sci(ed["energy_change"]), fmt.sci(ed["momentum_change"])])
    L += [fmt.table(["e", "simultaneous closed form", "event-driven", "error / v", "time-stepping",
                     "error / v", "energy change (J, event-driven)", "momentum change"], rows,
                    right=(3, 5, 6, 7)), ""]
    return L


def render(data, tmp_out, final_out):
    """Writes contact_simulation.md into tmp_out; returns the list of files written."""
    path = os.path.join(data.data_dir, "contact_simulation.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    L = [GENERATED, "", "# Contact simulation: event-driven, time-stepping and compliant contact (Featherstone sections "
         "11.5-11.8)", "",
         "[Index](index.md) · [Impact dynamics](impact_dynamics.md) · [Contact dynamics](contact_dynamics.md)", ""]
    L.append("Study status: " + ("every check passes." if raw["pass"] else "**a check failed** (see the table below)."))
    L.append("")
    L += _ball(ctx, raw)
    L += _cradle(raw)
    L += _soft(ctx, raw)
    L += _sliding(ctx, raw)
    L += ["## Checks (verify/contact_simulation_study.cpp)", "",
          fmt.table(["check", "measured", "limit", "pass"],
                    [[c["what"], _figure(c["value"]), _figure(c["limit"]), fmt.yesno(c["pass"])] for c in raw["checks"]],
                    right=(1, 2)), ""]
    readme = read_readme(ctx, FAMILY)
    if readme:
        L += ["## The simulators (algorithms/contact_simulation/README.md)", "", embed_readme(ctx, FAMILY, readme), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
