"""The planar-vectors page (planar.md): section 2.16's 3D planar vectors against the spatial ones.
From opcounts.json's "planar" rows (verify/opcounts.cpp, planar_counts: RNEA, CRBA and ABA counted
both ways on planar revolute chains of n = 1..10) and algorithms/planar/README.md. Every number
comes from the JSON; the polynomial in n is fitted here and printed only when it reproduces every
counted point exactly."""
import os
from fractions import Fraction

from . import bench_medians, fmt, plots
from .data import GenerationError
from .pages import GENERATED, Context, embed_readme, read_readme

PAGE = "planar.md"
BENCH_FILE = "bench_planar.json"   # bench/bench_planar.cpp, optional
FAMILY = "planar"
ALGORITHMS = (("rnea", "RNEA (Table 5.1)"), ("crba", "CRBA (Table 6.2)"), ("aba", "ABA (Table 7.1)"))
KINDS = ("planar", "spatial")


def _check(rows, path):
    try:
        for r in rows:
            int(r["n"])
            for alg, _ in ALGORITHMS:
                for kind in KINDS:
                    int(r[alg][kind]["m"]), int(r[alg][kind]["a"])
    except (KeyError, TypeError, ValueError) as e:
        raise GenerationError(f"{path}: 'planar' rows: unexpected structure ({e!r} missing or malformed)")
    if len(rows) < 4:
        raise GenerationError(f"{path}: 'planar' needs at least 4 chain lengths to fit and check a quadratic")


def exact_fit(points, degree_max=2):
    """The lowest-degree polynomial (coefficients c0, c1, ...) through every (n, y) point, in exact
    rational arithmetic, or None when no polynomial of degree <= degree_max passes through all."""
    for degree in range(degree_max + 1):
        if len(points) < degree + 2:   # one point more than the fit needs, so the fit is a check
            return None
        base = points[:degree + 1]
        # Lagrange interpolation through the first degree + 1 points, expanded to coefficients.
        coeffs = [Fraction(0)] * (degree + 1)
        for i, (xi, yi) in enumerate(base):
            term = [Fraction(yi)]
            denom = Fraction(1)
            for j, (xj, _) in enumerate(base):
                if j == i:
                    continue
                term = [Fraction(0)] + term   # multiply by n
                for k in range(len(term) - 1):
                    term[k] -= xj * term[k + 1]
                denom *= (xi - xj)
            for k in range(len(term)):
                coeffs[k] += term[k] / denom
        if all(sum(c * Fraction(x) ** k for k, c in enumerate(coeffs)) == y for x, y in points):
            return coeffs
    return None


def _formula(rows, alg, kind):
    fits = []
    for op in ("m", "a"):
        c = exact_fit([(int(r["n"]), int(r[alg][kind][op])) for r in rows])
        if c is None:
            return fmt.NA
        fits.append([float(x) for x in c])
    return fmt.ops_formula(*fits)


def _plot(_data, rows, path):
    fig, ax = plots.plt.subplots(figsize=(8, 3.6))
    ns = [int(r["n"]) for r in rows]
    for k, (alg, label) in enumerate(ALGORITHMS):
        color = f"C{k}"
        for kind, ls in (("spatial", "-"), ("planar", "--")):
            ax.plot(ns, [r[alg][kind]["m"] + r[alg][kind]["a"] for r in rows], ls=ls, color=color, marker="o", ms=3,
                    label=f"{label.split(' ')[0]}, {kind} vectors")
    ax.set(xlabel="bodies n (planar revolute chain)", ylabel="multiplications + additions",
           title="Section 2.16: the same algorithms on planar and on spatial vectors")
    plots._integer_x(ax)
    ax.legend(fontsize=7, loc="upper left")
    plots._save(fig, path)
    return True


def _timing(data, rows):
    """Median times of rbdlab_bench_planar beside the counted ratio at the same n, or a line saying
    `make bench` has not written them."""
    med = bench_medians.medians(data.data_dir, BENCH_FILE)
    L = ["## Timing (Google Benchmark, `make bench`)", ""]
    if med is None:
        return L + [f"Not run: `make bench` writes reports/data/{BENCH_FILE}.", ""]
    counted = {int(r["n"]): r for r in rows}
    ns_ = sorted({int(name.rsplit(":", 1)[1]) for name in med if name.startswith("planar/")})
    body = []
    for alg, label in ALGORITHMS:
        for n in ns_:
            p, s_ = med.get(f"planar/{alg}_planar/chain/n:{n}"), med.get(f"planar/{alg}_spatial/chain/n:{n}")
            if p is None or s_ is None:
                continue
            c = counted.get(n)
            ops = (fmt.ratio((c[alg]["spatial"]["m"] + c[alg]["spatial"]["a"]) /
                             (c[alg]["planar"]["m"] + c[alg]["planar"]["a"])) if c else fmt.NA)
            body.append([label.split(" ")[0], str(n), fmt.ns(p["ns"]), fmt.ns(s_["ns"]),
                         fmt.ratio(s_["ns"] / p["ns"]), ops])
    L += [f"Medians over repetitions (reports/data/{BENCH_FILE}), one call each, 16 states rotated per "
          "iteration, on the chains the counts use; the op-count ratio where n was counted.", "",
          fmt.table(["algorithm", "n", "planar", "spatial", "time spatial / planar", "m + a spatial / planar"], body,
                    right=(1, 2, 3, 4, 5)), ""]
    return L


def render(data, tmp_out, final_out):
    """Writes planar.md into tmp_out; returns the files written. Needs opcounts.json's "planar"."""
    path = os.path.join(data.data_dir, "opcounts.json")
    if not data.planar_ops:
        return []
    _check(data.planar_ops, path)
    rows = sorted(data.planar_ops, key=lambda r: int(r["n"]))
    ctx = Context(data, tmp_out, final_out, [])
    L = [GENERATED, "", "# Planar vectors (section 2.16, Appendix A.1)", "",
         "[Index](index.md) · [Reproductions](reproductions.md)", "",
         "The RNEA, the CRBA and the ABA written on 3D planar motion and force vectors "
         "(`algorithms/planar/`) beside the same algorithms on spatial vectors, on the same planar "
         "revolute chains (the planar model converted by `planar::to_spatial`). "
         f"[verify/test_planar.cpp]({ctx.link('verify/test_planar.cpp')}) checks that both give the "
         "same tau, H and qdd: to 40 digits in Reference, and in double to 16 n^2 eps (times cond(H) for qdd) "
         "on random planar trees; the counts below are from "
         f"[verify/opcounts.cpp]({ctx.link('verify/opcounts.cpp')}) (`planar_counts`), counted by the "
         "`Counted` scalar on one call each.", ""]
    L += ["## Operation counts vs n", "",
          "Exact polynomials in n through every counted chain length (n = "
          f"{int(rows[0]['n'])}..{int(rows[-1]['n'])}; a formula is printed only when it reproduces every point):", ""]
    L.append(fmt.table(["algorithm", "planar vectors", "spatial vectors"],
                       [[label, _formula(rows, alg, "planar"), _formula(rows, alg, "spatial")] for alg, label in ALGORITHMS]))
    head = ["n"]
    for alg, label in ALGORITHMS:
        name = label.split(" ")[0]
        head += [f"{name} planar m + a", f"{name} spatial m + a", f"{name} spatial / planar"]
    body = []
    for r in rows:
        row = [str(int(r["n"]))]
        for alg, _ in ALGORITHMS:
            p = r[alg]["planar"]["m"] + r[alg]["planar"]["a"]
            s = r[alg]["spatial"]["m"] + r[alg]["spatial"]["a"]
            row += [fmt.count(p), fmt.count(s), f"{s / p:.2f}"]
        body.append(row)
    L += ["", fmt.table(head, body, right=tuple(range(len(head)))), ""]
    last = rows[-1]
    ratio = {alg: (last[alg]["spatial"]["m"] + last[alg]["spatial"]["a"]) /
             (last[alg]["planar"]["m"] + last[alg]["planar"]["a"]) for alg, _ in ALGORITHMS}
    best = max(ratio, key=ratio.get)
    L.append(f"At n = {int(last['n'])} the largest saving is in the {best.upper()} "
             f"({ratio[best]:.2f}x fewer operations); section 10.3's footnote expects the ABA, whose "
             "articulated-body inertias shrink from 21 numbers to 6 (a Reproductions row checks it).")
    limits = []
    for alg, label in ALGORITHMS:
        lead = {}
        for kind in KINDS:
            fm = exact_fit([(int(r["n"]), int(r[alg][kind]["m"])) for r in rows])
            fa = exact_fit([(int(r["n"]), int(r[alg][kind]["a"])) for r in rows])
            if fm is None or fa is None or len(fm) != len(fa):
                break
            lead[kind] = fm[-1] + fa[-1]
        if len(lead) == 2:
            limits.append(f"{label.split(' ')[0]} {float(lead['spatial'] / lead['planar']):.2f}")
    if len(limits) == len(ALGORITHMS):
        L[-1] += (" For large n each ratio tends to the ratio of its formulas' leading coefficients (m + a): "
                  + ", ".join(limits) + ".")
    L += ["", ctx.plot("planar_ops_vs_n", _plot, rows), ""]
    L += _timing(data, rows)
    readme = read_readme(ctx, FAMILY)
    if readme:
        L += ["## The implementation (algorithms/planar/README.md)", "", embed_readme(ctx, FAMILY, readme), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
