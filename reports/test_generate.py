#!/usr/bin/python3
"""Tests of reports/generate.py (stdlib unittest; run with /usr/bin/python3 -m unittest
reports/test_generate.py, or directly).

The generator runs as a subprocess, as `make report` runs it, on:
  - the suite's current data in reports/data/ (written into a temporary directory, so the
    committed report is not touched);
  - a small synthetic data set with a hand-written Google Benchmark bench.json, and the same
    without bench.json.
Expected numbers are computed here from the data, independently of the generator's code.
"""
import atexit
import copy
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GENERATE = os.path.join(HERE, "generate.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def run_generator(*args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([PYTHON, GENERATE, *args], capture_output=True, text=True, env=env, timeout=300)


def summary_rows(index_text):
    """Cells of the summary table (the first table after '## Summary'), header excluded."""
    lines = index_text.split("## Summary", 1)[1].splitlines()
    table = []
    for line in lines:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table[2:]]
    return header, rows


def snapshot(directory):
    out = {}
    for dirpath, dirnames, filenames in os.walk(directory):
        for name in filenames:
            p = os.path.join(dirpath, name)
            with open(p, "rb") as f:
                out[os.path.relpath(p, directory)] = f.read()
    return out


def f1(x):
    return f"{x:.1f}"


def ns(x):
    return f"{x:.0f}" if x >= 100 else (f"{x:.1f}" if x >= 10 else f"{x:.2f}")


# ---------------------------------------------------------------- synthetic data
EPS = 2.0 ** -52


def acc_record(family, variant, case, n, err_max, err_mean, vs_typ, digits=49.5, budget=32.0, ok=True):
    return {"budget_eps": budget, "cancellation": 1.5, "case": case, "depth": n, "err_eps_max": err_max,
            "err_eps_mean": err_mean, "err_eps_rms": err_mean * 1.2, "err_eps_vs_typical_max": vs_typ,
            "exact_digits": digits, "family": family, "n": n, "pass": ok, "scalar": "double", "seeds": 20,
            "variant": variant, "worst_seed": 3}


ACCURACY = {"eps": EPS, "what": "synthetic", "records": [
    acc_record("inverse_dynamics", "a_fast", "gu:2", 2, 3.25, 0.75, 2.0, digits=48.25),
    acc_record("inverse_dynamics", "a_fast", "gu:8", 8, 9.5, 1.5, 4.0),
    acc_record("inverse_dynamics", "a_fast", "tree:bf=2:nb=15", 15, 7.0, 1.0, 30.0, budget=64.0),
    acc_record("inverse_dynamics", "b_slow", "gu:2", 2, 1.25, 0.25, 1.0),
    acc_record("inverse_dynamics", "b_slow", "gu:8", 8, 2.5, 0.5, 1.5, digits=47.75),
    acc_record("inverse_dynamics", "b_slow", "tree:bf=2:nb=15", 15, 2.0, 0.5, 1.0, budget=64.0),
    acc_record("mass_matrix", "crba", "gu:2", 2, 0.5, 0.25, 0.5),
    acc_record("mass_matrix", "crba", "gu:8", 8, 1.5, 0.75, 40.0, ok=False),
    acc_record("forward_dynamics", "aba", "gu:2", 2, 4.0, 2.0, 3.0),
]}

FITS = {("inverse_dynamics", "a_fast"): ([-10.0, 100.0], [-5.0, 80.0]),
        ("inverse_dynamics", "b_slow"): ([-20.0, 150.0], [-10.0, 120.0]),
        ("mass_matrix", "crba"): ([-30.0, 20.0, 12.0], [-40.0, 30.0, 7.0])}


def poly(c, n):
    return sum(x * n ** k for k, x in enumerate(c))


OPCOUNTS = {
    "what": "synthetic", "convention": "m = multiplications + divisions; a = additions + subtractions",
    "records": [{"family": f, "variant": v, "case": "gu", "n": n, "m": poly(m, n), "a": poly(a, n),
                 "mul": poly(m, n), "add": poly(a, n), "div": 0, "sqrt": 0, "sin": n, "cos": n}
                for (f, v), (m, a) in FITS.items() for n in range(1, 31)],
    "fits": [{"family": f, "variant": v, "case": "gu", "valid_for": "n >= 1", "formula": "unused",
              "m": {"coefficients": m, "exact": True}, "a": {"coefficients": a, "exact": True}}
             for (f, v), (m, a) in FITS.items()],
    "book_table_10_1": [
        {"algorithm": "RNEA", "m": [-10.0, 90.0], "a": [-10.0, 80.0], "source": "Table 10.1 row 1 (Alpha)"},
        {"algorithm": "RNEA", "m": [-50.0, 95.0], "a": [-40.0, 85.0], "source": "Table 10.1 row 2 (Beta)"},
        {"algorithm": "CRBA", "m": [-32.0, 22.0, 10.0], "a": [-43.0, 37.0, 6.0],
         "source": "Table 10.1 row 5 = Eq. 10.3 (Featherstone 2005)"}],
}

REPRODUCTIONS = {"what": "synthetic", "records": [
    {"quantity": "q one", "source": "book 1.1", "published": 1.25, "rbdlab": "1.2500001", "agree": True,
     "printed_decimals": 2, "matches_rounding": True, "matches_truncation": True},
    {"quantity": "q two", "source": "book 2.2", "published": 0.6952, "rbdlab": "0.6591587", "agree": False,
     "printed_decimals": 4, "matches_rounding": False, "matches_truncation": False},
    {"quantity": "q three", "source": "book 3.3", "published": "> 80", "rbdlab": "105.22", "agree": True}]}

DISCREPANCIES = {"what": "synthetic", "discrepancies": [
    {"quantity": "q two", "source": "book 2.2", "published": 0.6952, "rbdlab_at_printed_precision": "0.6592",
     "rbdlab_exact": "0.6591587", "evidence": "synthetic evidence sentence"}]}

# Times: t(n) = c n^k ns, exact power laws so the fitted exponents are known.
TIMES = {("inverse_dynamics", "a_fast"): (50.0, 1.0), ("inverse_dynamics", "b_slow"): (30.0, 1.5),
         ("inverse_dynamics", "mujoco"): (100.0, 1.0), ("mass_matrix", "crba"): (20.0, 2.0),
         ("mass_matrix", "mujoco"): (25.0, 2.0)}
GU_N = (1, 2, 4, 7, 8, 16, 30, 32, 64)
TREE_N = (7, 15, 63)


def t_ns(key, n):
    c, k = TIMES[key]
    return c * n ** k


def bench_json():
    """What Google Benchmark 1.7 writes with --benchmark_repetitions=3 and SetComplexityN."""
    benchmarks = []
    fam_index = 0
    for (fam, var), _ in TIMES.items():
        for case, sizes in (("gu", GU_N), ("tree_bf2", TREE_N)):
            unit, scale = ("us", 1e-3) if var == "b_slow" else ("ns", 1.0)
            for inst, n in enumerate(sizes):
                run_name = f"{fam}/{var}/{case}/n:{n}"
                t = t_ns((fam, var), n) * scale
                common = {"family_index": fam_index, "per_family_instance_index": inst, "repetitions": 3,
                          "threads": 1, "time_unit": unit}
                if var != "b_slow":           # older writers omit run_name; the generator must cope
                    common["run_name"] = run_name
                for rep, f in enumerate((0.99, 1.0, 1.02)):
                    benchmarks.append(dict(common, name=run_name, run_type="iteration", repetition_index=rep,
                                           iterations=1000, real_time=t * f, cpu_time=t * f, nv=n, depth=n))
                for agg, value, agg_unit in (("mean", t * 1.0033, "time"), ("median", t, "time"),
                                             ("stddev", t * 0.01, "time"), ("cv", 0.0125, "percentage")):
                    benchmarks.append(dict(common, name=f"{run_name}_{agg}", run_type="aggregate",
                                           aggregate_name=agg, aggregate_unit=agg_unit, iterations=3,
                                           real_time=value, cpu_time=value, nv=n, depth=n))
            benchmarks.append({"name": f"{fam}/{var}/{case}_BigO", "run_name": f"{fam}/{var}/{case}",
                               "run_type": "aggregate", "aggregate_name": "BigO", "family_index": fam_index,
                               "cpu_coefficient": 1.0, "real_coefficient": 1.0, "big_o": "N", "time_unit": "ns"})
            benchmarks.append({"name": f"{fam}/{var}/{case}_RMS", "run_name": f"{fam}/{var}/{case}",
                               "run_type": "aggregate", "aggregate_name": "RMS", "family_index": fam_index,
                               "rms": 0.01})
            fam_index += 1
    benchmarks.append({"name": "mass_matrix/crba/gu/n:256", "run_name": "mass_matrix/crba/gu/n:256",
                       "run_type": "iteration", "error_occurred": True,
                       "error_message": "synthetic: exactness check failed"})
    return {"context": {"date": "2024-01-01T00:00:00+00:00", "host_name": "synthetic-host",
                        "executable": "./build/bench/rbdlab_bench", "num_cpus": 2, "mhz_per_cpu": 2000,
                        "cpu_scaling_enabled": False,
                        "caches": [{"type": "Data", "level": 1, "size": 32768, "num_sharing": 1}],
                        "load_avg": [0.5, 0.4, 0.3], "library_build_type": "release",
                        "compiler": "g++ 12.2.0 (synthetic)", "cxx_flags": "-O3 -DNDEBUG",
                        "peer:mujoco:inverse_dynamics": "mj_kinematics + mj_comPos + mj_comVel + mj_rne"},
            "benchmarks": benchmarks}


def slope(key):
    pts = [(n, t_ns(key, n)) for n in GU_N if n >= 8]
    xs, ys = [math.log(n) for n, _ in pts], [math.log(t) for _, t in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


class Synthetic:
    """A temporary repository root with algorithms/*/README.md and reports/data/*.json."""

    def __init__(self, with_bench=True):
        self.root = tempfile.mkdtemp(prefix="rbdlab-report-test-")
        self.data = os.path.join(self.root, "reports", "data")
        self.out = os.path.join(self.root, "reports")
        os.makedirs(self.data)
        alg = os.path.join(self.root, "algorithms", "inverse_dynamics")
        os.makedirs(alg)
        with open(os.path.join(alg, "README.md"), "w") as f:
            f.write("# Synthetic inverse dynamics\n\nThe problem statement.\n\n## Variants\n\n"
                    "See [the fast one](a_fast.hpp) and [web](https://example.org/x).\n\n```\n# not a heading\n```\n")
        for name in ("a_fast.hpp", "b_slow.hpp", "variants.hpp"):
            open(os.path.join(alg, name), "w").close()
        self.write("accuracy.json", ACCURACY)
        self.write("opcounts.json", OPCOUNTS)
        self.write("reproductions.json", REPRODUCTIONS)
        self.write("discrepancies.json", DISCREPANCIES)
        if with_bench:
            self.write("bench.json", bench_json())

    def write(self, name, obj):
        with open(os.path.join(self.data, name), "w") as f:
            json.dump(obj, f, indent=1)

    def generate(self):
        return run_generator("--data", self.data, "--out", self.out, "--root", self.root)

    def read(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return f.read()

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


# ---------------------------------------------------------------- tests
_CURRENT = {}


def current_report():
    """(out dir, result) of the generator on the suite's own reports/data, run once per test process
    (CurrentData and NumbersFromData read it; nothing writes to it) and removed at exit."""
    if not _CURRENT:
        out = tempfile.mkdtemp(prefix="rbdlab-report-current-")
        atexit.register(shutil.rmtree, out, True)
        _CURRENT["report"] = (out, run_generator("--data", os.path.join(HERE, "data"), "--out", out, "--root", ROOT))
    return _CURRENT["report"]


class CurrentData(unittest.TestCase):
    """The generator on the suite's own reports/data, written to a temporary directory."""

    @classmethod
    def setUpClass(cls):
        cls.out, cls.result = current_report()
        with open(os.path.join(HERE, "data", "accuracy.json")) as f:
            cls.acc = json.load(f)

    def read(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return f.read()

    def test_runs(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)

    def test_pages_exist(self):
        families = {r["family"] for r in self.acc["records"]}
        for name in ["index.md", "reproductions.md", "provenance.md"] + [f"{f}.md" for f in families]:
            self.assertTrue(os.path.isfile(os.path.join(self.out, name)), name)
        for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", "".join(self.read(f"{f}.md") for f in families)):
            self.assertTrue(os.path.isfile(os.path.join(self.out, img)), img)

    def test_summary_matches_data(self):
        header, rows = summary_rows(self.read("index.md"))
        # One row per family x variant, grouped by family (families and, within each, variants
        # in the order they first appear in the data: a variant that applies only to later
        # cases, such as the floating-base ones, still sits with its family).
        families, pairs = [], []
        for r in self.acc["records"]:
            if r["family"] not in families:
                families.append(r["family"])
        for fam in families:
            for r in self.acc["records"]:
                if r["family"] == fam and (fam, r["variant"]) not in pairs:
                    pairs.append((fam, r["variant"]))
        got = [(re.sub(r"\[([^\]]+)\].*", r"\1", row[0]), row[1]) for row in rows]
        self.assertEqual(got, pairs)
        for (fam, var), row in zip(pairs, rows):
            # A variant's own cases: those it handed to another variant (fallback_to) are that
            # variant's figures (issue 13; the Fallbacks class below tests the marking).
            rs = [r for r in self.acc["records"] if (r["family"], r["variant"]) == (fam, var)
                  and not r.get("fallback_to")]
            cells = dict(zip(header, row))
            if not rs:
                continue
            self.assertEqual(cells["exact digits (min)"], f1(min(r["exact_digits"] for r in rs)))
            self.assertEqual(cells["accuracy in double"],
                             f"Max {f1(max(r['err_eps_max'] for r in rs))} eps / "
                             f"Mean {f1(sum(r['err_eps_mean'] for r in rs) / len(rs))} eps")
            self.assertEqual(cells["gate"].split(" (")[0], f"pass {len(rs)}/{len(rs)}" if all(r["pass"] for r in rs)
                             else f"**FAIL** {sum(r['pass'] for r in rs)}/{len(rs)}")

    def test_source_links_resolve(self):
        for fam in {r["family"] for r in self.acc["records"]}:
            links = re.findall(r"\]\((\.\./[^)]+)\)", self.read(f"{fam}.md"))
            self.assertTrue(links, fam)
            for link in links:
                # relative to where the report was written
                self.assertTrue(os.path.exists(os.path.normpath(os.path.join(self.out, link))), link)

    def test_reproductions_every_record(self):
        page = self.read("reproductions.md")
        with open(os.path.join(HERE, "data", "reproductions.json")) as f:
            for r in json.load(f)["records"]:
                self.assertIn(r["quantity"].replace("|", "\\|"), page)
                self.assertIn(str(r["rbdlab"]), page)
        with open(os.path.join(HERE, "data", "discrepancies.json")) as f:
            for d in json.load(f)["discrepancies"]:
                self.assertIn(d["evidence"], page)

    def test_accuracy_studies_page(self):
        """roundoff.json (verify/roundoff_study.cpp) -> accuracy_studies.md: the index links it, its plots
        exist, every checked statement is on it and on the Reproductions page, the contradicted ones with
        their evidence, and the fitted slopes in its prose are the data's."""
        path = os.path.join(HERE, "data", "roundoff.json")
        if not os.path.exists(path):
            self.skipTest("no roundoff.json")
        with open(path) as f:
            raw = json.load(f)
        page, repro = self.read("accuracy_studies.md"), self.read("reproductions.md")
        self.assertIn("(accuracy_studies.md)", self.read("index.md"))
        imgs = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page)
        self.assertEqual(len(imgs), 4)
        for img in imgs:
            self.assertTrue(os.path.isfile(os.path.join(self.out, img)), img)
        for r in raw["reproductions"]:
            q = r["quantity"].replace("|", "\\|")
            self.assertIn(q, page)
            self.assertIn(q, repro)
            self.assertIn(("agrees" if r["agree"] else "**disagrees**"), page)
        for d in raw["discrepancies"]:
            self.assertIn(d["evidence"], repro)
        chol = raw["planar_body"]["solvers"]["cholesky_llt"]
        self.assertIn(f"grows with slope {chol['fit_above_10']['slope']:.3g} for |c|", page)
        self.assertIn(f"slope {raw['conditioning']['chain_fit']['slope']:.3g} ", page)
        self.assertIn("every check passes." if raw["pass"] else "**a check failed**", page)


    def test_own_benchmark_timings(self):
        """bench_frames.json and bench_constraints.json (`make bench`) -> the Timing sections of frames.md and
        constraints.md: each median as printed, and the ratios in the prose computed from the same medians."""
        for fname, page_name in (("bench_frames.json", "frames.md"), ("bench_constraints.json", "constraints.md"),
                                 ("bench_representations.json", "frames.md")):
            path = os.path.join(HERE, "data", fname)
            page = self.read(page_name)
            self.assertIn("## Timing (Google Benchmark, `make bench`)", page)
            if fname == "bench_representations.json":
                self.assertIn("### Representations (seed 002)", page)
            if not os.path.exists(path):
                self.assertIn(f"Not run: `make bench` writes reports/data/{fname}.", page)
                continue
            with open(path) as f:
                med = {b["run_name"]: b["real_time"] for b in json.load(f)["benchmarks"]
                       if b.get("aggregate_name") == "median" and b.get("time_unit") == "ns"}
            for name, t in med.items():
                if "/chain/" not in name:
                    self.assertIn(f"|{ns(t)}|", page.replace(" ", ""), name)  # a table cell
            if fname == "bench_representations.json":
                for model in ("solo12",):
                    r = (med[f"representations/forward_dynamics_mixed_eq80/{model}/n:18"]
                         / med[f"representations/forward_dynamics_aba_floating/{model}/n:18"])
                    self.assertIn(f"- {model}: Eq. 80 in the mixed representation costs {r:.2f}x", page)
            elif fname == "bench_constraints.json":
                r = (med["constraints/forward_dynamics/maximal_kkt/lock_mechanism"]
                     / med["constraints/forward_dynamics/minimal_aba/lock_mechanism"])
                self.assertIn(f"The maximal route costs {r:.2f}x the minimal one", page)
            else:
                r = med["frames/point_quaternion/single/n:1"] / med["frames/point_cached_matrix/single/n:1"]
                self.assertIn(f"costs {r:.2f}x as much by the quaternion", page)

    def test_figure_10_5(self):
        """opcounts.json's figure_10_5 (verify/opcounts.cpp) -> forward_dynamics.md: the plot, the ratios at
        n = 63 in the prose, its statements on the Reproductions page."""
        with open(os.path.join(HERE, "data", "opcounts.json")) as f:
            raw = json.load(f)
        if "figure_10_5" not in raw:
            self.skipTest("opcounts.json has no figure_10_5 yet")
        fig = raw["figure_10_5"]
        page, repro = self.read("forward_dynamics.md"), self.read("reproductions.md")
        self.assertIn("](plots/forward_dynamics_figure_10_5.svg)", page)
        self.assertTrue(os.path.isfile(os.path.join(self.out, "plots", "forward_dynamics_figure_10_5.svg")))
        book = {r["n"]: r for r in fig["book_rows"]["per_n"]}
        rbd = {r["n"]: r for r in fig["rbdlab"]["per_n"]}
        ratios = lambda rows, num, den: ", ".join(f"{rows[n][num] / rows[n][den]:.2f}" for n in (15, 31, 63))
        self.assertIn(f"costs {ratios(book, 'route_binary_tree', 'aba')} times ABA at n = 15, 31 and 63", page)
        self.assertIn(f"costs {ratios(rbd, 'crba_ltdl_binary_tree', 'aba_binary_tree')} times `aba`", page)
        self.assertIn(f"costs {ratios(rbd, 'dh_route_binary_tree', 'aba_dh_binary_tree')} times `aba_dh`", page)
        for r in raw.get("reproductions", []):
            self.assertIn(r["quantity"].replace("|", "\\|"), repro)


    def test_example_9_5_plot(self):
        """reproductions.json's example_9_5 (verify/reproductions.cpp) -> geared_dynamics.md: the plot right below
        the README's Example 9.5 table, its file written, and the caption's figures computed here from the data."""
        with open(os.path.join(HERE, "data", "reproductions.json")) as f:
            raw = json.load(f)
        if "example_9_5" not in raw:
            self.skipTest("reproductions.json has no example_9_5 yet")
        pts = sorted(raw["example_9_5"]["points"], key=lambda p: p["ratio"])
        page = self.read("geared_dynamics.md")
        section = page.split("### Example 9.5", 1)[1].split("\n### ", 1)[0]
        table_end = section.index("\n\n", section.index("\n|"))
        self.assertTrue(section[table_end:].lstrip("\n").startswith(
            "![geared_dynamics_example_9_5](plots/geared_dynamics_example_9_5.svg)"), section[table_end:][:200])
        self.assertTrue(os.path.isfile(os.path.join(self.out, "plots", "geared_dynamics_example_9_5.svg")))
        self.assertIn(example_9_5_caption(pts), section)


    def test_loop_drift_plot(self):
        """loop_drift.json (verify/loop_drift_study.cpp) -> closed_loop_dynamics.md: the plot right below the
        README's drift table, its file written, and the caption's residuals as the data has them."""
        path = os.path.join(HERE, "data", "loop_drift.json")
        if not os.path.exists(path):
            self.skipTest("no loop_drift.json yet")
        with open(path) as f:
            raw = json.load(f)
        sys.path.insert(0, HERE)
        from rbdlab_report import fmt
        runs = {r["id"]: r for m in raw["mechanisms"] if m["id"] == "four_bar" for r in m["runs"]}
        page = self.read("closed_loop_dynamics.md")
        section = page.split("Drift in simulation", 1)[1].split("\n### ", 1)[0]
        table_end = section.index("\n\n", section.index("\n|"))
        self.assertTrue(section[table_end:].lstrip("\n").startswith(
            "![closed_loop_dynamics_drift](plots/closed_loop_dynamics_drift.svg)"), section[table_end:][:200])
        self.assertTrue(os.path.isfile(os.path.join(self.out, "plots", "closed_loop_dynamics_drift.svg")))
        for rid in ("closure_function_dt_0.01", "unstabilised_dt_0.01"):
            self.assertIn(fmt.sci(runs[rid]["max_residual"]), section)


    def test_integration_page(self):
        """integration.json (verify/integration_study.cpp) -> integration.md: the order study's independent truth
        (method, its error estimate, the cross-check with rkmk4_se3 in Reference), both readings of the heavy
        top's Eqs. 38-42 with their verdicts, every verdict and the plots; numbers as the data has them."""
        path = os.path.join(HERE, "data", "integration.json")
        if not os.path.exists(path):
            self.skipTest("no integration.json")
        with open(path) as f:
            raw = json.load(f)
        page = self.read("integration.md")
        sci = lambda x: f"{x:.2g}"
        self.assertIn("(integration.md)", self.read("index.md"))
        for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page):
            self.assertTrue(os.path.isfile(os.path.join(self.out, img)), img)
        self.assertIn("all integration gates pass." if raw["pass"] else "**an integration gate failed**", page)
        self.assertIn(f"compares {len(raw['gated_figures'])} figures", page)
        for s in raw["systems"]:
            ref, xc = s["order"]["reference"], s["order"]["cross_check"]
            self.assertIn(f"({ref['method']}; k = {ref['columns']} columns, order {ref['order']}, {ref['macro_steps']} "
                          f"macro steps of H = {ref['H'] * 1e3:g} ms, {ref['evaluations']} field evaluations)", page)
            self.assertIn(f"Its own error estimate is {sci(ref['error_estimate'])} m: the larger of the distance to the "
                          f"same run with H doubled ({sci(ref['halving_diff'])} m)", page)
            self.assertIn(f"lies {sci(xc['distance'])} m from it; its own Richardson estimate is "
                          f"{sci(xc['error_estimate'])} m (ratio {xc['distance_over_estimate']:.3g})", page)
            self.assertIn("pass." if xc["pass"] else "**fail**.", page)
            for v in s["order"]["variants"]:
                self.assertRegex(page, rf"\| {re.escape(v['variant'])} +\| +{v['order']:.2f} \|")
        readings = raw["heavy_top_readings"]["readings"]
        self.assertEqual(sorted(r["reading"] for r in readings), ["current_configuration", "printed_r0"])
        section = page.split("## Heavy top: two readings of Eqs. 38-42", 1)[1].split("\n## ", 1)[0]
        self.assertIn("](plots/integration_heavy_top_readings.svg)", section)
        for rd in readings:
            for r in rd["runs"]:
                self.assertRegex(section, rf"\| {re.escape(rd['label'].split(':')[0])} +\| {r['variant']} +\| +"
                                          rf"{re.escape(sci(r['max_energy_drift_1s']))} \| +{re.escape(sci(r['max_energy_drift']))} \|")
        judged = [v for v in raw["verdict"] if v.get("reading")]
        self.assertEqual(sorted(v["reading"] for v in judged), ["current_configuration", "printed_r0"])
        for v in judged:
            self.assertIn(f"- {'confirmed' if v['confirmed'] else '**contradicted**'}: {v['evidence']}", section)
        for v in raw["verdict"]:
            self.assertIn(v["evidence"].replace("|", "\\|"), page)


class SyntheticWithBench(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Synthetic(with_bench=True)
        cls.result = cls.s.generate()

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def test_runs(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)

    def test_one_page_per_family(self):
        for fam in ("inverse_dynamics", "mass_matrix", "forward_dynamics"):
            self.assertTrue(os.path.isfile(os.path.join(self.s.out, f"{fam}.md")), fam)

    def test_summary_rows_and_numbers(self):
        header, rows = summary_rows(self.s.read("index.md"))
        keys = [(re.sub(r"\[([^\]]+)\].*", r"\1", r[0]), r[1]) for r in rows]
        self.assertEqual(keys, [("inverse_dynamics", "a_fast"), ("inverse_dynamics", "b_slow"),
                                ("mass_matrix", "crba"), ("forward_dynamics", "aba")])
        cells = {k: dict(zip(header, r)) for k, r in zip(keys, rows)}
        a = cells[("inverse_dynamics", "a_fast")]
        self.assertEqual(a["exact digits (min)"], "48.2")          # 48.25 -> round half to even
        self.assertEqual(a["accuracy in double"], f"Max {f1(9.5)} eps / Mean {f1((0.75 + 1.5 + 1.0) / 3)} eps")
        self.assertEqual(a["worst vs typical / budget"], "30.0 of 64.0 eps")   # 30/64 beats 4/32
        self.assertEqual(a["gate"], "pass 3/3")
        self.assertEqual(cells[("mass_matrix", "crba")]["gate"], "**FAIL** 1/2")
        # op counts: fitted formula, best RNEA row at n = 30 (row 1: 2690 + 2390 < row 2: 2800 + 2510)
        self.assertEqual(a["ops on GU(n)"], "(100n - 10)m + (80n - 5)a")
        self.assertEqual(a["best Table 10.1 row"], "row 1: (90n - 10)m + (80n - 10)a")
        self.assertEqual(a["ops / book at n=30"],
                         f"{poly([-10, 100], 30) / poly([-10, 90], 30):.2f}x m, "
                         f"{poly([-5, 80], 30) / poly([-10, 80], 30):.2f}x a")
        crba = cells[("mass_matrix", "crba")]
        r_m = poly([-30, 20, 12], 30) / poly([-32, 22, 10], 30)
        r_a = poly([-40, 30, 7], 30) / poly([-43, 37, 6], 30)
        self.assertEqual(crba["ops / book at n=30"], f"{r_m:.2f}x m, {r_a:.2f}x a")
        self.assertEqual(cells[("forward_dynamics", "aba")]["ops on GU(n)"], "–")
        # bench: medians (b_slow is written in us), exponent, ratio to mujoco
        key = ("inverse_dynamics", "b_slow")
        b = cells[key]
        self.assertEqual(b["GU(7) ns"], ns(t_ns(key, 7)))
        self.assertEqual(b["GU(30) ns"], ns(t_ns(key, 30)))
        self.assertEqual(b["tree_bf2 n=63 ns"], ns(t_ns(key, 63)))
        self.assertEqual(b["time exponent (GU, n>=8)"], f"{slope(key):.2f}")
        self.assertEqual(b["time exponent (GU, n>=8)"], "1.50")
        mj = ("inverse_dynamics", "mujoco")
        self.assertEqual(b["vs mujoco GU(7) / GU(30) / tree_bf2 n=63"],
                         " / ".join(f"{t_ns(key, n) / t_ns(mj, n):.2f}x" for n in (7, 30, 63)))
        self.assertEqual(a["vs mujoco GU(7) / GU(30) / tree_bf2 n=63"], "0.50x / 0.50x / 0.50x")
        self.assertEqual(cells[("forward_dynamics", "aba")]["GU(7) ns"], "–")

    def test_peers(self):
        index = self.s.read("index.md")
        self.assertIn("### Peers, same models, same run", index)
        self.assertIn("mj_kinematics + mj_comPos + mj_comVel + mj_rne", index)
        page = self.s.read("inverse_dynamics.md")
        self.assertIn("`mujoco` (peer)", page)
        self.assertIn("mj_kinematics + mj_comPos + mj_comVel + mj_rne", page)
        self.assertIn("not stated in bench.json", self.s.read("mass_matrix.md"))

    def test_performance_targets(self):
        # crba takes 20 n^2 ns, mujoco 25 n^2: 0.80x everywhere, above the 0.42x bar (bold, missed);
        # the robots and the humanoid are absent from the synthetic run ("–"); inverse_dynamics has
        # no rnea_spatial.
        index = self.s.read("index.md")
        self.assertIn("### Performance targets (issues 3 and 5)", index)
        row = next(line for line in index.splitlines() if line.startswith("| mass_matrix/crba "))
        cells = [c.strip() for c in row.strip("|").split("|")]
        self.assertEqual(cells[1], "<= 0.42x")
        self.assertEqual(cells[2:6], ["**0.80x**"] * 4)
        self.assertEqual(cells[6:11], ["–"] * 5)
        self.assertEqual(cells[11], "0 of 4")
        self.assertNotIn("| inverse_dynamics/rnea_spatial", index)

    def test_family_page(self):
        page = self.s.read("inverse_dynamics.md")
        self.assertIn("# Synthetic inverse dynamics (`inverse_dynamics`)", page)
        self.assertIn("The problem statement.", page)
        self.assertIn("### Variants", page)                       # README headings moved down
        self.assertIn("# not a heading", page)                    # code blocks untouched
        self.assertIn("[the fast one](../algorithms/inverse_dynamics/a_fast.hpp)", page)
        self.assertIn("(https://example.org/x)", page)
        self.assertIn("[a_fast.hpp](../algorithms/inverse_dynamics/a_fast.hpp)", page)
        # accuracy table has every record, with its numbers
        self.assertRegex(page, r"\| tree:bf=2:nb=15 +\| +15 \| +15 \| a_fast +\| +49\.5 \| +7\.0 \| +1\.0 \|")
        # timing table: median with cv, slope row, ratio column
        self.assertIn(f"{ns(t_ns(('inverse_dynamics', 'a_fast'), 64))} [1.2%]", page)
        self.assertRegex(page, r"\| slope +\| +1\.00 \| +1\.50 \| +1\.00 \|")
        self.assertIn("a_fast/mujoco", page)
        for plot in ("inverse_dynamics_error_vs_n", "inverse_dynamics_ops_vs_n", "inverse_dynamics_time_gu",
                     "inverse_dynamics_time_tree_bf2", "inverse_dynamics_work_precision"):
            self.assertIn(f"](plots/{plot}.svg)", page)
            self.assertTrue(os.path.isfile(os.path.join(self.s.out, "plots", plot + ".svg")), plot)
        # work-precision pairs accuracy cases with benchmarks of the same model
        self.assertRegex(page, r"\| a_fast +\| gu:8 +\| +400 \| +9\.5 \|")
        self.assertRegex(page, r"\| a_fast +\| tree:bf=2:nb=15 +\| +750 \| +7\.0 \|")
        # op-count table beside the book rows, Eq. 10.3 named for CRBA
        mm = self.s.read("mass_matrix.md")
        self.assertIn("row 5 = Eq. 10.3 (Featherstone 2005)", mm)
        self.assertRegex(mm, r"\| +30 \| +{} / {} \| +{} / {} \|".format(
            poly([-30, 20, 12], 30), poly([-40, 30, 7], 30), poly([-32, 22, 10], 30), poly([-43, 37, 6], 30)))
        self.assertIn("synthetic: exactness check failed", mm)
        # a future family with no README, no op counts, no benchmarks still gets a page
        fd = self.s.read("forward_dynamics.md")
        self.assertIn("No README at algorithms/forward_dynamics/README.md", fd)
        self.assertIn("Not counted for this family", fd)

    def test_reproductions(self):
        page = self.s.read("reproductions.md")
        self.assertIn("2 of 3 agree", page)
        for r in REPRODUCTIONS["records"]:
            self.assertIn(r["quantity"], page)
            self.assertIn(r["rbdlab"], page)
            self.assertIn(str(r["published"]), page)
        self.assertIn("synthetic evidence sentence", page)
        self.assertIn("**no** (discrepancy below)", page)

    def test_provenance(self):
        page = self.s.read("provenance.md")
        self.assertIn("g++ 12.2.0 (synthetic)", page)
        self.assertIn("-O3 -DNDEBUG", page)
        for name in ("accuracy.json", "opcounts.json", "reproductions.json", "discrepancies.json", "bench.json"):
            size = os.path.getsize(os.path.join(self.s.data, name))
            self.assertRegex(page, rf"\| {re.escape(name)} +\| +{size} \|")

    def test_plots_deterministic(self):
        before = snapshot(os.path.join(self.s.out, "plots"))
        result = self.s.generate()
        self.assertEqual(result.returncode, 0, result.stderr)
        after = snapshot(os.path.join(self.s.out, "plots"))
        self.assertEqual(sorted(before), sorted(after))
        for name in before:
            self.assertEqual(before[name], after[name], name)
            self.assertNotIn(b"<dc:date>", after[name])
        self.assertEqual(self.s.read("index.md").count("## Summary"), 1)


class SyntheticWithoutBench(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Synthetic(with_bench=False)
        cls.result = cls.s.generate()

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def test_not_run(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        header, rows = summary_rows(self.s.read("index.md"))
        self.assertEqual(len(rows), 4)
        for row in rows:
            cells = dict(zip(header, row))
            for col in ("GU(7) ns", "GU(30) ns", "tree_bf2 n=63 ns", "time exponent (GU, n>=8)",
                        "vs mujoco GU(7) / GU(30) / tree_bf2 n=63"):
                self.assertEqual(cells[col], "not run", col)
        self.assertIn("Not run: `reports/data/bench.json` is absent", self.s.read("inverse_dynamics.md"))
        self.assertFalse(os.path.exists(os.path.join(self.s.out, "plots", "inverse_dynamics_time_gu.svg")))


def figure_10_5_opcounts():
    """OPCOUNTS plus a synthetic figure_10_5 object (verify/opcounts.cpp's layout) and its checked statements:
    ABA 400n, the chain's route n^3 + 200n, the tree's route 300n + 20 n log2(n) (book); rbdlab's aba 700n,
    crba_ltdl 450n on the tree; aba_dh 450n, the DH route 430n on the tree."""
    book, rbd = [], []
    for n in range(1, 64):
        tree = 300 * n + 20 * n * math.log2(n)
        book.append({"n": n, "aba": 400 * n, "route_chain": n ** 3 + 200 * n, "route_binary_tree": tree,
                     "ratio_chain": (n ** 3 + 200 * n) / (400 * n), "ratio_binary_tree": tree / (400 * n)})
        rbd.append({"n": n, "aba_binary_tree": 700 * n, "aba_chain": 700 * n, "crba_ltdl_chain": n ** 3 + 500 * n,
                    "crba_ltdl_binary_tree": 450 * n, "ratio_binary_tree": 450 / 700,
                    "ratio_chain": (n ** 3 + 500 * n) / (700 * n), "aba_dh_binary_tree": 450 * n,
                    "dh_route_chain": n ** 3 + 300 * n, "dh_route_binary_tree": 430 * n,
                    "dh_ratio_binary_tree": 430 / 450, "dh_ratio_chain": (n ** 3 + 300 * n) / (450 * n)})
    dev = lambda rows, k: max(abs(r[k] - 1) for r in rows if r["n"] >= 8)
    at = lambda rows, k: {str(n): rows[n - 1][k] for n in (15, 31, 63)}
    fig = {"closeness": {"measure": "max |ratio - 1| over 8 <= n <= 63", "tolerance": 0.25},
           "book_rows": {"per_n": book, "max_deviation_binary_tree": dev(book, "ratio_binary_tree"),
                         "ratio_binary_tree_at": at(book, "ratio_binary_tree")},
           "rbdlab": {"per_n": rbd, "max_deviation_binary_tree": dev(rbd, "ratio_binary_tree"),
                      "dh_max_deviation_binary_tree": dev(rbd, "dh_ratio_binary_tree")}}
    statements = [{"quantity": "fig 10.5 statement (book formulas)", "source": "Featherstone 10.3.2",
                   "published": "almost identical", "rbdlab": "synthetic 1.08", "criterion": "synthetic criterion",
                   "agree": True},
                  {"quantity": "fig 10.5 statement (rbdlab counts)", "source": "Featherstone 10.3.2",
                   "published": "almost identical", "rbdlab": "synthetic 0.64", "criterion": "synthetic criterion",
                   "agree": False}]
    return dict(copy.deepcopy(OPCOUNTS), figure_10_5=fig, reproductions=statements, discrepancies=[])


class SyntheticFigure10_5(unittest.TestCase):
    """opcounts.json's figure_10_5 object -> a section of forward_dynamics.md (plot, prose numbers from the
    data, a table) and its statements on the Reproductions page."""

    @classmethod
    def setUpClass(cls):
        cls.s = Synthetic(with_bench=False)
        cls.ops = figure_10_5_opcounts()
        cls.s.write("opcounts.json", cls.ops)
        cls.result = cls.s.generate()

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def test_section(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        page = self.s.read("forward_dynamics.md")
        self.assertIn("[Figure 10.5](#figure-105-binary-trees)", page)
        section = page.split("## Figure 10.5: binary trees", 1)[1].split("\n## ", 1)[0]
        self.assertIn("](plots/forward_dynamics_figure_10_5.svg)", section)
        self.assertTrue(os.path.isfile(os.path.join(self.s.out, "plots", "forward_dynamics_figure_10_5.svg")))
        r = lambda n: (300 + 20 * math.log2(n)) / 400          # the book's tree route / ABA
        chain = lambda n: (n ** 2 + 200) / 400
        self.assertIn(f"costs {r(15):.2f}, {r(31):.2f}, {r(63):.2f} times ABA at n = 15, 31 and 63", section)
        self.assertIn(f"on the chain {chain(15):.2f}, {chain(31):.2f}, {chain(63):.2f})", section)
        self.assertIn(f"`crba_ltdl` costs {450 / 700:.2f}, {450 / 700:.2f}, {450 / 700:.2f} times `aba`", section)
        self.assertIn(f"costs {430 / 450:.2f}, {430 / 450:.2f}, {430 / 450:.2f} times `aba_dh`", section)
        # largest |ratio - 1| over n >= 8: the book's at n = 8 (300 + 60)/400 = 0.9, rbdlab's 1 - 450/700
        self.assertIn(f"Largest |ratio - 1| over 8 <= n <= 63: {0.1:.2f} (book's formulas), {1 - 450 / 700:.2f} "
                      f"(`crba_ltdl`/`aba`), {1 - 430 / 450:.2f} (DH route/`aba_dh`), against the 0.25", section)
        self.assertIn("holds for the book's formulas and the DH route/`aba_dh`, not for `crba_ltdl`/`aba`.", section)
        # the table at n = 63: book ABA, chain and tree routes, rbdlab aba and crba_ltdl
        self.assertRegex(section, r"\| +63 \| +{} \| +{} \| +{} \| +{} \|".format(
            400 * 63, 63 ** 3 + 200 * 63, f"{300 * 63 + 20 * 63 * math.log2(63):g}", 700 * 63))
        for st in self.ops["reproductions"]:
            self.assertIn(st["quantity"], section)
        self.assertIn("**disagrees**", section)

    def test_reproductions(self):
        page = self.s.read("reproductions.md")
        for st in self.ops["reproductions"]:
            self.assertIn(st["quantity"], page)
            self.assertIn(st["rbdlab"], page)
        self.assertIn(f"{2 + 1} of {3 + 2} agree", page)       # REPRODUCTIONS' 2 of 3 plus 1 of 2
        self.assertIn("(forward_dynamics.md#figure-105-binary-trees)", page)

    def test_absent_without_data(self):
        s = Synthetic(with_bench=False)
        try:
            self.assertEqual(s.generate().returncode, 0)
            self.assertNotIn("Figure 10.5", s.read("forward_dynamics.md"))
            self.assertFalse(os.path.exists(os.path.join(s.out, "plots", "forward_dynamics_figure_10_5.svg")))
        finally:
            s.cleanup()


class Failures(unittest.TestCase):
    """A failed generation leaves the previous report byte for byte, exits non-zero and names the file."""

    @classmethod
    def setUpClass(cls):
        cls.pristine = Synthetic(with_bench=True)
        result = cls.pristine.generate()
        assert result.returncode == 0, result.stderr

    @classmethod
    def tearDownClass(cls):
        cls.pristine.cleanup()

    def setUp(self):
        # A copy of a generated synthetic tree: data plus a complete previous report.
        self.s = copy.copy(self.pristine)
        self.s.root = tempfile.mkdtemp(prefix="rbdlab-report-fail-")
        shutil.copytree(self.pristine.root, self.s.root, dirs_exist_ok=True)
        self.s.data = os.path.join(self.s.root, "reports", "data")
        self.s.out = os.path.join(self.s.root, "reports")
        self.before = {k: v for k, v in snapshot(self.s.out).items() if not k.startswith("data")}

    def tearDown(self):
        self.s.cleanup()

    def assert_untouched(self, result, culprit):
        self.assertNotEqual(result.returncode, 0)
        self.assertIn(os.path.join(self.s.data, culprit), result.stderr)
        after = {k: v for k, v in snapshot(self.s.out).items() if not k.startswith("data")}
        self.assertEqual(sorted(after), sorted(self.before))
        for k in self.before:
            self.assertEqual(after[k], self.before[k], k)
        leftovers = [n for n in os.listdir(self.s.out) if n.startswith(".generate-")]
        self.assertEqual(leftovers, [])

    def test_corrupt_json(self):
        with open(os.path.join(self.s.data, "accuracy.json"), "w") as f:
            f.write('{"eps": 2.2e-16, "records": [')
        self.assert_untouched(self.s.generate(), "accuracy.json")

    def test_corrupt_bench(self):
        with open(os.path.join(self.s.data, "bench.json"), "w") as f:
            f.write("not json")
        self.assert_untouched(self.s.generate(), "bench.json")

    def test_missing_file(self):
        os.remove(os.path.join(self.s.data, "opcounts.json"))
        self.assert_untouched(self.s.generate(), "opcounts.json")

    def test_record_lacking_a_field(self):
        acc = copy.deepcopy(ACCURACY)
        del acc["records"][3]["err_eps_max"]
        self.s.write("accuracy.json", acc)
        result = self.s.generate()
        self.assert_untouched(result, "accuracy.json")
        self.assertIn("err_eps_max", result.stderr)

    def test_wrong_type(self):
        rep = copy.deepcopy(REPRODUCTIONS)
        rep["records"] = {"not": "a list"}
        self.s.write("reproductions.json", rep)
        self.assert_untouched(self.s.generate(), "reproductions.json")

    def test_family_leaving_the_data_loses_its_page(self):
        acc = copy.deepcopy(ACCURACY)
        acc["records"] = [r for r in acc["records"] if r["family"] != "forward_dynamics"]
        self.s.write("accuracy.json", acc)
        result = self.s.generate()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.s.out, "forward_dynamics.md")))
        self.assertTrue(os.path.exists(os.path.join(self.s.out, "mass_matrix.md")))
        self.assertTrue(os.path.exists(os.path.join(self.s.data, "accuracy.json")))


def mutation_json():
    """A small mutation.json as tools/mutate.py writes it: 5 mutants, 2 survivors."""
    def check(status="pass", details=()):
        return {"status": status, "exit_code": 0 if status == "pass" else 1, "seconds": 1.0, "details": list(details)}
    order = ["rbdlab_opcounts", "rbdlab_accuracy", "gate", "rbdlab_tests"]

    def m(i, kind, killed_by, details=None):
        checks = {c: check() for c in order}
        for c in killed_by:
            checks[c] = check("timeout" if c == "rbdlab_tests" and i == 4 else "fail", (details or {}).get(c, []))
        return {"id": i, "kind": kind, "file": f"algorithms/inverse_dynamics/f{i}.hpp", "line": 10 + i, "form": "expr",
                "description": f"mutant number {i} | with a bar", "killed": bool(killed_by), "killed_by": killed_by,
                "checks": checks, "seconds": 12.0 * i}
    mutants = [m(1, "wrong_formula", ["rbdlab_accuracy", "gate", "rbdlab_tests"],
                 {"rbdlab_tests": ["exactness - rnea", "identities"], "gate": ["accuracy: x/y/z fails its budget"]}),
               m(2, "double_precision_loss", []),
               m(3, "double_nan_some_models", ["gate"], {"gate": ["accuracy: a/b/c is NaN"]}),
               m(4, "double_nan_some_models", ["rbdlab_tests"]),
               m(5, "extra_operation", [])]
    return {"what": "synthetic", "commit": "0123456789abcdef0123", "dirty": True, "source": "worktree",
            "date": "2025-11-25T12:00:00Z", "compiler": {"path": "/usr/bin/c++", "version": "c++ (Debian 12.2.0-14) 12.2.0"},
            "build": {"type": "Release", "seconds_this_run": 0.5, "jobs": 2, "targets": ["rbdlab_tests"],
                      "last_build": {"seconds": 1234.0, "steps": 51, "jobs": 2, "date": "2025-11-25T10:00:00Z"}},
            "mutant_set": {"name": "suite", "path": "tools/mutants/suite.json", "sha256": "0" * 64, "mutants": 5},
            "mode": "all_checks",
            "checks": {"order": order, "mutant0_seconds": {"rbdlab_opcounts": 2.5, "rbdlab_accuracy": 30.25, "gate": 0.5,
                                                             "rbdlab_tests": 95.0},
                       "timeout_seconds": {"rbdlab_opcounts": 60.0, "rbdlab_accuracy": 302.5, "gate": 60.0,
                                           "rbdlab_tests": 950.0}},
            "mutant0": {"passed": True, "seconds": 128.25,
                        "identical_to": {"directory": "reports/data at 0123456789ab (HEAD)",
                                         "files": {"accuracy.json": True, "opcounts.json": True, "roundoff.json": False},
                                         "bytes_identical": ["accuracy.json"]}},
            "by_kind": {"wrong_formula": {"killed": 1, "total": 1}, "double_precision_loss": {"killed": 0, "total": 1},
                        "double_nan_some_models": {"killed": 2, "total": 2}, "extra_operation": {"killed": 0, "total": 1}},
            "total": {"killed": 3, "total": 5}, "survivors": [2, 5], "mutants": mutants, "run_seconds": 2000.0}


class MutationPage(unittest.TestCase):
    """mutation.md from mutation.json (tools/mutate.py): optional, every number from the JSON."""

    @classmethod
    def setUpClass(cls):
        cls.raw = mutation_json()
        cls.s = Synthetic(with_bench=False)
        cls.s.write("mutation.json", cls.raw)
        cls.result = cls.s.generate()

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def page(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        return self.s.read("mutation.md")

    def test_score_by_kind(self):
        page = self.page()
        table = page.split("## Score by kind", 1)[1].split("##", 1)[0]
        rows = {r[0]: r for r in ([c.strip() for c in line.strip("|").split("|")]
                                  for line in table.splitlines() if line.startswith("|"))}
        for kind, name in (("wrong_formula", "wrong formula"), ("double_precision_loss", "double-only precision loss"),
                           ("double_nan_some_models", "double-only NaN on some models"),
                           ("extra_operation", "one extra operation")):
            v = self.raw["by_kind"][kind]
            self.assertEqual(rows[name][2:5], [str(v["killed"]), str(v["total"]), f"{100 * v['killed'] / v['total']:.1f}%"])
        self.assertEqual(rows["all"][2:4], ["3", "5"])
        self.assertIn("**3 of 5 mutants killed** (60.0%)", page)

    def test_provenance_and_how_to_reproduce(self):
        page = self.page()
        self.assertIn("commit `0123456789ab` with uncommitted changes", page)
        self.assertIn("2025-11-25T12:00:00Z", page)
        self.assertIn("c++ (Debian 12.2.0-14) 12.2.0", page)
        self.assertIn("make mutate", page)
        self.assertIn("mutant set `suite`", page)

    def test_survivors_listed(self):
        section = self.page().split("## Survivors", 1)[1].split("##", 1)[0]
        for m in self.raw["mutants"]:
            self.assertEqual(f"**{m['id']}**" in section, m["id"] in self.raw["survivors"], m["id"])

    def test_every_mutant_with_what_killed_it(self):
        table = self.page().split("## Every mutant", 1)[1].split("##", 1)[0]
        rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
                for line in table.splitlines() if line.startswith("|")][2:]
        self.assertEqual([r[0] for r in rows], ["1", "2", "3", "4", "5"])
        by_id = {r[0]: r for r in rows}
        self.assertIn("f1.hpp:11", by_id["1"][2])
        self.assertEqual(by_id["1"][4], "killed")
        self.assertIn("rbdlab_accuracy", by_id["1"][5])
        self.assertIn("gate: accuracy: x/y/z fails its budget", by_id["1"][5])
        self.assertIn("rbdlab_tests: exactness - rnea (+1)", by_id["1"][5])
        self.assertIn("rbdlab_tests (timeout)", by_id["4"][5])
        self.assertEqual(by_id["2"][4], "**survived**")
        self.assertEqual(by_id["3"][6], "36")
        self.assertIn("mutant number 1 \\| with a bar", table)

    def test_checks_table(self):
        table = self.page().split("## Checks", 1)[1].split("##", 1)[0]
        rows = {r[0]: r for r in ([c.strip() for c in line.strip("|").split("|")]
                                  for line in table.splitlines() if line.startswith("|"))}
        self.assertEqual(rows["rbdlab_accuracy"][1:], ["30.2", "302", "1"])
        self.assertEqual(rows["gate"][1:], ["0.5", "60", "2"])
        self.assertEqual(rows["rbdlab_tests"][1:], ["95.0", "950", "2"])
        self.assertIn("One build of every mutant: 1234 s (51 compile and link steps, -j 2", table)
        self.assertIn("identical: accuracy.json, opcounts.json (1 of them byte for byte); **different**: roundoff.json",
                      table)

    def test_no_json_no_page(self):
        s = Synthetic(with_bench=False)
        try:
            result = s.generate()
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertFalse(os.path.exists(os.path.join(s.out, "mutation.md")))
        finally:
            s.cleanup()

    def test_malformed_json_fails_and_names_the_file(self):
        s = Synthetic(with_bench=False)
        try:
            self.assertEqual(s.generate().returncode, 0)
            before = s.read("index.md")
            raw = mutation_json()
            del raw["mutants"][1]["killed_by"]
            s.write("mutation.json", raw)
            result = s.generate()
            self.assertNotEqual(result.returncode, 0)
            self.assertIn(os.path.join(s.data, "mutation.json"), result.stderr)
            self.assertIn("killed_by", result.stderr)
            self.assertEqual(s.read("index.md"), before)
            self.assertFalse(os.path.exists(os.path.join(s.out, "mutation.md")))
        finally:
            s.cleanup()


class PlanarPage(unittest.TestCase):
    """planar.md from opcounts.json's "planar" rows: exact fits only, no page without the rows."""

    @staticmethod
    def rows(m_of_n):
        # Counts from given polynomials, so the expected formulas are known independently.
        return [{"n": n,
                 "rnea": {"planar": {"m": 42 * n - 16, "a": 34 * n - 17}, "spatial": {"m": 154 * n - 67, "a": 126 * n - 59}},
                 "crba": {"planar": {"m": 3 * n * n + 9 * n - 8, "a": 2 * n * n + 12 * n - 12},
                          "spatial": {"m": 12 * n * n + 66 * n - 66, "a": 9 * n * n + 61 * n - 64}},
                 "aba": {"planar": {"m": m_of_n(n), "a": 72 * n - 58}, "spatial": {"m": 399 * n - 328, "a": 358 * n - 311}}}
                for n in range(1, 11)]

    def test_exact_fit(self):
        sys.path.insert(0, HERE)
        from rbdlab_report.planar_page import exact_fit
        self.assertEqual(exact_fit([(n, 3 * n * n + 9 * n - 8) for n in range(1, 6)]), [-8, 9, 3])
        self.assertEqual(exact_fit([(n, 85 * n - 61) for n in range(1, 6)]), [-61, 85])
        self.assertIsNone(exact_fit([(n, n ** 3) for n in range(1, 8)]))   # cubic: beyond degree 2
        self.assertIsNone(exact_fit([(1, 1), (2, 4), (3, 9)]))             # no spare point to check a quadratic

    def test_page_from_the_rows(self):
        s = Synthetic(with_bench=False)
        try:
            raw = copy.deepcopy(OPCOUNTS)
            raw["planar"] = self.rows(lambda n: 85 * n - 61)
            s.write("opcounts.json", raw)
            result = s.generate()
            self.assertEqual(result.returncode, 0, result.stderr)
            page = s.read("planar.md")
            self.assertIn("(85n - 61)m + (72n - 58)a", page)
            self.assertIn("(3n^2 + 9n - 8)m + (2n^2 + 12n - 12)a", page)
            self.assertIn("(planar.md)", s.read("index.md"))
            # A count off its polynomial at one n: that formula is not printed.
            raw["planar"] = self.rows(lambda n: 85 * n - 61 + (1 if n == 7 else 0))
            s.write("opcounts.json", raw)
            self.assertEqual(s.generate().returncode, 0)
            page = s.read("planar.md")
            self.assertNotIn("85n - 61", page)
            self.assertIn("(42n - 16)m + (34n - 17)a", page)
        finally:
            s.cleanup()

    def test_timings_beside_the_counted_ratio(self):
        s = Synthetic(with_bench=False)
        try:
            raw = copy.deepcopy(OPCOUNTS)
            raw["planar"] = self.rows(lambda n: 85 * n - 61)
            s.write("opcounts.json", raw)
            self.assertEqual(s.generate().returncode, 0)
            self.assertIn("Not run: `make bench` writes reports/data/bench_planar.json", s.read("planar.md"))
            def run(name, t):
                return {"name": name, "run_name": name, "run_type": "iteration", "real_time": t, "time_unit": "ns"}
            s.write("bench_planar.json", {"benchmarks": [run("planar/rnea_planar/chain/n:2", 100.0),
                                                         run("planar/rnea_spatial/chain/n:2", 321.0)]})
            result = s.generate()
            self.assertEqual(result.returncode, 0, result.stderr)
            timing = s.read("planar.md").split("## Timing", 1)[1]
            row = [line for line in timing.splitlines() if line.startswith("| RNEA")][0]
            cells = [c.strip() for c in row.strip("|").split("|")]
            # 321 / 100 timed; (154 * 2 - 67 + 126 * 2 - 59) / (42 * 2 - 16 + 34 * 2 - 17) = 434 / 119 counted
            self.assertEqual(cells, ["RNEA", "2", "100", "321", "3.21x", f"{434 / 119:.2f}x"])
        finally:
            s.cleanup()

    def test_no_rows_no_page_and_malformed_rows_fail(self):
        s = Synthetic(with_bench=False)
        try:
            self.assertEqual(s.generate().returncode, 0)
            self.assertFalse(os.path.exists(os.path.join(s.out, "planar.md")))
            self.assertNotIn("(planar.md)", s.read("index.md"))
            raw = copy.deepcopy(OPCOUNTS)
            raw["planar"] = self.rows(lambda n: 85 * n - 61)
            del raw["planar"][3]["aba"]["spatial"]
            s.write("opcounts.json", raw)
            result = s.generate()
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("opcounts.json", result.stderr)
            self.assertIn("planar", result.stderr)
        finally:
            s.cleanup()


# ---------------------------------------------------------------- numbers come from data (issue 13)
import ast  # noqa: E402
import bisect  # noqa: E402
import itertools  # noqa: E402
import types  # noqa: E402

# The rule: a measured figure reaches a page only through the generator, from reports/data/. Three
# checks hold it: (i) the family READMEs the report embeds type in no measurement (a placeholder
# {{kind: ...}} asks the generator for one instead); (ii) the generator's own Python sources have no
# figure in a string literal (a computed figure is always a {replacement field}); (iii) every
# measurement in a generated page (README text excluded, (i) covers it) rounds from a number of the
# data files the page is made from, or from a ratio or mean the generator computes from them.
#
# A measurement-like token: a number (or a range a-b) followed by a unit of the suite's measurements
# (eps, ns, us, ms, s, x as in "1.22x", %, digits, "times", "-fold"), a spelled-out count followed by
# "times" ("three times dearer"), and, in prose, any bare decimal number (49.3, 1.638, 5.5e3) that is
# not a reference (Eq./Table/section/Fig./App./chapter/... N.N, or an equation number alone in
# parentheses), not a coefficient of a formula (2.5n^2), not a tolerance written as a power of ten
# ("to 1e-40") and not in a table column of references (equation, where, seed, book, source).
# Code (fenced, indented, `inline`) and placeholders are not prose. A token whose numbers are all
# parameters the data records as such (a gate's digits_required, a study's constants, the steps h,
# spans T and reference step of an order study, a closeness tolerance) is a specification, not a
# measurement: "40 digits", "h = 8..0.5 ms", "over 0.064 s".
_NUM = r"(?<![\w.=])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?"
_SPAN = rf"{_NUM}(?:\s*(?:-|–|to|\.\.)\s*[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)?"
MEASURE = re.compile(
    rf"{_SPAN}x(?![\w^(])"                                      # a ratio: 1.22x, 0.36-0.60x
    rf"|{_SPAN}\s*(?:eps|ns|us|µs|μs|ms|s)\b(?![\^(])"            # an error in eps, a time
    rf"|{_SPAN}\s*%"                                             # a percentage
    rf"|{_SPAN}\+?\s*(?:significant\s+)?digits\b"                 # exactness
    rf"|{_SPAN}\s*(?:times\b|-fold\b)"                           # 1.6 times ABA
    r"|\b(?:twice|two|three|four|five|six|seven|eight|nine|ten|half)\s+times\b|\btwice\s+as\b", re.I)
_DECIMAL = re.compile(r"(?<![\w.^])(?:\d+\.\d+(?:e[-+]?\d+)?|\d+e[-+]?\d+)(?![\w.])")
_ITEM = r"[A-Z]?\d+(?:\.\d+)*"
_REFERENCE = re.compile(
    r"\b(?:Eqs?|Equations?|Tables?|[Ss]ections?|Figs?|Figures?|App|Appendix|[Cc]hapters?|ch|Examples?|Thm|"
    r"Theorem|Algorithm|Eigen|[Vv]ersion|[Ss]eeds?|rows?|lines?)\.?\s+" + _ITEM
    + r"(?:\s*(?:-|–|,|and|to|or)\s*(?:(?:Eqs?|Tables?|App|[Ss]ections?)\.?\s+)?" + _ITEM + ")*")
_PAREN_EQ = re.compile(r"\(\s*[1-9]\d*\.[1-9]\d*(?:\s*(?:,|-|–)\s*[1-9]\d*\.[1-9]\d*)*\s*\)")
_TOLERANCE = re.compile(r"\b(?:to|at|within|below|under)\s+~?1e-\d+\b")
_REF_COLUMNS = {"equation", "where", "seed", "book", "source"}

# Tokens a README may state, with the reason (keyed by family folder and token).
README_ALLOWED = {
    ("forward_dynamics", "1.6 times"): "Featherstone section 10.3's printed statement, quoted and cited "
                                       "('about 1.6 times ABA at n = 18'): a published value, not a measurement",
    ("inverse_dynamics", "15 %"): "Featherstone section 9.7's printed statement ('about 15%' off the RNEA's cost), "
                                  "quoted and cited: a published value; the measured saving is a placeholder",
    ("geared_dynamics", "0.5"): "the range [0.5, 4] that cases/states.hpp draws gear ratios from: a design "
                                "parameter of the random states, not a measurement",
}
# Tokens a generator source may type in, with the reason (keyed by file and token).
SOURCE_ALLOWED = {
    ("accuracy_studies_page.py", "50 digits"): "the Reference scalar's precision (cpp_bin_float_50), a design constant",
    ("accuracy_studies_page.py", "1e-12"): "Featherstone section 10.1's printed value ('about one part in 10^12'), cited",
    ("integration_page.py", "0.5"): "part of the definition of 'to computing accuracy' (a 0.5 m length scale)",
    ("integration_page.py", "8 eps"): "part of the definition of 'to computing accuracy' (8 eps per step)",
    ("integration_page.py", "1e-8"): "the smallest angle of the closed-form accuracy sweep, a parameter",
    ("budgets_page.py", "10x"): "the hypothetical regression factor the page applies, a parameter of the page",
    ("mutation_page.py", "4500 eps"): "the mutation's definition (a relative perturbation of 1e-12) restated in eps",
    ("mutation_page.py", "1e-12"): "the mutation's definition (a relative perturbation of 1e-12)",
    ("planar_page.py", "2 eps"): "test_planar.cpp's stated tolerance (16 n^2 eps), a bound, not a measurement",
}
# Tokens a generated page may show that no data file holds, with the reason (keyed by page and token).
PAGE_ALLOWED = {
    ("integration.md", "8 eps"): "the definition of 'to computing accuracy' typed in integration_page.py (above)",
    ("mutation.md", "4500 eps"): "the mutation kind's definition typed in mutation_page.py (above)",
    ("mutation_holdout.md", "4500 eps"): "the mutation kind's definition typed in mutation_page.py (above)",
}


PARAMETER_KEYS = {"constants", "digits_required", "digits_gate", "h", "T", "reference_h", "closeness"}


def _parameter_kind(key):
    """The unit class of a parameter by its name: a step or span of time, a number of digits, a tolerance."""
    if key in ("h", "T", "reference_h") or key.startswith("T_"):
        return "time"
    if "digits" in key:
        return "digits"
    if "tolerance" in key:
        return "fraction"
    return None


def data_parameters(data_dir):
    """{unit class: numbers} the data files record as parameters (under a key of PARAMETER_KEYS), in SI units."""
    out = {"time": set(), "digits": set(), "fraction": set()}
    for name in os.listdir(data_dir):
        if name.endswith(".json") and not name.startswith("bench"):
            with open(os.path.join(data_dir, name), encoding="utf-8") as f:
                for path, v, text in _json_numbers(json.load(f)):
                    kind = _parameter_kind(path[-1]) if path and not text and PARAMETER_KEYS & set(path) else None
                    if kind:
                        out[kind].add(v)
    return out


_UNIT_KIND = {"ns": ("time", 1e-9), "us": ("time", 1e-6), "µs": ("time", 1e-6), "μs": ("time", 1e-6),
              "ms": ("time", 1e-3), "s": ("time", 1.0), "%": ("fraction", 1e-2), "digits": ("digits", 1.0)}


def _is_parameter(token, parameters):
    """Whether every number of a token is a parameter of the token's unit class that the data records
    (a time step or span for a time, digits_required for digits, a tolerance for a percentage)."""
    unit = re.search(r"(ns|us|µs|μs|ms|s|%|digits)\s*$", token)
    if not unit or not parameters:
        return False
    kind, scale = _UNIT_KIND[unit.group(1)]
    known = parameters.get(kind, ()) if isinstance(parameters, dict) else ()
    values = [float(m.group(0)) * scale for m in re.finditer(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?", token)]
    return bool(values) and all(any(abs(v - p) <= 1e-9 * max(abs(p), 1e-30) for p in known) for v in values)


def markdown_prose(text):
    """(first line, text) units of Markdown prose: paragraphs joined into one line, table rows without
    the cells of reference columns; code, inline code and {{placeholders}} left out."""
    units, para, fence, headers = [], [], False, None

    def flush():
        if para:
            units.append((para[0][0], " ".join(t for _, t in para)))
            para.clear()
    for i, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"`[^`]*`", "``", re.sub(r"\{\{[^{}]*\}\}", " ", raw))
        if raw.lstrip().startswith("```"):
            flush()
            fence = not fence
            continue
        if fence or raw.startswith(("    ", "\t")):
            flush()
            continue
        if line.lstrip().startswith("|"):
            flush()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if headers is None:
                headers = [c.lower().strip("` ") for c in cells]
                units.append((i, " ; ".join(cells)))
            elif not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                units.append((i, " ; ".join(c for h, c in zip(headers + [""] * len(cells), cells)
                                             if h not in _REF_COLUMNS)))
            continue
        headers = None
        if not line.strip():
            flush()
            continue
        para.append((i, line.strip()))
    flush()
    return units


def measurement_tokens(text, parameters=()):
    """[(line, token)]: the measurement-like tokens of a prose text (see the rule above)."""
    out = []
    for i, unit in (text if isinstance(text, list) else markdown_prose(text)):
        unit = _REFERENCE.sub(" ", unit)
        out += [(i, m.group(0).strip()) for m in MEASURE.finditer(unit)
                if not _is_parameter(m.group(0).strip(), parameters)]
        rest = MEASURE.sub(" ", unit)
        for pattern in (_PAREN_EQ, _TOLERANCE):
            rest = pattern.sub(" ", rest)
        out += [(i, m.group(0)) for m in _DECIMAL.finditer(rest)]
    return out


def readme_measurements(root, thresholds, allowed=README_ALLOWED):
    """[(family, line, token)] of every measurement typed into algorithms/*/README.md under root."""
    out = []
    alg = os.path.join(root, "algorithms")
    for fam in sorted(os.listdir(alg)):
        path = os.path.join(alg, fam, "README.md")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                out += [(fam, i, t) for i, t in measurement_tokens(f.read(), thresholds) if (fam, t) not in allowed]
    return out


def source_literals(source):
    """(line, text) of the string literals of a Python source that can reach a page: constants and the
    literal parts of f-strings; docstrings, format specs and strings that are only a number left out."""
    tree = ast.parse(source)
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip.update(id(sub) for sub in ast.walk(node.format_spec))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
            and not re.fullmatch(r"\s*[-+]?[\d.]+(?:e[-+]?\d+)?\s*", node.value)]


def source_measurements(paths, thresholds, allowed=SOURCE_ALLOWED):
    """[(file, line, token)] of figures typed into the string literals of generator sources."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            units = source_literals(f.read())
        name = os.path.basename(path)
        out += [(name, i, t) for i, t in measurement_tokens(units, thresholds) if (name, t) not in allowed]
    return out


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _json_numbers(node, path=()):
    """(key path, number, found in a text) for every number of a JSON value, numbers inside strings
    included (a page copies such text from the data verbatim)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _json_numbers(v, path + (str(k),))
    elif isinstance(node, list):
        for v in node:
            yield from _json_numbers(v, path)
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path, float(node), False
    elif isinstance(node, str):
        for m in re.finditer(_NUM, node):
            yield path, float(m.group(0)), True


class PageFigures:
    """What a page may print, by unit class: the numbers of the data files it is made from, bench medians,
    each variant's median over its peer's on the same model (bench.json) or any two medians of a study's
    own bench file, op counts at n = 30 over a Table 10.1 row, means of err_eps_mean per variant."""
    UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}

    def __init__(self, data_dir, files, family=None, constants=(), peer="mujoco", ops_n=30):
        c = self.c = {k: set() for k in ("eps", "x", "%", "digits", "ns", "s")}
        self.by_variant = {}
        c["x"].update(constants)
        for name in files:
            path = os.path.join(data_dir, name)
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as f:
                raw = json.load(f)
            if name.startswith("bench"):
                self._bench(name, raw, family, peer)
                # A context key that holds JSON is data too (bench_contact.json's rbdlab_contact_forces: the
                # contact-force figures of bench/bench_contact.cpp); its numbers are read like a data file's.
                embedded = raw.get("context", {}).get("rbdlab_contact_forces")
                if embedded is None:
                    continue
                raw = json.loads(embedded)
            if name == "accuracy.json":
                raw = dict(raw, records=[r for r in raw["records"] if family in (None, r["family"])])
                means = {}
                for r in raw["records"]:
                    key = (r["family"], r["variant"])
                    self.by_variant.setdefault(key, set()).update(
                        v for k, v in r.items() if ("eps" in k or "err" in k) and _is_number(v))
                    if _is_number(r["err_eps_mean"]):
                        means.setdefault(key + ("all",), []).append(r["err_eps_mean"])
                        if not r.get("fallback_to"):
                            means.setdefault(key + ("own",), []).append(r["err_eps_mean"])
                for key, vals in means.items():   # the summaries' "Mean": over all records, or the own ones
                    self.by_variant[key[:2]].add(sum(vals) / len(vals))
                    c["eps"].add(sum(vals) / len(vals))
            if name == "opcounts.json":
                for f_, b in itertools.product(raw.get("fits", []), raw.get("book_table_10_1", [])):
                    if family in (None, f_["family"]):
                        for k in ("m", "a"):
                            den = sum(x * ops_n ** i for i, x in enumerate(b[k]))
                            if den:
                                c["x"].add(sum(x * ops_n ** i for i, x in enumerate(f_[k]["coefficients"])) / den)
            for path_, v, in_text in _json_numbers(raw):
                keys = " ".join(path_).lower()
                c["digits"].add(v)
                c["s"].add(v)
                c["%"].add(100 * v)
                if in_text or "eps" in keys or "err" in keys:
                    c["eps"].add(v)
                if in_text or "ratio" in keys or "factor" in keys:
                    c["x"].add(v)
                if in_text or any(p == "ns" or p.endswith("_ns") or p.startswith("ns_") for p in path_):
                    c["ns"].add(v)
                if in_text:
                    c["%"].add(v)
        self.sorted = {k: sorted(v) for k, v in c.items()}

    def _bench(self, name, raw, family, peer):
        c, med = self.c, {}
        for b in raw.get("benchmarks", []):
            run = b.get("run_name", b["name"])
            if family and not run.startswith(family + "/"):
                continue
            if b.get("aggregate_name") == "cv":
                c["%"].add(100 * b["real_time"])
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
                med[run] = b["real_time"] * self.UNIT_NS.get(b.get("time_unit", "ns"), 1.0)
                # bench_batch.json: an iteration covers `states` states, and the page prints the time per
                # state, the median over that counter.
                if _is_number(b.get("states")) and b["states"] > 0:
                    c["ns"].add(med[run] / b["states"])
        c["ns"].update(med.values())
        c["s"].update(t * 1e-9 for t in med.values())
        if name == "bench.json":
            for run, t in med.items():
                p = run.split("/")
                other = med.get("/".join([p[0], peer] + p[2:])) if len(p) >= 4 else None
                if other:
                    c["x"].add(t / other)
        else:
            c["x"].update(a / b for a, b in itertools.permutations(med.values(), 2) if b)

    def traceable(self, token, line=""):
        """Whether every number of the token rounds from a figure of its unit class, at its printed precision.
        An eps figure on a line that names variants of the page's data is traced to those variants only."""
        t = token.lower()
        unit, scale = "x", 1.0
        for u, k, s in (("eps", "eps", 1), ("%", "%", 1), ("digit", "digits", 1), ("ns", "ns", 1), ("us", "s", 1e-6),
                        ("µs", "s", 1e-6), ("ms", "s", 1e-3), ("s", "s", 1)):
            if (u in ("eps", "%", "digit") and u in t) or re.search(rf"\d\s*{u}\b", t):
                unit, scale = k, s
                break
        arr = self.sorted[unit]
        if unit == "eps":
            named = [vals for (fam, v), vals in self.by_variant.items()
                     if re.search(rf"(?<![\w/]){re.escape(v)}(?![\w/])", line)
                     and (fam in line or len({f for f, _ in self.by_variant}) == 1)]
            if named:
                arr = sorted(set().union(*named))
        for m in re.finditer(_NUM, token):
            mant, _, exp = m.group(0).lower().partition("e")
            tol = 0.5 * 10 ** -(len(mant.split(".")[1]) if "." in mant else 0) * (10 ** int(exp) if exp else 1)
            v = float(m.group(0))
            lo, hi = sorted(((v - tol) * scale, (v + tol) * scale))
            lo, hi = lo - 1e-12 * abs(lo) - 1e-18, hi + 1e-12 * abs(hi) + 1e-18
            i = bisect.bisect_left(arr, lo)
            if not (i < len(arr) and arr[i] <= hi):
                return False
        return True


PAGE_SOURCES = {
    "index.md": ("accuracy.json", "opcounts.json", "bench.json"),
    "frames.md": ("frames.json", "bench_frames.json", "bench_representations.json"),
    "constraints.md": ("constraints.json", "bench_constraints.json"),
    "integration.md": ("integration.json", "bench_integration.json"),
    "accuracy_studies.md": ("roundoff.json", "reproductions.json", "discrepancies.json"),
    "reproductions.md": ("reproductions.json", "discrepancies.json", "frames.json", "integration.json",
                         "constraints.json", "roundoff.json", "opcounts.json"),
    "provenance.md": (),
}
_README_START = re.compile(r"^(<!-- The text below is algorithms/|## The family \(algorithms/|## Representations \(algorithms/)")


def generated_lines(page):
    """A generated page's lines without the README text it embeds (checked at its source by rule (i))."""
    out, inside = [], False
    for line in page.splitlines():
        if _README_START.match(line):
            inside = True
        elif inside and line.startswith("## "):
            inside = False
        if not inside:
            out.append(line)
    return out


def report_constants():
    """The report's own parameters (reports/rbdlab_report/data.py): bars and thresholds it prints."""
    sys.path.insert(0, HERE)
    sys.dont_write_bytecode = True
    from rbdlab_report import data as report_data
    return [report_data.OPS_NOTE_RATIO] + [bar for _, _, bar in report_data.PERFORMANCE_TARGETS]


def quoted_text(data_dir, file_name):
    """The strings of a data file's check details (mutation*.json), joined, '' if there is none."""
    try:
        with open(os.path.join(data_dir, file_name), encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, ValueError):
        return ""
    return "\n".join(d for m in raw.get("mutants", []) for c in m.get("checks", {}).values()
                     for d in c.get("details", []) if isinstance(d, str))


def untraced_figures(out_dir, data_dir, families, allowed=PAGE_ALLOWED):
    """[(page, token, line)] of measurements in generated pages that no figure of the data rounds to."""
    constants, bad = report_constants(), []
    all_files = tuple(sorted(n for n in os.listdir(data_dir) if n.endswith(".json")))
    for name in sorted(n for n in os.listdir(out_dir) if n.endswith(".md")):
        fam = name[:-3] if name[:-3] in families else None
        files = ("accuracy.json", "opcounts.json", "bench.json") if fam else PAGE_SOURCES.get(name, all_files)
        figures = PageFigures(data_dir, files, family=fam, constants=constants)
        with open(os.path.join(out_dir, name), encoding="utf-8") as f:
            for line in generated_lines(f.read()):
                for m in MEASURE.finditer(line):
                    token = m.group(0).strip()
                    if (name, token) in allowed or figures.traceable(token, line):
                        continue
                    # The mutation pages quote what a failing check printed (its first lines), which
                    # mutation*.json stores as text: traced when the quote is in that file verbatim.
                    if name.startswith("mutation") and token in quoted_text(data_dir, name[:-3] + ".json"):
                        continue
                    bad.append((name, token, line.strip()[:160]))
    return bad


class NumbersFromData(unittest.TestCase):
    """Issue 13, item 6: measured figures reach the pages only from reports/data/ (rules (i)-(iii) above)."""

    @classmethod
    def setUpClass(cls):
        cls.data = os.path.join(HERE, "data")
        cls.thresholds = data_parameters(cls.data)
        cls.out, cls.result = current_report()
        with open(os.path.join(cls.data, "accuracy.json")) as f:
            cls.families = {r["family"] for r in json.load(f)["records"]}

    def test_readmes_type_in_no_measurement(self):
        found = readme_measurements(ROOT, self.thresholds)
        self.assertEqual(found, [], "measured figures typed into READMEs (use a {{placeholder}} or point to "
                                    "the generated table): " + "; ".join(f"algorithms/{f}/README.md:{i}: {t!r}"
                                                                        for f, i, t in found))

    def test_readme_allowlist_is_current(self):
        """Every allowed README token is still there (an entry whose text left the README must go too)."""
        for (fam, token), reason in README_ALLOWED.items():
            self.assertTrue(reason)
            with open(os.path.join(ROOT, "algorithms", fam, "README.md"), encoding="utf-8") as f:
                tokens = [t for _, t in measurement_tokens(f.read(), self.thresholds)]
            self.assertIn(token, tokens, (fam, token))

    def test_planted_stale_figure_in_a_readme_is_caught(self):
        """The README's old 'aba 9.5 eps' (accuracy.json says otherwise), planted into a copy: caught."""
        tmp = tempfile.mkdtemp(prefix="rbdlab-readme-plant-")
        try:
            dst = os.path.join(tmp, "algorithms", "forward_dynamics")
            os.makedirs(dst)
            with open(os.path.join(ROOT, "algorithms", "forward_dynamics", "README.md"), encoding="utf-8") as f:
                text = f.read()
            with open(os.path.join(dst, "README.md"), "w", encoding="utf-8") as f:
                f.write(text)
            self.assertEqual(readme_measurements(tmp, self.thresholds), [])
            planted = text.replace("## Glossary", "In the sweep of this commit `aba` is markedly more accurate (GU(12): "
                                   "aba 9.5 eps worst, agreeing to 48 digits, 1.8x the best row's multiplications).\n\n"
                                   "## Glossary", 1)
            with open(os.path.join(dst, "README.md"), "w", encoding="utf-8") as f:
                f.write(planted)
            found = [t for _, _, t in readme_measurements(tmp, self.thresholds)]
            self.assertEqual(found, ["9.5 eps", "48 digits", "1.8x"])
            # The same sentence inside code, or through placeholders, is not a typed-in figure.
            with open(os.path.join(dst, "README.md"), "w", encoding="utf-8") as f:
                f.write(text + "\n```\naba 9.5 eps\n```\n`aba` {{acc: forward_dynamics/aba/gu:12/err_eps_max}} worst\n")
            self.assertEqual(readme_measurements(tmp, self.thresholds), [])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_rule_on_typical_prose(self):
        """What counts as a measurement and what does not (one example per clause of the rule)."""
        caught = ["took 1.15 us", "3171 against 2596 ns", "by 1.22x", "0.36-0.60x MuJoCo's", "14-30% cheaper",
                  "to 48 digits", "about three times dearer", "J nu vs AD 49.3", "cond2(H) up to 5.5e3",
                  "the ratio at n = 18 is 1.28", "about 1e-4 of the budget", "a 17.9 eps error"]
        passed = ["Eq. 10.3", "Eqs. 6.19-6.26", "Table 10.1 row 5", "section 10.3.1", "(7.56)", "(7.32, 7.33)",
                  "(12n^2 + 66n - 66)m + (2.5n^2 + 120.5n - 37)a", "a 6x6 product", "6 x 14 columns",
                  "to 1e-45", "at 40 digits", "40+ digits", "`0.0`", "{{acc: f/v/c/err_eps_max}}", "App. A.4-A.5",
                  "Eigen 3.4"]
        for text in caught:
            self.assertTrue(measurement_tokens(text, {"digits": {40.0}}), text)
        for text in passed:
            self.assertEqual(measurement_tokens(text, {"digits": {40.0}}), [], text)
        table = "| symbol | meaning | equation |\n|---|---|---|\n| `v` | velocity | 7.34, 7.50 |\n| `x` | took | 9.5 |\n"
        self.assertEqual([t for _, t in measurement_tokens(table)], [])
        table = table.replace("| equation |", "| measured |")
        self.assertEqual([t for _, t in measurement_tokens(table)], ["7.34", "7.50", "9.5"])

    def sources(self):
        d = os.path.join(HERE, "rbdlab_report")
        return [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".py")] + [GENERATE]

    def test_generator_sources_type_in_no_figure(self):
        found = source_measurements(self.sources(), self.thresholds)
        self.assertEqual(found, [], "figures typed into generator string literals (compute them from the data, "
                                    "or allow them in SOURCE_ALLOWED with a reason): "
                                    + "; ".join(f"{n}:{i}: {t!r}" for n, i, t in found))

    def test_planted_literal_in_a_generator_source_is_caught(self):
        with open(os.path.join(HERE, "rbdlab_report", "pages.py"), encoding="utf-8") as f:
            text = f.read()
        tmp = tempfile.mkdtemp(prefix="rbdlab-source-plant-")
        try:
            path = os.path.join(tmp, "pages.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + '\n\nNOTE = (f"`{v}` is slower than `crba` in every benchmark, by 1.22x "\n'
                               '        f"(GU(30): {t:.0f} against 2596 ns)")\n')
            found = [t for _, _, t in source_measurements([path], self.thresholds)]
            self.assertEqual(found, ["1.22x", "2596 ns"])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_generated_figures_trace_to_the_data(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        bad = untraced_figures(self.out, self.data, self.families)
        self.assertEqual(bad, [], "figures on generated pages that no data figure rounds to: "
                         + "; ".join(f"{p}: {t!r} in {l!r}" for p, t, l in bad))

    def test_planted_figure_in_a_generated_page_is_caught(self):
        """A bullet with a figure the data does not hold, planted into a copy of forward_dynamics.md, and a
        timing of the old mass_matrix README planted into mass_matrix.md: both caught."""
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        with open(os.path.join(self.data, "accuracy.json")) as f:
            aba = [r for r in json.load(f)["records"] if (r["family"], r["variant"]) == ("forward_dynamics", "aba")]
        stale = f"{2 * max(r['err_eps_max'] for r in aba) + 1:.1f}"
        tmp = tempfile.mkdtemp(prefix="rbdlab-page-plant-")
        try:
            for name, extra in (("forward_dynamics.md", f"- `aba`: Max {stale} eps on gu:12."),
                                ("mass_matrix.md", "Slower in every benchmark (ur5: 513 against 295123 ns).")):
                with open(os.path.join(self.out, name), encoding="utf-8") as f:
                    text = f.read()
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    f.write(text.replace("## Timing", extra + "\n\n## Timing", 1))
            bad = [(p, t) for p, t, _ in untraced_figures(tmp, self.data, self.families)]
            self.assertEqual(bad, [("forward_dynamics.md", f"{stale} eps"), ("mass_matrix.md", "295123 ns")])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_placeholders_resolved_from_the_data(self):
        """The READMEs' placeholders are filled (none left), and mass_matrix.md's crba_world against crba
        is what bench.json says, counted here independently."""
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        for name in os.listdir(self.out):
            if name.endswith(".md"):
                with open(os.path.join(self.out, name), encoding="utf-8") as f:
                    self.assertNotIn("{{", f.read(), name)
        path = os.path.join(self.data, "bench.json")
        if not os.path.exists(path):
            self.skipTest("no bench.json")
        with open(path) as f:
            med = {b.get("run_name", b["name"]): b["real_time"] * PageFigures.UNIT_NS[b.get("time_unit", "ns")]
                   for b in json.load(f)["benchmarks"] if b.get("aggregate_name") == "median"}
        ratios = [t / med[k.replace("/crba_world/", "/crba/")] for k, t in med.items()
                  if k.startswith("mass_matrix/crba_world/") and k.replace("/crba_world/", "/crba/") in med]
        slower = sum(r > 1 for r in ratios)
        with open(os.path.join(self.out, "mass_matrix.md"), encoding="utf-8") as f:
            page = f.read()
        if slower in (0, len(ratios)):
            self.assertIn(f"than `crba` at all {len(ratios)} models and sizes timed", page)
        else:
            self.assertIn(f"at {max(slower, len(ratios) - slower)} of the {len(ratios)} models and sizes timed", page)
        self.assertIn(f"time ratio {min(ratios):.2f}x to {max(ratios):.2f}x", page)


def _placeholder_readme(figures):
    return ("# Synthetic inverse dynamics\n\nThe problem statement.\n\n## Figures\n\n"
            + "\n".join(f"- {k}: {v}" for k, v in figures) + "\n\n```\n{{not: resolved in code}}\n```\n")


class FigurePlaceholders(unittest.TestCase):
    """{{kind: ...}} in a family README, filled from the synthetic data at generation; expected values
    computed here from the synthetic constants."""

    FIGURES = [("median", "{{median: inverse_dynamics/a_fast/gu/30}}"),
               ("time_ratio", "{{time_ratio: inverse_dynamics/a_fast/b_slow/gu/8}}"),
               ("time_vs", "{{time_vs: inverse_dynamics/a_fast/mujoco}}"),
               ("ops_ratio", "{{ops_ratio: inverse_dynamics/a_fast/b_slow/30}}"),
               ("ops_ratio_book", "{{ops_ratio: inverse_dynamics/a_fast/book:row 2/30/m}}"),
               ("acc", "{{acc: inverse_dynamics/a_fast/gu:8/err_eps_max}}"),
               ("acc_digits", "{{acc: inverse_dynamics/b_slow/gu:8/exact_digits}}"),
               ("data", "{{data: opcounts.json/fits[variant=b_slow]/m/coefficients/1}}"),
               ("data_format", "{{data: opcounts.json/fits[variant=a_fast]/a/coefficients/1 | .1f}}")]

    def synthetic(self, with_bench=True, figures=None):
        s = Synthetic(with_bench=with_bench)
        with open(os.path.join(s.root, "algorithms", "inverse_dynamics", "README.md"), "w") as f:
            f.write(_placeholder_readme(figures or self.FIGURES))
        return s

    def figures_on_page(self, page):
        return dict(re.findall(r"^- (\w+): (.*)$", page.split("## About this family", 1)[1], re.M))

    def test_filled_from_the_data(self):
        s = self.synthetic()
        try:
            result = s.generate()
            self.assertEqual(result.returncode, 0, result.stderr)
            got = self.figures_on_page(s.read("inverse_dynamics.md"))
            a, b = ("inverse_dynamics", "a_fast"), ("inverse_dynamics", "b_slow")
            ops = lambda c, n: poly(c, n)
            self.assertEqual(got["median"], f"{ns(t_ns(a, 30))} ns")
            self.assertEqual(got["time_ratio"], f"{t_ns(a, 8) / t_ns(b, 8):.2f}x")
            self.assertEqual(got["time_vs"], f"faster than `mujoco` at all {len(GU_N) + len(TREE_N)} models and sizes "
                                             "timed (time ratio 0.50x to 0.50x)")
            (am, aa), (bm, ba) = FITS[a], FITS[b]
            self.assertEqual(got["ops_ratio"], f"{(ops(am, 30) + ops(aa, 30)) / (ops(bm, 30) + ops(ba, 30)):.2f}x")
            self.assertEqual(got["ops_ratio_book"], f"{ops(am, 30) / ops([-50.0, 95.0], 30):.2f}x")
            self.assertEqual(got["acc"], "9.5 eps")
            self.assertEqual(got["acc_digits"], "47.8 digits")
            self.assertEqual(got["data"], "150")
            self.assertEqual(got["data_format"], "80.0")
            self.assertIn("{{not: resolved in code}}", s.read("inverse_dynamics.md"))   # code is left alone
        finally:
            s.cleanup()

    def test_without_bench_the_timings_say_so(self):
        s = self.synthetic(with_bench=False)
        try:
            result = s.generate()
            self.assertEqual(result.returncode, 0, result.stderr)
            got = self.figures_on_page(s.read("inverse_dynamics.md"))
            for k in ("median", "time_ratio", "time_vs"):
                self.assertTrue(got[k].startswith("not measured (no bench.json"), got[k])
            self.assertEqual(got["acc"], "9.5 eps")
        finally:
            s.cleanup()

    def test_a_figure_the_data_lacks_stops_generation(self):
        """End to end once (the generator exits 1 naming the README and writes nothing), then each kind of
        missing figure through the resolver itself (pages.resolve_figures, on the same synthetic data)."""
        s = self.synthetic(with_bench=False, figures=[("bad", "{{acc: inverse_dynamics/a_fast/gu:99/err_eps_max}}")])
        try:
            result = s.generate()
            self.assertNotEqual(result.returncode, 0)
            self.assertIn(os.path.join("algorithms", "inverse_dynamics", "README.md") + ": {{acc: inverse_dynamics/"
                          "a_fast/gu:99/err_eps_max}}: accuracy.json has 0 records", result.stderr)
            self.assertFalse(os.path.exists(os.path.join(s.out, "index.md")))   # nothing written
        finally:
            s.cleanup()
        sys.path.insert(0, HERE)
        sys.dont_write_bytecode = True
        from rbdlab_report import data as report_data, pages
        s = Synthetic(with_bench=True)
        try:
            data = report_data.Data(s.data, s.root)
            for bad, why in (("{{median: inverse_dynamics/a_fast/gu/31}}", "no median"),
                             ("{{time_vs: inverse_dynamics/a_fast/nobody}}", "no (case, n) timed for both"),
                             ("{{acc: inverse_dynamics/a_fast/gu:8/no_such_field}}", "no no_such_field"),
                             ("{{ops_ratio: inverse_dynamics/a_fast/book:row 9/30}}", "0 Table 10.1 rows"),
                             ("{{ops_ratio: inverse_dynamics/a_fast/b_slow/30/q}}", "not m, a or m+a"),
                             ("{{data: opcounts.json/no_such_key}}", "no 'no_such_key'"),
                             ("{{data: opcounts.json/fits[variant=nobody]/m}}", "0 entries"),
                             ("{{data: opcounts.json/convention}}", "not a number"),
                             ("{{median: inverse_dynamics/a_fast}}", "takes"),
                             ("{{speed: inverse_dynamics/a_fast}}", "unknown kind"),
                             ("{{median: inverse_dynamics/a_fast/gu/30", "malformed")):
                with self.assertRaises(report_data.GenerationError, msg=bad) as cm:
                    pages.resolve_figures(data, "algorithms/x/README.md", f"- bad: {bad}")
                self.assertIn("algorithms/x/README.md", str(cm.exception))
                self.assertIn(why, str(cm.exception), bad)
        finally:
            s.cleanup()


def example_9_5_caption(points):
    """The caption's figures, computed here: slopes between the two smallest and two largest ratios, the peak."""
    slope = lambda a, b: math.log(b["rel_err"] / a["rel_err"]) / math.log(b["ratio"] / a["ratio"])
    lo, hi = slope(points[0], points[1]), slope(points[-2], points[-1])
    peak = max(points, key=lambda p: p["rel_err"])
    mant, exp = f"{peak['rel_err']:.1e}".split("e")
    word = lambda x: "rises" if x > 0 else "falls"
    return (f"at {len(points)} gear ratios from {points[0]['ratio']:g} to {points[-1]['ratio']:g} (log-log): it "
            f"{word(lo)} with slope {lo:.2f} between ratios {points[0]['ratio']:g} and {points[1]['ratio']:g}, is "
            f"largest, {mant}e{int(exp)}, at ratio {peak['ratio']:g}, and {word(hi)} with slope {hi:.2f} between "
            f"ratios {points[-2]['ratio']:g} and {points[-1]['ratio']:g}")


# e(r) = 1e-3 r / (1 + (r/30)^2): rising like r, largest near 30, falling like 1/r (in shuffled order).
EX_9_5_RATIOS = (50.0, 1.0, 500.0, 2.0, 20.0, 10.0, 100.0, 200.0, 5.0)
EX_9_5 = {"what": "synthetic", "points": [{"ratio": r, "rel_err": 1e-3 * r / (1 + (r / 30) ** 2),
                                           "rotor_share": r * r / (r * r + 1e4)} for r in EX_9_5_RATIOS]}
GEARED_README = ("# Synthetic geared dynamics\n\nThe problem.\n\n## Example 9.5: reflected rotor inertia\n\n"
                 "The relative error:\n\n| ratio | relative error |\n|---|---|\n"
                 "| 1 | {{data: reproductions.json/example_9_5/points[ratio=1]/rel_err | sci}} |\n\n"
                 "What the quick model leaves out.\n\n## Not yet here\n\n- More.\n")


def geared_synthetic(example_9_5=EX_9_5):
    """A synthetic tree with a geared_dynamics family (one accuracy record, a README with Example 9.5's table)
    and reproductions.json's example_9_5 (left out when None)."""
    s = Synthetic(with_bench=False)
    alg = os.path.join(s.root, "algorithms", "geared_dynamics")
    os.makedirs(alg)
    with open(os.path.join(alg, "README.md"), "w") as f:
        f.write(GEARED_README)
    acc = copy.deepcopy(ACCURACY)
    acc["records"].append(acc_record("geared_dynamics", "geared_sparse", "gu:2", 2, 2.0, 1.0, 1.5))
    s.write("accuracy.json", acc)
    s.write("reproductions.json", dict(copy.deepcopy(REPRODUCTIONS),
                                       **({} if example_9_5 is None else {"example_9_5": example_9_5})))
    return s


class Example9_5Plot(unittest.TestCase):
    """reproductions.json's example_9_5 -> the geared_dynamics page: the plot below the README's Example 9.5 table
    with a caption from the data; generation stops, naming reproductions.json, when the page needs the data and
    it is missing or malformed, and the previous report is left as it was."""

    @classmethod
    def setUpClass(cls):
        cls.s = geared_synthetic()
        cls.result = cls.s.generate()

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def test_plot_below_the_table_with_its_caption(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        page = self.s.read("geared_dynamics.md")
        img = "![geared_dynamics_example_9_5](plots/geared_dynamics_example_9_5.svg)"
        rows = page.splitlines()
        last_row = max(i for i, r in enumerate(rows) if r.startswith("| 1 |"))
        self.assertEqual(rows[last_row + 1:last_row + 3], ["", img])
        self.assertIn(example_9_5_caption(sorted(EX_9_5["points"], key=lambda p: p["ratio"])), rows[last_row + 4])
        self.assertLess(page.index(img), page.index("What the quick model leaves out."))
        self.assertEqual(page.count(img), 1)
        svg_path = os.path.join(self.s.out, "plots", "geared_dynamics_example_9_5.svg")
        self.assertTrue(os.path.isfile(svg_path))
        with open(svg_path, encoding="utf-8") as f:
            svg = f.read()
        self.assertIn("gear ratio", svg)                # text stays text (svg.fonttype none)
        self.assertIn("slope -1", svg)
        # no other page gets it
        for name in ("inverse_dynamics.md", "mass_matrix.md", "index.md"):
            self.assertNotIn("example_9_5", self.s.read(name), name)

    def test_missing_or_malformed_stops_generation(self):
        pt = lambda **kw: dict(EX_9_5["points"][0], **kw)
        cases = (("missing", None, "no example_9_5"),
                 ("points not a list", {"points": {"ratio": 1}}, "not an object with a 'points' list"),
                 ("a point lacking rel_err", {"points": [pt(), {"ratio": 7.0, "rotor_share": 0.1}]},
                  "example_9_5.points[1] lacks rel_err"),
                 ("rel_err a string", {"points": [pt(), pt(ratio=3.0, rel_err="1e-3")]}, "points[1].rel_err is '1e-3'"),
                 ("rel_err not positive", {"points": [pt(), pt(ratio=3.0, rel_err=0.0)]}, "not positive"),
                 ("ratio infinite", {"points": [pt(), pt(ratio=float("inf"))]}, "points[1].ratio is inf"),
                 ("one point", {"points": [pt()]}, "at least two points"),
                 ("a ratio twice", {"points": [pt(), pt()]}, "distinct ratios"))
        for what, ex, why in cases:
            with self.subTest(what):
                s = copy.copy(self.s)
                s.root = tempfile.mkdtemp(prefix="rbdlab-report-ex95-")
                try:
                    shutil.copytree(self.s.root, s.root, dirs_exist_ok=True)
                    s.data, s.out = os.path.join(s.root, "reports", "data"), os.path.join(s.root, "reports")
                    before = {k: v for k, v in snapshot(s.out).items() if not k.startswith("data")}
                    rep = copy.deepcopy(REPRODUCTIONS)
                    if ex is not None:
                        rep["example_9_5"] = ex
                    with open(os.path.join(s.data, "reproductions.json"), "w") as f:
                        f.write(json.dumps(rep, allow_nan=True))
                    result = s.generate()
                    self.assertEqual(result.returncode, 1, result.stderr)
                    self.assertIn(os.path.join(s.data, "reproductions.json") + ": ", result.stderr)
                    self.assertIn("example_9_5", result.stderr)
                    self.assertIn(why, result.stderr)
                    self.assertNotIn("Traceback", result.stderr)
                    after = {k: v for k, v in snapshot(s.out).items() if not k.startswith("data")}
                    self.assertEqual(after, before)
                finally:
                    s.cleanup()

    def test_not_needed_without_the_family(self):
        """Data without a geared_dynamics family needs no example_9_5 (the plain synthetic set has none)."""
        s = Synthetic(with_bench=False)
        try:
            result = s.generate()
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertFalse(os.path.exists(os.path.join(s.out, "plots", "geared_dynamics_example_9_5.svg")))
        finally:
            s.cleanup()


def _fallback_accuracy(with_field=True):
    """ACCURACY plus a DH-like variant a_dh that hands tree:bf=2:nb=15 to b_slow (with worse figures than
    its own, so counting it would show), and c_dh that hands every case to a_fast."""
    acc = copy.deepcopy(ACCURACY)
    extra = [acc_record("inverse_dynamics", "a_dh", "gu:2", 2, 1.5, 0.5, 1.0, digits=49.0),
             acc_record("inverse_dynamics", "a_dh", "gu:8", 8, 2.5, 1.0, 1.25, digits=48.5),
             dict(acc_record("inverse_dynamics", "a_dh", "tree:bf=2:nb=15", 15, 55.0, 20.0, 70.0, digits=41.0,
                             budget=64.0, ok=False), fallback_to="b_slow"),
             dict(acc_record("inverse_dynamics", "c_dh", "gu:2", 2, 3.0, 1.0, 2.0), fallback_to="a_fast"),
             dict(acc_record("inverse_dynamics", "c_dh", "gu:8", 8, 4.0, 1.0, 2.0), fallback_to="a_fast")]
    if not with_field:
        for r in extra:
            r.pop("fallback_to", None)
    acc["records"] = acc["records"][:6] + extra + acc["records"][6:]
    return acc


class Fallbacks(unittest.TestCase):
    """Issue 13, item 5: a variant's records with fallback_to are the other variant's figures: left out of
    its summaries (index, family page), counted and named, and marked "(ran X)" in the by-case table."""

    @classmethod
    def setUpClass(cls):
        cls.s = Synthetic(with_bench=False)
        cls.s.write("accuracy.json", _fallback_accuracy())
        cls.result = cls.s.generate()

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def cells(self, s):
        header, rows = summary_rows(s.read("index.md"))
        return {(re.sub(r"\[([^\]]+)\].*", r"\1", r[0]), r[1]): dict(zip(header, r)) for r in rows}

    def test_index_summary_counts_own_cases_only(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        a = self.cells(self.s)[("inverse_dynamics", "a_dh")]
        self.assertEqual(a["exact digits (min)"], "48.5")                  # not the handed case's 41.0
        self.assertEqual(a["accuracy in double"], f"Max 2.5 eps / Mean {f1((0.5 + 1.0) / 2)} eps")
        self.assertEqual(a["worst vs typical / budget"], "1.2 of 32.0 eps")   # 1.25/32, not 70/64
        self.assertEqual(a["gate"], "pass 2/2 (1 case handed to b_slow)")  # the failing handed record is b_slow's
        c = self.cells(self.s)[("inverse_dynamics", "c_dh")]
        self.assertEqual([c["exact digits (min)"], c["accuracy in double"], c["gate"]],
                         ["–", "–", "2 cases handed to a_fast"])
        index = self.s.read("index.md")
        self.assertIn("3 of them are cases a variant handed to another variant", index)

    def test_family_page_marks_and_names_them(self):
        page = self.s.read("inverse_dynamics.md")
        self.assertRegex(page, r"\| tree:bf=2:nb=15 +\| +15 \| +15 \| a_dh \(ran b_slow\) +\| +41\.0 \| +55\.0 \|")
        self.assertRegex(page, r"\| gu:2 +\| +2 \| +2 \| c_dh \(ran a_fast\) +\|")
        self.assertRegex(page, r"\| gu:8 +\| +8 \| +8 \| a_dh +\| +48\.5 \|")   # its own case, unmarked
        self.assertIn("- `a_dh`: over its 2 own cases, Max 2.5 eps / Mean 0.8 eps;", page)
        self.assertIn("handed 1 case to `b_slow` (tree:bf=2:nb=15).", page)
        self.assertIn("- `c_dh`: no case of its own; handed 2 cases to `a_fast` (gu:2, gu:8).", page)
        variants = page.split("## Variants", 1)[1].split("##", 1)[0]
        self.assertRegex(variants, r"\| `a_dh` +\| [^|]+\| +2 \| +48\.5 \| Max 2\.5 eps / Mean 0\.8 eps +\| "
                                   r"pass 2/2 \(1 case handed to b_slow\) +\|")

    def test_without_the_field_nothing_changes(self):
        s = Synthetic(with_bench=False)
        try:
            s.write("accuracy.json", _fallback_accuracy(with_field=False))
            self.assertEqual(s.generate().returncode, 0)
            a = self.cells(s)[("inverse_dynamics", "a_dh")]
            self.assertEqual(a["exact digits (min)"], "41.0")
            self.assertEqual(a["gate"], "**FAIL** 2/3")
            page = s.read("inverse_dynamics.md")
            self.assertNotIn("(ran ", page)
            self.assertNotIn("handed", page + s.read("index.md"))
        finally:
            s.cleanup()

    def test_roundoff_study_marks_them(self):
        """roundoff.json's vs_n points give a handing variant only {"fallback_to": X}: the tables say
        "(ran X)" and the plots and the budget use skip it."""
        path = os.path.join(HERE, "data", "roundoff.json")
        if not os.path.exists(path):
            self.skipTest("no roundoff.json")
        with open(path) as f:
            raw = json.load(f)
        sys.path.insert(0, HERE)
        sys.dont_write_bytecode = True
        from rbdlab_report import accuracy_studies_page as studies, plots
        plots.check_available()
        case = raw["vs_n"]["cases"][0]
        victim = next(v for v in case["points"][0]["variants"] if v != "aba")
        for p in case["points"]:
            if victim in p["variants"]:
                p["variants"][victim] = {"fallback_to": "aba"}
        ctx = types.SimpleNamespace(plot=lambda name, fn, *args: "", link=lambda p: p)
        text = "\n".join(studies._vs_n(ctx, raw))
        self.assertIn("(ran aba)", text)
        self.assertIn(f"`{victim}` (ran `aba`)", text)
        tmp = tempfile.mkdtemp(prefix="rbdlab-roundoff-fallback-")
        try:
            self.assertTrue(studies._err_vs_n_plot(None, raw, os.path.join(tmp, "a.svg")))
            self.assertTrue(studies._err_vs_cond_plot(None, raw, os.path.join(tmp, "b.svg")))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
