"""The frames family page (frames.md), from reports/data/frames.json (written by
verify/frames_study.cpp) and algorithms/frames/README.md. Optional: without frames.json no
page is written. Every number comes from the JSON through fmt."""
import os

from . import fmt
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
