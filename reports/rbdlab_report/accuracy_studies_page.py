"""The accuracy-studies page (accuracy_studies.md), from reports/data/roundoff.json (written by
verify/roundoff_study.cpp): Featherstone sections 10.1-10.2 measured. Round-off of every
forward-dynamics variant against n beside cond2(H), the planar body's |c| sweep (Figure 10.2),
and cond2(H) against N_B for chains and branched trees. Optional: without roundoff.json no page
is written. Every number comes from the JSON."""
import os

from . import fmt, plots
from .data import GenerationError, load_json
from .pages import GENERATED, Context, published

PAGE = "accuracy_studies.md"
MARKERS = {"gu": "o", "chain": "s", "binary": "^", "chain_skew": "D"}


def _check(raw, path):
    try:
        for key in ("vs_n", "planar_body", "conditioning", "reproductions", "pass", "failures", "run_time_s", "constants"):
            raw[key]
        for c in raw["vs_n"]["cases"]:
            for k in ("id", "title", "points", "fits", "cond_vs_n"):
                c[k]
            for p in c["points"]:
                for k in ("n", "depth", "seeds", "cond_H", "variants"):
                    p[k]
        for v in raw["vs_n"]["verdict_aba_vs_crba"]:
            for k in ("case", "versus", "verdict", "n_where_aba_lower", "n_compared", "geometric_mean_ratio"):
                v[k]
        for k in ("c_magnitudes", "solvers", "fd_variants"):
            raw["planar_body"][k]
        for k in ("chains", "chain_fit", "trees"):
            raw["conditioning"][k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _ran(r):
    """The variant that ran in place of this one ('' for its own figures): a DH variant hands a model
    without a DH form to the general variant, and roundoff.json then records only that."""
    return r.get("fallback_to") or "" if isinstance(r, dict) else ""


def _own(variants):
    """{variant: figures} without the entries of variants that handed the model on."""
    return {v: r for v, r in variants.items() if not _ran(r)}


def _budgets(r, p):
    """A variant's per-state budgets in eps: its own (`budget_eps` per variant, by its budget rule) or,
    in older files, the point's."""
    return r["budget_eps"] if "budget_eps" in r else p["budget_eps"]


def _g(x, d=3):
    return fmt.NA if x is None else f"{x:.{d}g}"


def _variants(case):
    out = []
    for p in case["points"]:
        for v in p["variants"]:
            if v not in out:
                out.append(v)
    return out


def _all_variants(cases):
    names = []
    for c in cases:
        names += [v for v in _variants(c) if v not in names]
    return names


def _colors(names):
    cycle = plots.plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {v: cycle[i % len(cycle)] for i, v in enumerate(names)}


# ------------------------------------------------------------------ plots
def _err_vs_n_plot(_data, raw, path):
    cases = raw["vs_n"]["cases"]
    col = _colors(_all_variants(cases))
    fig, axes = plots.plt.subplots(1, len(cases), figsize=(3.2 * len(cases), 3.4), squeeze=False)
    for ax, c in zip(axes[0], cases):
        for v in _variants(c):
            pts = [(p["n"], p["variants"][v]) for p in c["points"] if v in _own(p["variants"])]
            if not pts:
                continue
            ax.plot([n for n, _ in pts], [max(r["err_eps_mean"], 1e-2) for _, r in pts], color=col[v], lw=1, label=v,
                    ls="--" if v == "aba_dh" else "-")
            ax.plot([n for n, _ in pts], [max(r["err_eps_max"], 1e-2) for _, r in pts], color=col[v], lw=0, marker=".", ms=3)
        ax.set(xscale="log", yscale="log", xlabel="n (bodies)", title=c["title"].split(":")[0])
        ax.set_title(c["title"], fontsize=7)
    axes[0][0].set_ylabel("error of qdd / eps (line: mean, dots: max)")
    axes[0][0].legend(fontsize=6)
    plots._save(fig, path)
    return True


def _err_vs_cond_plot(_data, raw, path):
    cases = raw["vs_n"]["cases"]
    col = _colors(_all_variants(cases))
    fig, ax = plots.plt.subplots(figsize=(6.4, 4.2))
    lo, hi = float("inf"), 0.0
    for c in cases:
        for v in _variants(c):
            xs, ys = [], []
            for p in c["points"]:
                if v in _own(p["variants"]):
                    xs += p["cond_H"]
                    ys += [max(e, 1e-2) for e in p["variants"][v]["err_eps"]]
            if not xs:
                continue
            lo, hi = min(lo, min(xs)), max(hi, max(xs))
            ax.scatter(xs, ys, s=5, color=col[v], marker=MARKERS.get(c["id"], "o"), alpha=0.5,
                       label=f"{v}, {c['id']}")
    ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8, ls=":", label="error = cond2(H) eps")
    ax.set(xscale="log", yscale="log", xlabel="cond2(H) of the state", ylabel="error of qdd / eps")
    ax.legend(fontsize=5, ncol=2)
    plots._save(fig, path)
    return True


def _planar_plot(_data, raw, path):
    pb = raw["planar_body"]
    mags = pb["c_magnitudes"]
    fig, ax = plots.plt.subplots(figsize=(6.4, 4.2))
    for name, s in pb["solvers"].items():
        ax.plot(mags, [max(e, 1e-2) for e in s["err_at_C_eps_mean"]], lw=1.2, label=f"{name} (mean over directions)")
    s = pb["solvers"]["cholesky_llt"]
    ax.plot(mags, [max(e, 1e-2) for e in s["err_at_C_eps_book_direction"]], lw=0.6, ls=":", color="black",
            label="cholesky_llt, direction of c = (100, 10)")
    for name, v in _own(pb["fd_variants"]).items():
        ax.plot(mags, [max(e, 1e-2) for e in v["err_at_C_eps_mean"]], lw=0.8, ls="--", label=f"FD variant {name}")
    fit = s["fit_above_10"]
    if fit["slope"] is not None:
        xs = [m for m in mags if m >= 1]
        ax.plot(xs, [10 ** fit["intercept_log10"] * m ** 2 for m in xs], color="grey", lw=0.8, ls="-.",
                label="|c|^2 guide (through the fit's intercept)")
    ax.axvline(1.0, color="grey", lw=0.5, ls=":")
    ax.set(xscale="log", yscale="log", xlabel="|c| (radius of gyration = 1)",
           ylabel="||a_C - CX_O a_O||_inf / eps")
    ax.legend(fontsize=6)
    plots._save(fig, path)
    return True


def _cond_plot(_data, raw, path):
    cond = raw["conditioning"]
    fig, (ax1, ax2) = plots.plt.subplots(1, 2, figsize=(9, 3.8))
    ch = cond["chains"]
    N = [c["N_B"] for c in ch]
    ax1.plot(N, [c["cond_worst_found"] for c in ch], marker="o", ms=3, label="largest found")
    ax1.plot(N, [c["cond_zigzag75"] for c in ch], marker="s", ms=3, label="zigzag +-75 deg")
    ax1.plot(N, [c["book_4N4"] for c in ch], color="grey", ls="--", label="4 N_B^4 (book)")
    ax1.set(xscale="log", yscale="log", xlabel="N_B", ylabel="cond2(H)", title="chains of Figure 10.3's links")
    ax1.legend(fontsize=6)
    tr = cond["trees"]
    N = [t["N_B"] for t in tr]
    for kind in ("chain", "binary"):
        ax2.plot(N, [t[kind]["cond_worst_found"] for t in tr], marker="o", ms=3, label=f"{kind}: largest found")
        ax2.plot(N, [t[kind]["cond_q0"] for t in tr], ls=":", lw=0.8, label=f"{kind}: q = 0")
    ax2.set(xscale="log", yscale="log", xlabel="N_B", ylabel="cond2(H)", title="auto_tree: bf = 1 vs bf = 2")
    ax2.legend(fontsize=6)
    plots._save(fig, path)
    return True


# ------------------------------------------------------------------ sections
def _verdicts(raw):
    rows = [[r["quantity"], r["source"], fmt.cell(r["published"]), r["rbdlab"], r.get("criterion", fmt.NA),
             "agrees" if r["agree"] else "**disagrees**"] for r in raw["reproductions"]]
    return ["## The book's statements against the measurements", "",
            "Each is also a record on the [Reproductions](reproductions.md) page; a disagreement is listed there "
            "with its evidence.", "",
            fmt.table(["statement", "source", "book", "measured", "criterion", "verdict"], rows), ""]


def _vs_n(ctx, raw):
    vn = raw["vs_n"]
    c0 = raw["constants"]
    L = ["## Round-off against body count", "",
         "Forward dynamics qdd in double from every variant of the compiled family table, against ABA's run in the "
         "50-digit Reference scalar; normwise relative error in eps. The other variants' Reference runs agree with "
         f"ABA's on the first state of every n up to {c0['cross_check_max_n']} (digits in the tables); cond2(H) is "
         "the CRBA's H in double through Eigen's self-adjoint eigensolver, checked against Jacobi in Reference up to "
         f"n = {c0['cond_check_max_n']}. States: cases::random_state seeds 1..k (q uniform in [-pi, pi], qd, tau and "
         "external forces uniform in [-1, 1]).", "",
         ctx.plot("accuracy_err_vs_n", _err_vs_n_plot, raw), "",
         ctx.plot("accuracy_err_vs_cond", _err_vs_cond_plot, raw), "",
         "### Does ABA beat the CRBA-based routes?", "",
         "Per case family, ABA's mean error over the seeds against each CRBA route's, at every n >= 8; the ratio is "
         "the geometric mean over those n of CRBA error / ABA error.", ""]
    L.append(fmt.table(["case", "versus", "ABA lower at", "ratio CRBA/ABA", "verdict"],
                       [[v["case"], v["versus"], f"{v['n_where_aba_lower']} of {v['n_compared']} n",
                         _g(v["geometric_mean_ratio"]), v["verdict"]] for v in vn["verdict_aba_vs_crba"]],
                       right=(3,)))
    L += ["", "### Growth fits", "",
          "Slope of log10(mean error) against log10(n) over n >= 8, and of log10(error) against log10(cond2(H)) over "
          "every state; cond2(H)'s own growth with n (n >= 8) per case family.", ""]
    rows = []
    for c in vn["cases"]:
        for v, f in c["fits"].items():
            en, ec = f["err_mean_vs_n"], f["err_vs_cond"]
            rows.append([c["id"], v, _g(en["slope"]), f"{en['x_min']:g}..{en['x_max']:g}" if en["points"] else fmt.NA,
                         _g(ec["slope"]), _g(c["cond_vs_n"]["slope"])])
    L += [fmt.table(["case", "variant", "error vs n", "n range", "error vs cond2(H)", "cond2(H) vs n"], rows,
                    right=(2, 4, 5)), ""]
    for c in vn["cases"]:
        vs = _variants(c)
        rows = []
        for p in c["points"]:
            row = [p["n"], p["depth"], p["seeds"], f"{_g(min(p['cond_H']))}..{_g(max(p['cond_H']))}"]
            for v in vs:
                r = p["variants"].get(v)
                row.append(fmt.NA if r is None else f"(ran {_ran(r)})" if _ran(r) else
                           f"{fmt.eps(r['err_eps_mean'])} / {fmt.eps(r['err_eps_max'])}"
                           + (f" (= {r['identical_to']})" if "identical_to" in r else ""))
            worst = max((max(e / b for e, b in zip(r["err_eps_vs_typical"], _budgets(r, p)))
                         for r in _own(p["variants"]).values()), default=None)
            row += [_g(worst, 2), fmt.digits(p["reference_cross_digits"]) if "reference_cross_digits" in p else fmt.NA,
                    fmt.digits(p["truth_confirmed_digits"]) if "truth_confirmed_digits" in p else fmt.NA]
            rows.append(row)
        rules = sorted({r["budget_rule"] for p in c["points"] for r in _own(p["variants"]).values() if "budget_rule" in r})
        handed = sorted({f"`{v}` (ran `{_ran(r)}`)" for p in c["points"] for v, r in p["variants"].items() if _ran(r)})
        L += [f"#### {c['title']}", "",
              "Error in eps as mean / max over the seeds; *budget use*: the largest (error against the typical size of "
              "qdd) / (" + (f"the variant's budget, by its rule: {', '.join(rules)}" if rules else
                            "cond2(H) (32 (d + 1) + 4 n)") + "), the gated first-order budget; *Reference digits*: the "
              "fewest digits by which another variant's Reference run agrees with ABA's; *oracle digits*: the "
              "digits to which the Lagrangian oracle's inverse dynamics confirms ABA's Reference qdd on the first state "
              "(the bound ||ID(qdd) - tau|| / (lambda_min(H) ||qdd||), computed with no code from algorithms/)."
              + (f" *(ran X)*: the variant handed the model to X, whose figures are in X's column: {', '.join(handed)}."
                 if handed else ""), "",
              fmt.table(["n", "depth", "seeds", "cond2(H)"] + vs + ["budget use", "Reference digits", "oracle digits"], rows,
                        right=tuple(range(0, 4 + len(vs) + 3))), ""]
    return L


def _planar(ctx, raw):
    pb = raw["planar_body"]
    ch = pb["solvers"]["cholesky_llt"]
    L = ["## The planar body of section 10.1 (Figure 10.2)", "",
         "Unit mass and unit rotational inertia about its centre of mass C at c from the origin O; Eq. 10.1 solved "
         "in O coordinates in double, and the error seen at C, ||a_C - CX_O a_O||_inf with a_C = [1 -1 1] exact and "
         "the transform applied exactly: the quantity Figure 10.2 plots. "
         f"{pb['directions']} directions of c (the book's (100, 10) and seeded ones) per |c|, "
         f"|c| = {min(pb['c_magnitudes']):g}..{max(pb['c_magnitudes']):g}. Three dense solvers of the 3x3 system, and "
         "the forward-dynamics family's variants on the body as a one-body model on a planar joint (frame at O), "
         "which solve the same system. The closed form was checked in 50-digit arithmetic at every c "
         f"(largest residual {pb['closed_form_residual_max']}).", "",
         ctx.plot("accuracy_planar_body", _planar_plot, raw), ""]
    rows = []
    for name, s in pb["solvers"].items():
        rows.append([name, _g(s["fit_above_10"]["slope"]), _g(s["fit_above_10"]["slope_stderr"], 2),
                     _g(s["fit_above_1"]["slope"]), _g(s["fit_below_half"]["slope"]), _g(s["fit_rel_aO_above_10"]["slope"]),
                     _g(s["rel_err_aO_book_c"])])
    for name, v in pb["fd_variants"].items():
        if _ran(v):
            rows.append([f"FD {name} (ran {_ran(v)})"] + [fmt.NA] * 6)
            continue
        rows.append([f"FD {name}", _g(v["fit_above_10"]["slope"]), _g(v["fit_above_10"]["slope_stderr"], 2),
                     fmt.NA, fmt.NA, _g(v["fit_rel_qdd_above_10"]["slope"]), fmt.NA])
    L += ["Fitted log-log slopes of the mean error over the directions:", "",
          fmt.table(["solve", "error at C, |c| 10..1000", "stderr", "|c| 1..1000", "|c| 0.01..0.5",
                     "relative error of a_O, |c| 10..1000", "relative error of a_O at c = (100, 10)"], rows,
                    right=(1, 2, 3, 4, 5, 6)), "",
          f"With Cholesky the error at C grows with slope {_g(ch['fit_above_10']['slope'])} for |c| from 10 to 1000 "
          f"(book: about 2) and stays flat below the radius of gyration (slope {_g(ch['fit_below_half']['slope'])}); "
          f"at c = (100, 10) a_O is off by {_g(ch['rel_err_aO_book_c'])} relative (book: about 1e-12). "
          "Figure 10.2's axis range is not in the text this study had; the fit range above is this study's choice, "
          "well clear of the knee at |c| = 1.", ""]
    return L


def _conditioning(ctx, raw):
    cond = raw["conditioning"]
    fit = cond["chain_fit"]
    L = ["## cond2(H) against N_B (section 10.2)", "",
         "The largest cond2(H) found over the configuration space by a search (q = 0, the alternating +-a "
         "configurations for a = 0..180 degrees, seeded random states, then coordinate ascent): a lower bound on the "
         "worst case. Chains: cases::planar_chain, Figure 10.3's links. Trees: auto_tree(N_B, bf) with bf = 1 (chain) "
         "and 2 (binary tree) of identical tubes.", "",
         ctx.plot("accuracy_cond_vs_nb", _cond_plot, raw), "",
         f"Worst-case growth over N_B = {fit['x_min']:g}..{fit['x_max']:g}: slope {_g(fit['slope'])} "
         f"(+- {_g(fit['slope_stderr'], 2)}); book: 4 N_B^4.", ""]
    rows = [[c["N_B"], _g(c["cond_worst_found"], 4), _g(c["book_4N4"], 4), _g(c["cond_worst_found"] / c["book_4N4"]),
             _g(c["cond_q0"], 4), _g(c["cond_zigzag75"], 4), f"{_g(c['best_alternating_cond'], 4)} at {c['best_alternating_deg']:g} deg",
             c["found_by"]] for c in cond["chains"]]
    L += [fmt.table(["N_B", "largest found", "4 N_B^4", "ratio", "q = 0", "zigzag 75 deg", "best alternating", "found by"],
                    rows, right=(0, 1, 2, 3, 4, 5)), ""]
    rows = [[t["N_B"], t["chain"]["depth"], _g(t["chain"]["cond_worst_found"]), t["binary"]["depth"],
             _g(t["binary"]["cond_worst_found"]), _g(t["chain"]["cond_worst_found"] / t["binary"]["cond_worst_found"])]
            for t in cond["trees"]]
    L += ["Branched against unbranched, same bodies:", "",
          fmt.table(["N_B", "chain depth", "chain cond2", "binary depth", "binary cond2", "chain / binary"], rows,
                    right=(0, 1, 2, 3, 4, 5)), ""]
    return L


def _sensitivity(ctx, raw):
    """Section 10.2's six-link zigzag with rounded actuator forces: the printed digits as
    verify/reproductions.cpp recomputes them (reproductions.json), and the response of each
    forward-dynamics variant (roundoff.json's sensitivity part)."""
    recs = [r for r in ctx.data.repro if r["quantity"].startswith("zigzag") and r.get("found_by") is None]
    sens = raw.get("sensitivity")
    if not recs and not sens:
        return []
    wrong = {d["quantity"] for d in ctx.data.discrepancies}
    rows = [[r["quantity"], published(r), r["rbdlab"], "yes" if r["agree"] else
             "**no**" + (" (discrepancy)" if r["quantity"] in wrong else "")] for r in recs]
    L = ["## The sensitivity example of section 10.2", "",
         "Figure 10.3's zigzag (links at +-75 degrees) commanded tau_d = H [1 ... 1] and driven by tau_d rounded to "
         "three significant figures, recomputed exactly by verify/reproductions.cpp (its records on the "
         "[Reproductions](reproductions.md) page, where any printed value found wrong is explained):", "",
         fmt.table(["quantity", "book", "rbdlab (50 digits)", "agrees"], rows), ""]
    if sens:
        L += [f"The rounded forces are off by at most {100 * sens['max_rel_force_error']:.2f}% and the response by up to "
              f"{100 * sens['max_rel_acceleration_error']:.1f}%, an amplification of {sens['amplification']:.1f}. "
              "Each forward-dynamics variant solving for that response (Reference run: digits of agreement with ABA's; "
              "double run: error in eps against it):", "",
              fmt.table(["variant", "Reference digits", "double error (eps)"],
                        [[v, f"(ran {_ran(r)})", f"(ran {_ran(r)})"] if _ran(r) else
                         [v, fmt.digits(r["reference_digits"]), fmt.eps(r["err_eps"])] for v, r in sens["variants"].items()],
                        right=(1, 2)), ""]
    return L


def render(data, tmp_out, final_out):
    """Writes accuracy_studies.md into tmp_out; returns the list of files written (for the manifest)."""
    path = os.path.join(data.data_dir, "roundoff.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    plots.check_available()
    ctx = Context(data, tmp_out, final_out, [])
    t = raw["run_time_s"]
    L = [GENERATED, "", "# Accuracy studies: Featherstone sections 10.1-10.2", "",
         "[Index](index.md) · [Reproductions](reproductions.md)", "",
         "Gate status: " + ("every check passes." if raw["pass"] else "**a check failed**: " + "; ".join(raw["failures"])),
         "",
         f"Measured by [verify/roundoff_study.cpp]({ctx.link('verify/roundoff_study.cpp')}) in {t['total']:.1f} s "
         f"(round-off vs n {t['vs_n']:.1f} s, planar body {t['planar_body']:.1f} s, conditioning {t['conditioning']:.1f} s). "
         "The run fails when a variant's error exceeds the first-order budget of its rule (cond2(H) (32 (d + 1) + 4 n) "
         "eps for the routes that solve with H, 32 (d + 1) max_i cond2(D_i) eps for the articulated-body variants; "
         f"[budgets](budgets.md)), when a NaN or inf appears, when a Reference variant disagrees with ABA's Reference run "
         "(the truth) below 40 digits, when the Lagrangian oracle confirms that truth to fewer than 40 digits, when "
         "cond2(H) in double misses its Reference value by more than its stated accuracy, or when the planar body's "
         "closed form is not exact. A book statement the data contradicts is a finding, not a failure. Every error, "
         "digit count and bound of the study is also a gated figure: `make gate` holds it to the committed baseline.", ""]
    L += _verdicts(raw)
    L += _vs_n(ctx, raw)
    L += _planar(ctx, raw)
    L += _sensitivity(ctx, raw)
    L += _conditioning(ctx, raw)
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
