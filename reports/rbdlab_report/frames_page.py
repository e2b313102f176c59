"""The frames family page (frames.md), from reports/data/frames.json (written by
verify/frames_study.cpp) and algorithms/frames/README.md. Optional: without frames.json no
page is written. Every number comes from the JSON through fmt."""
import os

from . import bench_medians, fmt
from .data import GenerationError, load_json
from .pages import GENERATED, Context, embed_readme, read_readme

FAMILY = "frames"
PAGE = "frames.md"
GLOSSARY_FILE = "representations_glossary.json"   # optional, seed 002's names


def _check(raw, path):
    try:
        for key in ("exactness", "accuracy", "opcounts", "discrepancies", "pass"):
            raw[key]
        for i, r in enumerate(raw["exactness"]):
            for k in ("variant", "exact_digits", "digits_required", "pass"):
                r[k]
        for r in raw["accuracy"]:
            for k in ("variant", "n", "err_eps_max", "err_eps_mean", "err_eps_rms", "worst_seed", "budget_eps", "pass"):
                r[k]
        for r in raw["discrepancies"]:
            for k in ("quantity", "source", "published", "rbdlab_exact", "evidence"):
                r[k]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")


def _accuracy_table(raw):
    variants = list(dict.fromkeys(r["variant"] for r in raw["accuracy"]))
    ns = sorted({int(r["n"]) for r in raw["accuracy"]})
    by = {(r["variant"], int(r["n"])): r for r in raw["accuracy"]}
    rows = []
    for v in variants:
        row = [v]
        for n in ns:
            r = by.get((v, n))
            row.append(fmt.NA if r is None else f"{fmt.eps(r['err_eps_max'])} / {fmt.eps(r['err_eps_mean'])}"
                       + ("" if r["pass"] else " **over budget**"))
        rows.append(row)
    return fmt.table(["variant"] + [f"n={n} max / mean eps" for n in ns], rows, right=tuple(range(1, len(ns) + 1)))


def _ops_tables(raw):
    ops = raw["opcounts"]
    rows = [[c["variant"], fmt.count(c["per_link"]["m"]), fmt.count(c["per_link"]["a"]),
             fmt.count(c["n8"]["m"]), fmt.count(c["n8"]["a"])] for c in ops.get("chains", [])]
    t1 = fmt.table(["variant", "m per link", "a per link", "m, n=8", "a, n=8"], rows, right=(1, 2, 3, 4))
    rows = [[name, fmt.count(c["m"]), fmt.count(c["a"]), fmt.count(c.get("sqrt", 0))]
            for name, c in ops.get("operations", {}).items()]
    t2 = fmt.table(["operation", "m", "a", "sqrt"], rows, right=(1, 2, 3))
    return t1, t2


def _glossary(data):
    raw = load_json(os.path.join(data.data_dir, GLOSSARY_FILE), required=False)
    if raw is None:
        path = os.path.join(data.root, "algorithms", "representations", "glossary.json")
        raw = load_json(path, required=False) if os.path.exists(path) else None
    if not raw:
        return []
    try:
        cols = raw["columns"]
        rows = [[r[c] for c in cols] for r in raw["rows"]]
    except (KeyError, TypeError) as e:
        raise GenerationError(f"glossary: unexpected structure ({e!r})")
    return ["## Glossary of names (seed 002: Traversaro & Saccon)", "", raw.get("note", ""), "",
            fmt.table(cols, rows), ""]


BENCH_FILE = "bench_frames.json"
_SINGLE = [("frames/compose/pair/n:2", "one composition a >> b (all 18 components)"),
           ("frames/inverse/single/n:1", "one inverse !a"),
           ("frames/point_quaternion/single/n:1", "a point through a frame by its quaternion (r + q x q*)"),
           ("frames/point_cached_matrix/single/n:1", "a point through a frame by a cached rotation matrix (r + A x)"),
           ("frames/point_left_to_right/pair/n:2", "a moving point through two frames, p >> f1 >> f2"),
           ("frames/point_right_to_left/pair/n:2", "the same by composing the frames first, f2 * f1 * p")]
_CHAINS = ["chain_left_to_right", "chain_right_to_left", "quaternion_rates", "spatial_propagation"]


def _timing(data):
    """Median times of rbdlab_bench_frames (issue 7's composition questions), or a line saying
    `make bench` has not written them."""
    med = bench_medians.medians(data.data_dir, BENCH_FILE)
    L = ["## Timing (Google Benchmark, `make bench`)", ""]
    if med is None:
        return L + [f"Not run: `make bench` writes reports/data/{BENCH_FILE}.", ""]
    rows = [[what, fmt.ns(med[name]["ns"]), bench_medians.cv_cell(med[name])] for name, what in _SINGLE if name in med]
    L += [f"Medians over repetitions (reports/data/{BENCH_FILE}), random frames rotated per iteration.", "",
          fmt.table(["operation", "median ns", "cv"], rows, right=(1, 2)), ""]
    def ratio(a, b):
        return med[a]["ns"] / med[b]["ns"] if a in med and b in med else None
    q_vs_m = ratio("frames/point_quaternion/single/n:1", "frames/point_cached_matrix/single/n:1")
    r_vs_l = ratio("frames/point_right_to_left/pair/n:2", "frames/point_left_to_right/pair/n:2")
    if q_vs_m is not None:
        L.append(f"- A point through a frame costs {fmt.ratio(q_vs_m)} as much by the quaternion as by a cached "
                 "rotation matrix (the matrix itself is made once per frame, untimed: the trade Chrono makes "
                 "by caching [A]).")
    if r_vs_l is not None:
        L.append(f"- Composing the frames first (f2 * f1 * p) costs {fmt.ratio(r_vs_l)} of passing the point "
                 "through them one by one (p >> f1 >> f2): a frame-by-frame product carries all 18 "
                 "components, a point only 9.")
    ns_ = sorted({int(n.rsplit(":", 1)[1]) for n in med if n.split("/")[1] in _CHAINS})
    if ns_:
        rows = []
        for v in _CHAINS:
            cells = [fmt.ns(med[f"frames/{v}/chain/n:{n}"]["ns"]) if f"frames/{v}/chain/n:{n}" in med else fmt.NA
                     for n in ns_]
            rows.append([v] + cells)
        L += ["", "Chain variants, the last frame of a chain of n frames (median ns):", "",
              fmt.table(["variant"] + [f"n = {n}" for n in ns_], rows, right=tuple(range(1, len(ns_) + 1)))]
    return L + [""] + _representations_timing(data)


REP_BENCH_FILE = "bench_representations.json"
_REP_WHAT = {
    "jacobian_body": "Jacobian of a frame on the last body, body representation (Eq. 74, leaf-to-root walk)",
    "jacobian_inertial": "the same in the inertial representation (Eq. 74, then Eq. 75)",
    "jacobian_mixed": "the same in the mixed representation (Eq. 74, then Eq. 75)",
    "inertial_jacobian_root_to_body": "inertial Jacobian by the independent root-to-body pass",
    "forward_dynamics_mixed_eq80": "floating-base forward dynamics in the mixed representation (Eq. 80: CRBA, ID, dense Cholesky)",
    "forward_dynamics_aba_floating": "the same by aba_floating (Table 9.4, body representation)",
}


def _representations_timing(data):
    """Median times of rbdlab_bench_representations (seed 002's Jacobians and Eq. 80)."""
    med = bench_medians.medians(data.data_dir, REP_BENCH_FILE)
    L = ["### Representations (seed 002)", ""]
    if med is None:
        return L + [f"Not run: `make bench` writes reports/data/{REP_BENCH_FILE}.", ""]
    rows = []
    for name, r in med.items():
        parts = name.split("/")
        if len(parts) == 4 and parts[0] == "representations":
            rows.append([_REP_WHAT.get(parts[1], parts[1]), parts[2], parts[3].split(":")[1], fmt.ns(r["ns"]),
                         bench_medians.cv_cell(r)])
    L += [f"Medians over repetitions (reports/data/{REP_BENCH_FILE}). These are the suite's reference forms "
          "(they return Eigen matrices and allocate), timed beside the recursive algorithm.", "",
          fmt.table(["computation", "model", "nv", "median ns", "cv"], rows, right=(2, 3, 4)), ""]
    for model in sorted({n.split("/")[2] for n in med if n.startswith("representations/forward_dynamics_")}):
        a = [v for n, v in med.items() if n.startswith(f"representations/forward_dynamics_mixed_eq80/{model}/")]
        b = [v for n, v in med.items() if n.startswith(f"representations/forward_dynamics_aba_floating/{model}/")]
        if a and b:
            L.append(f"- {model}: Eq. 80 in the mixed representation costs {fmt.ratio(a[0]['ns'] / b[0]['ns'])} "
                     "aba_floating's time for the same accelerations.")
    return L + [""]


def render(data, tmp_out, final_out):
    """Writes frames.md into tmp_out; returns the list of files written (for the manifest)."""
    path = os.path.join(data.data_dir, "frames.json")
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    readme = read_readme(ctx, FAMILY)
    title = "Moving frames"
    L = [GENERATED, "", f"# {title}", "", "[Index](index.md) · [Reproductions](reproductions.md)", ""]
    L.append("Gate status: " + ("all frames checks pass." if raw["pass"] else "**a frames check failed** (see below)."))
    L += ["", "## Exactness (Reference vs the 4x4 homogeneous-matrix AD oracle)", ""]
    L.append(fmt.table(["variant", "exact digits (min)", "worst case", "required", "pass"],
                       [[r["variant"], fmt.digits(r["exact_digits"]), r.get("worst_case", fmt.NA),
                         fmt.digits(r["digits_required"]), fmt.yesno(r["pass"])] for r in raw["exactness"]],
                       right=(1, 3)))
    L += ["", "## Accuracy in double (vs the same variant in Reference, same inputs)", "",
          "Normwise relative error over the 19 stored numbers of the last frame, in units of eps, "
          "max and mean over the seeds, by chain length n.", "", _accuracy_table(raw), ""]
    t1, t2 = _ops_tables(raw)
    L += ["## Operation counts (Counted scalar)", "", t1, "", t2, ""]
    L += _timing(data)
    L += ["## Printed formulas of the seed found wrong", ""]
    if not raw["discrepancies"]:
        L.append("None.")
    for d in raw["discrepancies"]:
        L += [f"### {d['quantity']}", "", f"- source: {d['source']}", f"- printed: `{d['published']}`",
              f"- corrected: {d['rbdlab_exact']}", f"- evidence: {d['evidence']}"]
        if d.get("test"):
            L.append(f"- test: [{d['test']}]({ctx.link(d['test'])})")
        L.append("")
    L += _glossary(data)
    if readme:
        L += ["## The family (algorithms/frames/README.md)", "", embed_readme(ctx, FAMILY, readme), ""]
    rep = read_readme(ctx, "representations")
    if rep:
        L += ["## Representations (algorithms/representations/README.md)", "", embed_readme(ctx, "representations", rep), ""]
    ctx.write(PAGE, "\n".join(L))
    return ctx.written
