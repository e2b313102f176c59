#!/usr/bin/python3
"""Generate rbdlab's report from the data the suite writes.

    /usr/bin/python3 reports/generate.py [--data reports/data] [--out reports] [--root .]

Reads <data>/accuracy.json, opcounts.json, reproductions.json, discrepancies.json (written
by `make verify`) and, if present, bench.json (Google Benchmark JSON from `make bench`), plus
the family READMEs under <root>/algorithms/. Writes <out>/index.md, one <family>.md per
family in the data, reproductions.md, provenance.md and <out>/plots/*.svg.

Atomic: everything is rendered into a temporary directory inside <out> first and moved
into place only when generation succeeded; on any failure the previous report is left as it
was, the exit status is 1 and the message names the file at fault.

Needs Python 3 with only the standard library and Debian's python3-matplotlib (run it with
/usr/bin/python3: another python3 first on PATH may lack matplotlib).
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import traceback

sys.dont_write_bytecode = True   # keep __pycache__ out of reports/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from rbdlab_report.data import Data, GenerationError  # noqa: E402
from rbdlab_report import pages  # noqa: E402
from rbdlab_report import frames_page  # noqa: E402
from rbdlab_report import integration_page  # noqa: E402
from rbdlab_report import constraints_page  # noqa: E402
from rbdlab_report import contact_simulation_page  # noqa: E402
from rbdlab_report import lcp_solvers_page  # noqa: E402
from rbdlab_report import performance_page  # noqa: E402
from rbdlab_report import accuracy_studies_page  # noqa: E402
from rbdlab_report import mutation_page  # noqa: E402
from rbdlab_report import budgets_page  # noqa: E402
from rbdlab_report import planar_page  # noqa: E402

MANIFEST = ".generated.json"   # what the last successful run wrote (to remove stale pages)


def commit(tmp, out, written):
    """Move the rendered files from tmp into out. Pages are replaced one by one with
    os.replace (atomic per file); plots/ is swapped as a whole directory."""
    old = []
    try:
        with open(os.path.join(out, MANIFEST), encoding="utf-8") as f:
            old = json.load(f).get("files", [])
    except (OSError, ValueError, AttributeError):
        pass
    new_plots, out_plots = os.path.join(tmp, "plots"), os.path.join(out, "plots")
    if os.path.isdir(out_plots):
        os.rename(out_plots, os.path.join(tmp, "plots.previous"))   # removed with tmp
    if os.path.isdir(new_plots):
        os.rename(new_plots, out_plots)
    for name in written:
        if not name.startswith("plots/"):
            os.replace(os.path.join(tmp, name), os.path.join(out, name))
    for name in old:
        # Only top-level pages this generator wrote before and no longer writes (a family
        # that left the data); never anything else.
        if name not in written and "/" not in name and name.endswith(".md"):
            try:
                os.remove(os.path.join(out, name))
            except OSError:
                pass
    manifest = os.path.join(tmp, MANIFEST)
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump({"files": sorted(written)}, f, indent=1)
        f.write("\n")
    os.replace(manifest, os.path.join(out, MANIFEST))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(HERE, "data"), help="directory of the JSON data (default reports/data)")
    ap.add_argument("--out", default=HERE, help="report directory (default reports)")
    ap.add_argument("--root", default=os.path.dirname(HERE),
                    help="repository root, for the family READMEs and source links (default: the parent of reports/)")
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".generate-", dir=out)
    try:
        data = Data(os.path.abspath(args.data), os.path.abspath(args.root))
        written = pages.render_all(data, tmp, out, argv)
        written += frames_page.render(data, tmp, out)   # optional: frames.json
        written += integration_page.render(data, tmp, out)   # optional: integration.json
        written += constraints_page.render(data, tmp, out)   # optional: constraints.json
        written += contact_simulation_page.render(data, tmp, out)   # optional: contact_simulation.json
        written += lcp_solvers_page.render(data, tmp, out)   # optional: lcp_solvers.json
        written += performance_page.render(data, tmp, out)   # optional: symbolic.json (+ bench_generated.json, bench_batch.json)
        written += accuracy_studies_page.render(data, tmp, out)   # optional: roundoff.json
        written += mutation_page.render(data, tmp, out)   # optional: mutation.json (make mutate)
        written += budgets_page.render(data, tmp, out)   # budgets and regression limits (baselines)
        written += planar_page.render(data, tmp, out)   # opcounts.json's planar rows
        commit(tmp, out, written)
    except GenerationError as e:
        print(f"generate.py: error: {e}", file=sys.stderr)
        print("generate.py: the previous report was left unchanged", file=sys.stderr)
        return 1
    except Exception:  # a bug: still leave the previous report alone
        traceback.print_exc()
        print("generate.py: internal error; the previous report was left unchanged", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    pages_ = [w for w in written if not w.startswith("plots/")]
    print(f"generate.py: wrote {len(pages_)} pages and {len(written) - len(pages_)} plots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
