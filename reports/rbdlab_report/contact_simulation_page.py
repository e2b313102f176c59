"""The contact simulation page (contact_simulation.md), from reports/data/contact_simulation.json
(written by verify/contact_simulation_study.cpp) and algorithms/contact_simulation/README.md.
Optional: without contact_simulation.json no page is written. Every number comes from the JSON."""
import os

from . import fmt, plots
from .data import GenerationError, load_json
from .pages import GENERATED, Context, embed_readme, read_readme

FAMILY = "contact_simulation"
PAGE = "contact_simulation.md"


def _check(raw, path):
    try:
        for key in ("bouncing_ball", "cradle", "checks", "pass"):
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
        for c in raw["checks"]:
            for k in ("what", "value", "limit", "pass"):
                c[k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _g(x):
    return f"{x:.6g}"


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
    L = [GENERATED, "", "# Contact simulation: event-driven vs time-stepping (Featherstone sections 11.5-11.7)", "",
         "[Index](index.md) · [Impact dynamics](impact_dynamics.md) · [Contact dynamics](contact_dynamics.md)", ""]
    L.append("Study status: " + ("every check passes." if raw["pass"] else "**a check failed** (see the table below)."))
    L.append("")
    L += _ball(ctx, raw)
    L += _cradle(raw)
    L += ["## Checks (verify/contact_simulation_study.cpp)", "",
          fmt.table(["check", "measured", "limit", "pass"],
                    [[c["what"], fmt.sci(c["value"]), fmt.sci(c["limit"]), fmt.yesno(c["pass"])] for c in raw["checks"]],
                    right=(1, 2)), ""]
    readme = read_readme(ctx, FAMILY)
    if readme:
        L += ["## The simulators (algorithms/contact_simulation/README.md)", "", embed_readme(ctx, FAMILY, readme), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
