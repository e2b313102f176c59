"""The mutation-score page (mutation.md), from reports/data/mutation.json (written by
tools/mutate.py, `make mutate`; issue 13, item 7). Optional: without mutation.json no page is
written. CI does not run the mutants: the page shows the last run, and the commit it ran on.
Every number comes from the JSON."""
import os

from . import fmt
from .data import GenerationError, load_json
from .pages import GENERATED, Context

PAGE = "mutation.md"
FILE = "mutation.json"
# The kinds of issue 13, item 7, in its words, with what a mutant of each kind does.
KINDS = (("wrong_formula", "wrong formula", "a sign, an index, a transpose or a missing term, in every scalar"),
         ("double_precision_loss", "double-only precision loss",
          "a result or intermediate times 1 + 1e-12 (~4500 eps) or rounded through float, in double only"),
         ("double_nan_some_models", "double-only NaN on some models",
          "NaN on some models (e.g. 12 or more bodies, a joint type), in double only"),
         ("extra_operation", "one extra operation", "x * S(1): the same value, one more counted operation"))
KIND_NAME = {k: name for k, name, _ in KINDS}
TOP_KEYS = ("commit", "dirty", "date", "compiler", "mutant_set", "mode", "checks", "by_kind", "total", "survivors",
            "mutants")
MUTANT_KEYS = ("id", "kind", "file", "line", "description", "killed", "killed_by", "checks", "seconds")


def _check(raw, path):
    try:
        missing = [k for k in TOP_KEYS if k not in raw]
        if missing:
            raise KeyError(", ".join(missing))
        for k in ("name", "path", "mutants"):
            raw["mutant_set"][k]
        for k in ("order", "mutant0_seconds", "timeout_seconds"):
            raw["checks"][k]
        for kind, v in raw["by_kind"].items():
            int(v["killed"]), int(v["total"])
        int(raw["total"]["killed"]), int(raw["total"]["total"])
        ids = set()
        for i, m in enumerate(raw["mutants"]):
            lacks = [k for k in MUTANT_KEYS if k not in m]
            if lacks:
                raise GenerationError(f"{path}: mutant record {i} lacks {', '.join(lacks)}")
            if m["kind"] not in KIND_NAME:
                raise GenerationError(f"{path}: mutant {m['id']} has an unknown kind '{m['kind']}'")
            for c in m["killed_by"]:
                m["checks"][c]["status"]
            ids.add(m["id"])
        for s in raw["survivors"]:
            if s not in ids:
                raise GenerationError(f"{path}: survivor {s} is not among the mutants")
    except GenerationError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)") from None


def _pct(killed, total):
    return fmt.pct(killed / total) if total else fmt.NA


def _killed_by_cell(m):
    """Each check that failed, with its first detail (a failing test case, a gate line)."""
    if not m["killed"]:
        return "**survived**"
    parts = []
    for c in m["killed_by"]:
        r = m["checks"][c]
        status = r["status"]
        what = c if status == "fail" else f"{c} ({status})"
        details = [d for d in r.get("details", []) if d]
        if details:
            more = f" (+{len(details) - 1})" if len(details) > 1 else ""
            what += f": {details[0]}{more}"
        parts.append(what)
    return "; ".join(parts)


def _site(ctx, m):
    return f"[{m['file']}:{m['line']}]({ctx.link(m['file'])}#L{m['line']})"


def _kills_per_check(raw):
    kills = {c: 0 for c in raw["checks"]["order"]}
    for m in raw["mutants"]:
        for c in m["killed_by"]:
            kills[c] = kills.get(c, 0) + 1
    return kills


def render(data, tmp_out, final_out):
    """Writes mutation.md (from mutation.json: the suite's set) and mutation_<set>.md for each
    mutation_<set>.json (another set, e.g. the held-out one) into tmp_out; returns the files
    written (for the manifest)."""
    names = [FILE] if os.path.exists(os.path.join(data.data_dir, FILE)) else []
    names += sorted(f for f in os.listdir(data.data_dir) if f.startswith("mutation_") and f.endswith(".json"))
    written = []
    for name in names:
        written += _render_one(data, tmp_out, final_out, name, [n for n in names if n != name])
    return written


def _render_one(data, tmp_out, final_out, file_name, others):
    path = os.path.join(data.data_dir, file_name)
    raw = load_json(path, required=False)
    if raw is None:
        return []
    _check(raw, path)
    ctx = Context(data, tmp_out, final_out, [])
    page = file_name[:-5] + ".md"
    ms = raw["mutant_set"]
    comp = raw["compiler"]
    compiler = comp.get("version", "unknown") if isinstance(comp, dict) else str(comp)
    tot = raw["total"]
    first_kill = raw["mode"] == "first_kill"
    L = [GENERATED, "", "# Mutation score: do the gates catch a broken algorithm?", "",
         "[Index](index.md) · [Provenance](provenance.md)"
         + "".join(f" · [{o[:-5]}]({o[:-5]}.md)" for o in others), "",
         f"Last run: commit `{raw['commit'][:12]}`" + (" with uncommitted changes" if raw["dirty"] else "")
         + f", {raw['date']}, {compiler}; mutant set `{ms['name']}` ([{ms['path']}]({ctx.link(ms['path'])}), "
         f"{ms['mutants']} mutants, {len(raw['mutants'])} run); "
         + ("each mutant stopped at its first failing check (`--first-kill`)." if first_kill
            else "every check run on every mutant.")
         + " CI does not run the mutants: this page shows the last run of `make mutate`, not the current tree.", "",
         f"**{tot['killed']} of {tot['total']} mutants killed** ({_pct(tot['killed'], tot['total'])}). A mutant is "
         f"killed when at least one check fails on it: the Catch2 gates (a failing test case), a measurement program "
         f"of `make verify` (its exit status), or the regression gate `tools/gate.py check` against "
         f"`reports/baselines/`; a crash, or no result within the time limit, is a kill too.", "",
         "## Score by kind", ""]
    rows = []
    for kind, name, what in KINDS:
        v = raw["by_kind"].get(kind, {"killed": 0, "total": 0})
        rows.append([name, what, v["killed"], v["total"], _pct(v["killed"], v["total"])])
    rows.append(["all", "", tot["killed"], tot["total"], _pct(tot["killed"], tot["total"])])
    L += [fmt.table(["kind", "what the mutant does", "killed", "total", "score"], rows, right=(2, 3, 4)), ""]
    by_id = {m["id"]: m for m in raw["mutants"]}
    L += ["## Survivors", ""]
    if raw["survivors"]:
        L.append("Mutants no check caught: each is an error of its kind that today's gates let through.")
        L.append("")
        for s in raw["survivors"]:
            m = by_id[s]
            L.append(f"- **{m['id']}** ({KIND_NAME[m['kind']]}, {_site(ctx, m)}): {m['description']}")
    else:
        L.append("None: every mutant was killed.")
    L += ["", "## Every mutant", "",
          "Killed by: each check that failed" + (" (the first one only: `--first-kill`)" if first_kill else "")
          + ", with its first failing test case or gate line (+N: more of them).", ""]
    rows = [[m["id"], KIND_NAME[m["kind"]], _site(ctx, m), m["description"], "killed" if m["killed"] else "**survived**",
             _killed_by_cell(m) if m["killed"] else fmt.NA, f"{m['seconds']:.0f}"] for m in raw["mutants"]]
    L += [fmt.table(["id", "kind", "site", "what it does", "result", "killed by", "s"], rows, right=(0, 6)), ""]
    chk = raw["checks"]
    kills = _kills_per_check(raw)
    rows = [[c, f"{chk['mutant0_seconds'].get(c, 0):.1f}", f"{chk['timeout_seconds'].get(c, 0):.0f}", kills.get(c, 0)]
            for c in chk["order"]]
    L += ["## Checks", "",
          "In the order they run (cheapest first by the unmutated build's time; the gate after the programs whose "
          "output it reads, and on that output even when they failed). The unmutated build (mutant 0) must pass them "
          "all before any mutant runs.", "",
          fmt.table(["check", "mutant 0 (s)", "time limit (s)", "mutants it killed"], rows, right=(1, 2, 3)), ""]
    lb = (raw.get("build") or {}).get("last_build")
    if lb and lb.get("seconds") is not None:
        L.append(f"One build of every mutant: {lb['seconds']:.0f} s ({lb.get('steps', '?')} compile and link steps, "
                 f"-j {lb.get('jobs', '?')}, {lb.get('date', '?')}); then the unmutated run took "
                 f"{raw.get('mutant0', {}).get('seconds', 0):.0f} s"
                 + (f" and the whole run {raw['run_seconds']:.0f} s." if "run_seconds" in raw else "."))
        L.append("")
    ident = (raw.get("mutant0") or {}).get("identical_to")
    if ident and ident.get("files"):
        same = [f for f, ok in ident["files"].items() if ok]
        diff = [f for f, ok in ident["files"].items() if not ok]
        nbytes = len(ident.get("bytes_identical", []))
        L += [f"The switch changes nothing when off: mutant 0's output against {ident['directory']}, timing fields "
              f"aside: " + (f"identical: {', '.join(same)}" + (f" ({nbytes} of them byte for byte)" if nbytes else "")
                            if same else "")
              + ("; " if same and diff else "") + (f"**different**: {', '.join(diff)}" if diff else "") + ".", ""]
    L += ["## How it works and how to reproduce", "",
          f"Mutants are data: [{ms['path']}]({ctx.link(ms['path'])}) gives each one's file, the exact original text "
          f"(which must occur once), the replacement and its kind. [tools/mutate.py]({ctx.link('tools/mutate.py')}) "
          "copies the source tree into `build-mutate/`, turns every site into a schema behind a run-time switch "
          "(`(rbd_mutant_on(K) ? (mutated) : (original))`, or the same as an if-statement), builds that copy once "
          "(Release, the real build's flags plus a forced include that reads `RBDLAB_MUTANT` once), and runs every "
          "check with `RBDLAB_MUTANT=K` for each mutant, each on a fresh data directory.", "",
          "```sh",
          "make mutate                  # the suite's set (tools/mutants/suite.json), every check on every mutant",
          "make mutate FIRST_KILL=1     # stop each mutant at its first failing check",
          "make mutate MUTANTS=holdout  # another set: any file name under tools/mutants/",
          "```", "",
          f"More in [tools/README.md]({ctx.link('tools/README.md')})."]
    ctx.write(page, "\n".join(L))
    return ctx.written
