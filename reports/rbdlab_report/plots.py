"""Plots: matplotlib with the Agg backend, written as SVG with a fixed hash salt and no date,
so a regeneration from the same data is byte-identical."""
import math
import os

from . import fmt
from .data import FIT_MIN_N, GenerationError, bench_keys_for_case, gu_n, poly_eval

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError as e:  # pragma: no cover - depends on the machine
    plt = None
    _IMPORT_ERROR = str(e)

STYLE = {
    "svg.hashsalt": "rbdlab-report",
    "svg.fonttype": "none",          # text stays text: smaller SVGs, readable diffs
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 7,
    "figure.dpi": 100,
}


def check_available():
    if plt is None:
        raise GenerationError("matplotlib is not importable by this Python "
                              f"({_IMPORT_ERROR}); install Debian's python3-matplotlib and run with /usr/bin/python3")
    matplotlib.rcParams.update(STYLE)


BOOK_STYLES = ["--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3))]


def _integer_x(ax):
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))


def _plain_log_ticks(fig):
    """Log axes labelled 1, 2, 5, 10, 20, ... in plain text (no mathtext: faster, and readable
    as text in the SVG)."""
    for ax in fig.axes:
        for axis, scale, lim in ((ax.xaxis, ax.get_xscale(), ax.get_xlim()),
                                 (ax.yaxis, ax.get_yscale(), ax.get_ylim())):
            if scale == "log":
                lo, hi = sorted(lim)
                wide = lo > 0 and hi / lo > 10 ** 2.5
                axis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0,) if wide else (1.0, 2.0, 5.0)))
                axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
                axis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def _save(fig, path):
    _plain_log_ticks(fig)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def _colors(data, family):
    names = data.variants.get(family, []) + data.peers.get(family, [])
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {v: cycle[i % len(cycle)] for i, v in enumerate(names)}


def _book_label(row):
    return row["source"].replace("Table 10.1 ", "")


def _gu_records(data, family, variant):
    """The variant's own records on GU(n) (cases handed to another variant are that variant's figures)."""
    rs = [(gu_n(r["case"]), r) for r in data.acc_records(family, variant, own=True)]
    return sorted(((n, r) for n, r in rs if n is not None), key=lambda t: t[0])


def error_vs_n(data, family, path):
    """err_eps_max and mean vs n on GU(n); right panel: the gated measure against its budget."""
    variants = [v for v in data.variants[family] if _gu_records(data, family, v)]
    if not variants:
        return False
    col = _colors(data, family)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4))
    budget = None
    for v in variants:
        pts = _gu_records(data, family, v)
        ns_ = [n for n, _ in pts]
        ax1.plot(ns_, [r["err_eps_max"] for _, r in pts], "o-", color=col[v], label=f"{v} max")
        ax1.plot(ns_, [r["err_eps_mean"] for _, r in pts], "x--", color=col[v], label=f"{v} mean")
        ax2.plot(ns_, [r["err_eps_vs_typical_max"] for _, r in pts], "o-", color=col[v], label=v)
        budget = [(n, r["budget_eps"]) for n, r in pts]
    ax2.step([n for n, _ in budget], [b for _, b in budget], where="mid", color="black",
             linestyle=":", label="budget_eps")
    _integer_x(ax1)
    _integer_x(ax2)
    ax1.set(xlabel="n (GU(n) bodies)", ylabel="error / eps", yscale="log",
            title="normwise error over seeds")
    ax2.set(xlabel="n (GU(n) bodies)", ylabel="error / eps", yscale="log",
            title="max error vs typical output size (gated)")
    ax1.legend(ncol=2)
    ax2.legend()
    _save(fig, path)
    return True


def ops_vs_n(data, family, path):
    variants = [v for v in data.variants[family] if data.ops_series(family, v)]
    if not variants:
        return False
    col = _colors(data, family)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    nmax = max(s[0] for v in variants for s in data.ops_series(family, v))
    xs = list(range(1, nmax + 1))
    for idx, (ax, key) in enumerate(zip(axes, ("m", "a"))):
        for v in variants:
            s = data.ops_series(family, v)
            ax.plot([t[0] for t in s], [t[1 + idx] for t in s], "o-", markersize=3, color=col[v], label=v)
        bx = [n for n in xs if n >= 2]   # the book's formulas are for chains, not a lone body
        for j, row in enumerate(data.book_rows(family)):
            ax.plot(bx, [poly_eval(row[key], n) for n in bx], linestyle=BOOK_STYLES[j % len(BOOK_STYLES)],
                    linewidth=1, color="0.25", label=_book_label(row))
        _integer_x(ax)
        ax.set(xlabel="n (GU(n) bodies)", ylabel=("multiplications" if key == "m" else "additions"),
               title=f"{key} per call")
    axes[0].legend(loc="upper left", fontsize=6)
    _save(fig, path)
    return True


def time_vs_n(data, family, case, path):
    b = data.bench
    names = [v for v in data.variants[family] + data.peers[family] if b.series(family, v, case)]
    if not names:
        return False
    col = _colors(data, family)
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for v in names:
        s = b.series(family, v, case)
        sl = b.slope(family, v, case)
        label = f"{v}: slope {fmt.slope(sl)}" if sl is not None else f"{v}: slope {fmt.NA}"
        style = "s--" if v in data.peers[family] else "o-"
        ax.plot([n for n, _ in s], [t for _, t in s], style, color=col[v], label=label, markersize=4)
    ax.set(xscale="log", yscale="log", xlabel="n (bodies)", ylabel="median time per call (ns)",
           title=f"{family} on {case} (slopes fitted over n >= {FIT_MIN_N})")
    ax.legend()
    _save(fig, path)
    return True


def work_precision_points(data, family, variant):
    """[(case, n, median ns, err_eps_max)] for the variant's own accuracy cases (not those it handed to
    another variant) with a benchmark of the same model."""
    out = []
    for r in data.acc_records(family, variant, own=True):
        for bcase, n in bench_keys_for_case(r["case"]):
            t = data.bench.median(family, variant, bcase, n)
            if t is not None:
                out.append((r["case"], n, t, r["err_eps_max"]))
                break
    return out


def work_precision(data, family, path):
    col = _colors(data, family)
    series = {v: work_precision_points(data, family, v) for v in data.variants[family]}
    series = {v: s for v, s in series.items() if s}
    if not series:
        return False
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for v, s in series.items():
        ax.plot([t for _, _, t, _ in s], [e for _, _, _, e in s], "o", color=col[v], label=v)
        for c, n, t, e in s:
            ax.annotate(c, (t, e), fontsize=5, xytext=(2, 2), textcoords="offset points", color=col[v])
    ax.set(xscale="log", yscale="log", xlabel="median time per call (ns)", ylabel="err_eps_max (error / eps)",
           title=f"{family}: work vs precision (lower left is better)")
    ax.legend()
    _save(fig, path)
    return True


def overview(data, path):
    """One column per family: error on GU(n) (top) and time on GU(n) or op counts (bottom)."""
    fams = [f for f in data.families if data.variants.get(f)]
    if not fams:
        return False
    fig, axes = plt.subplots(2, len(fams), figsize=(3.2 * len(fams), 5.6), squeeze=False)
    for j, fam in enumerate(fams):
        col = _colors(data, fam)
        top, bottom = axes[0][j], axes[1][j]
        for v in data.variants[fam]:
            pts = _gu_records(data, fam, v)
            if pts:
                top.plot([n for n, _ in pts], [r["err_eps_max"] for _, r in pts], "o-", markersize=3,
                         color=col[v], label=v)
        top.set(title=fam, yscale="log", xlabel="n (GU(n))", ylabel="err_eps_max" if j == 0 else None)
        _integer_x(top)
        if data.bench and any(data.bench.series(fam, v, "gu") for v in data.variants[fam] + data.peers[fam]):
            for v in data.variants[fam] + data.peers[fam]:
                s = data.bench.series(fam, v, "gu")
                if s:
                    bottom.plot([n for n, _ in s], [t for _, t in s], "s--" if v in data.peers[fam] else "o-",
                                markersize=3, color=col[v], label=v)
            bottom.set(xscale="log", yscale="log", xlabel="n (GU(n))", ylabel="median ns" if j == 0 else None)
        else:
            drew = False
            for v in data.variants[fam]:
                s = data.ops_series(fam, v)
                if s:
                    drew = True
                    bottom.plot([t[0] for t in s], [t[1] + t[2] for t in s], "o-", markersize=3,
                                color=col[v], label=v)
            if drew:
                bottom.set(xlabel="n (GU(n))", ylabel="m + a per call" if j == 0 else None)
            else:
                bottom.text(0.5, 0.5, "op counts: not counted\nbenchmarks: not run", ha="center", va="center",
                            transform=bottom.transAxes)
                bottom.set_axis_off()
        if top.lines:
            top.legend()
        if bottom.lines:
            bottom.legend()
    _save(fig, path)
    return True


def figure_10_5(data, path):
    """Featherstone Figure 10.5 redrawn: m + a vs n of ABA, the O(nd^2) route on a chain and on a binary
    tree. Dashed: the book's formulas (opcounts.json figure_10_5.book_rows); solid: rbdlab's counts, the
    general variants (left) and the DH-frame ones (right)."""
    fig_data = data.fig_10_5
    if not fig_data:
        return False
    book, rbd = fig_data["book_rows"]["per_n"], fig_data["rbdlab"]["per_n"]
    bn = [r["n"] for r in book if r["n"] >= 2]   # the book's rows are for n >= 2 (Table 10.1's constants)
    rn = [r["n"] for r in rbd]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), sharey=True)
    panels = ((axes[0], "rbdlab's general variants", ("aba_binary_tree", "crba_ltdl_chain", "crba_ltdl_binary_tree"),
               ("aba (tree)", "crba_ltdl, chain (GU(n))", "crba_ltdl, binary tree")),
              (axes[1], "rbdlab's DH-frame variants",
               ("aba_dh_binary_tree", "dh_route_chain", "dh_route_binary_tree"),
               ("aba_dh (tree)", "crba_dh + rnea_dh + ltdl_sparse, chain", "the same, binary tree")))
    # The chain's route grows as n^3 and leaves the plot at the top: the axis is scaled to the curves
    # the figure compares (ABA and the binary tree's route), as in the book's Figure 10.5.
    top = 2 * max([r[k] for r in book for k in ("aba", "route_binary_tree")]
                  + [r[k] for r in rbd for k in ("aba_binary_tree", "crba_ltdl_binary_tree", "aba_dh_binary_tree",
                                                 "dh_route_binary_tree")])
    for ax, title, keys, labels in panels:
        for j, (bk, bl) in enumerate((("aba", "ABA, Table 10.1 row 11"), ("route_chain", "O(nd^2), chain (book)"),
                                      ("route_binary_tree", "O(nd^2), binary tree (book)"))):
            ax.plot(bn, [r[bk] for r in book if r["n"] >= 2], "--", linewidth=1, color=colors[j], label=bl)
        for j, (k, label) in enumerate(zip(keys, labels)):
            ax.plot(rn, [r[k] for r in rbd], "-", linewidth=1.4, color=colors[j], label=label)
        _integer_x(ax)
        ax.set(xlabel="n (bodies)", title=title, ylim=(0, top))
        ax.legend(loc="upper left", fontsize=6)
    axes[0].set(ylabel="operations per call (m + a)")
    _save(fig, path)
    return True


def example_9_5_slopes(points):
    """Log-log slopes of rel_err against ratio between the two smallest and between the two largest ratios
    (points sorted by ratio, as Data.example_9_5 has them): (low slope, high slope)."""
    def s(a, b):
        return math.log(b["rel_err"] / a["rel_err"]) / math.log(b["ratio"] / a["ratio"])
    return s(points[0], points[1]), s(points[-2], points[-1])


def example_9_5(data, path):
    """Example 9.5 (section 9.6): the reflected-inertia model's relative error in ydd against the exact geared
    model vs the gear ratio, log-log (reproductions.json example_9_5). Guides: slope +1 through the smallest
    ratio (error growing with the ratio while the reflected inertia is small beside the forearm's) and slope -1
    through the largest (falling like 1 / ratio once it dominates the diagonal); the largest error marked."""
    pts = data.example_9_5
    if not pts:
        return False
    rs, es = [p["ratio"] for p in pts], [p["rel_err"] for p in pts]
    peak = max(pts, key=lambda p: p["rel_err"])
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    lo, hi = example_9_5_slopes(pts)
    # Guides across the regime each describes: up to the peak and from it.
    up = [r for r in rs if r <= peak["ratio"]]
    down = [r for r in rs if r >= peak["ratio"]]
    ax.plot(up, [es[0] * r / rs[0] for r in up], ":", color="0.35", linewidth=1.2,
            label=f"slope +1 through ratio {rs[0]:g} (error grows like the ratio)")
    ax.plot(down, [es[-1] * rs[-1] / r for r in down], "--", color="0.35", linewidth=1.2,
            label=f"slope -1 through ratio {rs[-1]:g} (error falls like 1 / ratio)")
    ax.plot(rs, es, "o-", color=colors[0], markersize=5, linewidth=1.6,
            label="reflected-inertia model vs exact geared model")
    ax.annotate(f"largest: {fmt.sci(peak['rel_err'])} at ratio {peak['ratio']:g}\n(reflected inertia ~ forearm's)",
                (peak["ratio"], peak["rel_err"]), xytext=(0, -80), textcoords="offset points", ha="center",
                fontsize=8, arrowprops={"arrowstyle": "->", "color": "0.3", "linewidth": 0.8})
    ax.text(0.03, 0.97, f"rising (slope {lo:.2f}):\nreflected inertia small\nbeside the forearm's",
            transform=ax.transAxes, ha="left", va="top", fontsize=8, color="0.2")
    ax.text(0.97, 0.97, f"falling (slope {hi:.2f}):\nreflected inertia\ndominates the diagonal",
            transform=ax.transAxes, ha="right", va="top", fontsize=8, color="0.2")
    ax.set(xscale="log", yscale="log", xlabel="gear ratio (rotor turns per joint turn, dimensionless)",
           ylabel="relative error |ydd_quick - ydd_exact| / |ydd_exact|",
           title=f"Example 9.5 on Figure 9.2's arm: the reflected-inertia model's error peaks\n"
                 f"near gear ratio {peak['ratio']:g}, then falls like 1 / ratio as the rotors dominate")
    ax.set_ylim(min(es) / 2.5, max(es) * 4)
    ax.legend(loc="lower center", fontsize=7)
    _save(fig, path)
    return True


def loop_drift(data, path):
    """Sections 8.3 and 8.11 (loop_drift.json, verify/loop_drift_study.cpp): the loop-closure residual against
    time, log scale, at step 0.01 s, one panel per mechanism, one line per method (closure function, q
    integrated without stabilisation, Baumgarte at two time constants, projection). Zero residuals (exact closure at a
    sample) are drawn at the axis floor, 1e-18."""
    raw = data.loop_drift
    if not raw:
        return False
    names = {"closure_function": "closure function (y integrated)", "unstabilised": "q integrated, no stabilisation",
             "projection": "q integrated, projected every step"}
    label = lambda run: (f"Baumgarte, T_stab = {run['t_stab']:g} s" if run.get("t_stab") is not None
                         else names.get(run["method"], run["method"]))
    mechs = raw["mechanisms"]
    fig, axes = plt.subplots(1, len(mechs), figsize=(6.4 * len(mechs) / 1.4 + 2.2, 3.8), sharey=True, squeeze=False)
    floor = 1e-18
    for ax, m in zip(axes[0], mechs):
        for run in m["runs"]:
            if run["dt"] != 0.01:
                continue
            t = [s[0] for s in run["series"]]
            r = [max(s[1], floor) for s in run["series"]]
            ax.plot(t, r, linewidth=1.3, label=label(run))
        ax.set(yscale="log", xlabel="simulated time (s)", title=m["title"].split(" (")[0])
        ax.set_ylim(floor / 2, 1)
    axes[0][0].set_ylabel("loop-closure residual (m, rad)")
    # Beside the last panel: the panels have no empty band to hold it (tight_layout makes room).
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7)
    fig.suptitle(f"Loop closure over {raw['duration_s']:g} s, RK4 at step 0.01 s: the closure function keeps the loop "
                 f"closed to rounding, projection to its tolerance", fontsize=9)
    _save(fig, path)
    return True
