"""Loading and checking the data files; every derived number the pages show is computed here.

Inputs (reports/data/):
  accuracy.json        required  gate 3 + exactness digits (verify/accuracy_sweep.cpp)
  opcounts.json        required  gate 5 (verify/opcounts.cpp)
  reproductions.json   required  gate 4 (verify/reproductions.cpp)
  discrepancies.json   required  gate 4
  bench.json           optional  Google Benchmark JSON from `make bench`
  loop_drift.json      optional  the closed-loop drift study (verify/loop_drift_study.cpp), plotted on the
                                 closed_loop_dynamics page

Any problem (missing required file, invalid JSON, unexpected structure) raises
GenerationError with the file's path in the message.
"""
import contextlib
import hashlib
import json
import math
import os
import re
import statistics

# Report parameters (choices of the report, not measured numbers).
SUMMARY_GU_N = (7, 30)          # median time columns on GU(n)
SUMMARY_TREE = ("tree_bf2", 63)  # median time column on a binary tree
FIT_MIN_N = 8                   # time-vs-n exponent fitted over n >= FIT_MIN_N
OPS_RATIO_N = 30                # op counts compared with the book at this n
OPS_TABLE_N = (1, 2, 3, 4, 5, 7, 10, 15, 20, 25, 30)
OPS_NOTE_RATIO = 1.5            # issue 3: a variant above 1.5x the book's best gets a note
PEER_REFERENCE = "mujoco"       # peer that ratios are taken against
# The performance bars of issues 3 and 5: (family, variants judged, largest time ratio to
# PEER_REFERENCE), on the models below (the robots at n = nv, whatever size the bench gives them).
PERFORMANCE_TARGETS = (("inverse_dynamics", ("rnea_spatial", "rnea_dh"), 0.5),
                       ("mass_matrix", ("crba", "crba_dh", "crba_world"), 0.42),
                       ("forward_dynamics", ("aba", "aba_dh", "aba_floating"), 0.7),
                       ("factorization", ("ltdl_sparse", "ltl_sparse"), 1.0))
TARGET_POINTS = (("gu", 7), ("gu", 30), ("tree_bf2", 15), ("tree_bf2", 63), ("ur5", None), ("panda", None),
                 ("iiwa14", None), ("solo12", None), ("humanoid", None))
FAMILY_TO_BOOK = {"inverse_dynamics": "RNEA", "mass_matrix": "CRBA"}

REQUIRED = ("accuracy.json", "opcounts.json", "reproductions.json", "discrepancies.json")
OPTIONAL = ("bench.json",)

ACC_KEYS = ("family", "variant", "case", "n", "depth", "exact_digits", "err_eps_max",
            "err_eps_mean", "err_eps_rms", "err_eps_vs_typical_max", "budget_eps", "pass",
            "worst_seed", "seeds")
OPS_KEYS = ("family", "variant", "case", "n", "m", "a")
FIG_10_5_BOOK_KEYS = ("n", "aba", "route_chain", "route_binary_tree", "ratio_chain", "ratio_binary_tree")
FIG_10_5_RBD_KEYS = ("n", "aba_binary_tree", "crba_ltdl_chain", "crba_ltdl_binary_tree", "ratio_chain",
                     "ratio_binary_tree", "aba_dh_binary_tree", "dh_route_chain", "dh_route_binary_tree",
                     "dh_ratio_binary_tree")
FIG_10_5_N = (15, 31, 63)       # Figure 10.5's ratios quoted at these n (complete binary trees)
EX_9_5_KEYS = ("ratio", "rel_err", "rotor_share")   # reproductions.json example_9_5.points[i]

BENCH_NAME = re.compile(r"^(?P<family>[^/]+)/(?P<variant>[^/]+)/(?P<case>[^/]+)/n:(?P<n>\d+)(?:/.*)?$")
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
BENCH_STANDARD_KEYS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
    "aggregate_name", "aggregate_unit", "label", "error_occurred", "error_message",
    "big_o", "cpu_coefficient", "real_coefficient", "rms", "complexity_n"}


class GenerationError(Exception):
    """A problem that must stop generation; the message names the offending file."""


def load_json(path, required=True):
    if not os.path.exists(path):
        if required:
            raise GenerationError(f"{path}: missing (`make verify` writes it)")
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise GenerationError(f"{path}: not valid JSON: {e}") from None
    except UnicodeDecodeError as e:
        raise GenerationError(f"{path}: not UTF-8 text: {e}") from None
    except OSError as e:
        raise GenerationError(f"{path}: cannot read: {e.strerror}") from None


@contextlib.contextmanager
def structure_of(path, what=""):
    """Turn a KeyError/TypeError/ValueError while reading `path` into a GenerationError."""
    try:
        yield
    except GenerationError:
        raise
    except KeyError as e:
        raise GenerationError(f"{path}: unexpected structure{what}: missing key {e}") from None
    except (TypeError, ValueError, AttributeError, IndexError) as e:
        raise GenerationError(f"{path}: unexpected structure{what}: {e}") from None


def _require(rec, keys, path, i):
    missing = [k for k in keys if k not in rec]
    if missing:
        raise GenerationError(f"{path}: record {i} lacks {', '.join(missing)}")


def example_9_5_points(raw, path):
    """reproductions.json's example_9_5 (verify/reproductions.cpp: Example 9.5's reflected rotor inertia
    against the exact geared model at a sweep of gear ratios): its points sorted by ratio, each with a
    positive finite ratio and rel_err (they go on log axes), at two ratios at least, no ratio twice."""
    where = f"{path}: example_9_5"
    if not isinstance(raw, dict) or not isinstance(raw.get("points"), list):
        raise GenerationError(f"{where}: not an object with a 'points' list")
    pts = []
    for i, p in enumerate(raw["points"]):
        if not isinstance(p, dict):
            raise GenerationError(f"{where}.points[{i}]: not an object")
        _require(p, EX_9_5_KEYS, path, f"example_9_5.points[{i}]")
        for k in EX_9_5_KEYS:
            x = p[k]
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise GenerationError(f"{where}.points[{i}].{k} is {x!r}, not a finite number")
            if k != "rotor_share" and x <= 0:
                raise GenerationError(f"{where}.points[{i}].{k} is {x!r}, not positive (plotted on a log axis)")
        pts.append({k: float(p[k]) for k in EX_9_5_KEYS})
    pts.sort(key=lambda p: p["ratio"])
    if len(pts) < 2 or len({p["ratio"] for p in pts}) != len(pts):
        raise GenerationError(f"{where}: needs at least two points at distinct ratios "
                              f"(has ratios {[p['ratio'] for p in pts]})")
    return pts


def _unique(seq):
    out = []
    for x in seq:
        if x not in out:
            out.append(x)
    return out


def fallback_of(record):
    """The variant that ran in this record's place ('' when the variant ran its own code)."""
    return record.get("fallback_to") or ""


def poly_eval(coefficients, n):
    """coefficients[k] multiplies n^k."""
    return sum(c * n ** k for k, c in enumerate(coefficients))


def loglog_slope(points):
    """Least-squares slope of log(t) against log(n) over the points with n >= FIT_MIN_N;
    None with fewer than two distinct n."""
    pts = [(n, t) for n, t in points if n >= FIT_MIN_N and t > 0]
    if len({n for n, _ in pts}) < 2:
        return None
    xs = [math.log(n) for n, _ in pts]
    ys = [math.log(t) for _, t in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / sxx


def gu_n(case):
    """n of a plain GU(n) case id 'gu:N' (no seed), else None."""
    m = re.fullmatch(r"gu:(\d+)", case)
    return int(m.group(1)) if m else None


def bench_keys_for_case(case):
    """Bench (case, n) keys that an accuracy case id corresponds to (same model).
    gu:N -> gu/n:N; tree:bf=B:nb=N (no skew/taper) -> tree_bfB/n:N (also chain for B = 1)."""
    n = gu_n(case)
    if n is not None:
        return [("gu", n)]
    m = re.fullmatch(r"tree:bf=([0-9.]+):nb=(\d+)", case)
    if m:
        bf, nb = m.group(1), int(m.group(2))
        names = _unique([f"tree_bf{bf}", f"tree_bf{bf.replace('.', '_')}", f"tree_bf{bf.replace('.', 'p')}"])
        if bf in ("1", "1.0"):
            names.append("chain")
        return [(c, nb) for c in names]
    return []


class Bench:
    """Google Benchmark JSON reduced to one median time per family/variant/case/n."""

    def __init__(self, raw, path):
        self.path = path
        self.context = {}
        self.points = {}    # (family, variant, case, n) -> dict(median_ns, cv, reps, label, counters)
        self.errors = []    # (name, message)
        self.ignored = []   # names that are not family/variant/case/n:N (BigO, RMS, others)
        with structure_of(path):
            if not isinstance(raw, dict) or not isinstance(raw.get("benchmarks"), list):
                raise GenerationError(f"{path}: not Google Benchmark JSON (no 'benchmarks' list)")
            self.context = raw.get("context", {}) or {}
            iters, medians, cvs, labels, counters = {}, {}, {}, {}, {}
            for i, b in enumerate(raw["benchmarks"]):
                name = b["name"]
                if b.get("error_occurred"):
                    self.errors.append((name, b.get("error_message", "")))
                    continue
                run_type = b.get("run_type", "iteration")
                agg = b.get("aggregate_name", "")
                run_name = b.get("run_name")
                if run_name is None:
                    run_name = name[: -len(agg) - 1] if agg and name.endswith("_" + agg) else name
                m = BENCH_NAME.match(run_name)
                if not m or agg in ("BigO", "RMS"):
                    self.ignored.append(name)
                    continue
                key = (m["family"], m["variant"], m["case"], int(m["n"]))
                unit = TIME_UNIT_NS.get(b.get("time_unit", "ns"))
                if unit is None:
                    raise GenerationError(f"{path}: benchmark {i} ({name}): unknown time_unit {b.get('time_unit')!r}")
                if b.get("label"):
                    labels.setdefault(key, set()).add(b["label"])
                if run_type == "aggregate":
                    if agg == "median":
                        medians[key] = float(b["real_time"]) * unit
                    elif agg == "cv":
                        cvs[key] = float(b["real_time"])   # a fraction (aggregate_unit 'percentage')
                    continue
                iters.setdefault(key, []).append(float(b["real_time"]) * unit)
                for k, v in b.items():
                    if k not in BENCH_STANDARD_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool):
                        counters.setdefault(key, {})[k] = v
            for key in _unique(list(iters) + list(medians)):
                times = iters.get(key, [])
                med = medians.get(key, statistics.median(times) if times else None)
                if med is None:
                    continue
                self.points[key] = {"median_ns": med, "cv": cvs.get(key), "reps": len(times),
                                    "labels": sorted(labels.get(key, ())), "counters": counters.get(key, {})}

    def families(self):
        return _unique(k[0] for k in self.points)

    def variants(self, family):
        return _unique(k[1] for k in self.points if k[0] == family)

    def cases(self, family):
        return _unique(k[2] for k in self.points if k[0] == family)

    def median(self, family, variant, case, n):
        p = self.points.get((family, variant, case, n))
        return p["median_ns"] if p else None

    def series(self, family, variant, case):
        return sorted((k[3], p["median_ns"]) for k, p in self.points.items()
                      if k[:3] == (family, variant, case))

    def slope(self, family, variant, case):
        return loglog_slope(self.series(family, variant, case))

    def ratio(self, family, variant, case, n, peer=PEER_REFERENCE):
        a, b = self.median(family, variant, case, n), self.median(family, peer, case, n)
        return a / b if a is not None and b else None

    def labels(self, family, variant):
        out = set()
        for k, p in self.points.items():
            if k[:2] == (family, variant):
                out.update(p["labels"])
        return sorted(out)


class Data:
    def __init__(self, data_dir, root):
        self.data_dir = data_dir
        self.root = root
        p = lambda name: os.path.join(data_dir, name)

        # accuracy.json
        path = p("accuracy.json")
        raw = load_json(path)
        with structure_of(path):
            self.eps = float(raw["eps"])
            self.acc = list(raw["records"])
            for i, r in enumerate(self.acc):
                _require(r, ACC_KEYS, path, i)
                for k in ("n", "depth", "exact_digits", "err_eps_max", "err_eps_mean", "err_eps_rms",
                          "err_eps_vs_typical_max", "budget_eps"):
                    float(r[k])
                if not isinstance(r.get("fallback_to", ""), str):
                    raise GenerationError(f"{path}: record {i}: fallback_to is not a variant name")

        # opcounts.json
        path = p("opcounts.json")
        raw = load_json(path)
        with structure_of(path):
            self.ops_convention = raw.get("convention", "")
            self.ops = list(raw["records"])
            for i, r in enumerate(self.ops):
                _require(r, OPS_KEYS, path, i)
            self.fits = {}
            for i, f in enumerate(raw.get("fits", [])):
                _require(f, ("family", "variant", "case", "m", "a"), path, f"fits[{i}]")
                self.fits[(f["family"], f["variant"], f["case"])] = {
                    "m": [float(c) for c in f["m"]["coefficients"]],
                    "a": [float(c) for c in f["a"]["coefficients"]],
                    "exact": bool(f["m"].get("exact", False) and f["a"].get("exact", False)),
                    "valid_for": f.get("valid_for", ""), "note": f.get("note", "")}
            # Section 2.16's planar-vector counts (planar_page.py), optional.
            self.planar_ops = raw.get("planar")
            # Figure 10.5 (section 10.3.2): the O(nd^2) route on binary trees vs ABA, optional.
            self.fig_10_5 = raw.get("figure_10_5")
            if self.fig_10_5 is not None:
                float(self.fig_10_5["closeness"]["tolerance"])
                float(self.fig_10_5["book_rows"]["max_deviation_binary_tree"])
                float(self.fig_10_5["rbdlab"]["max_deviation_binary_tree"])
                float(self.fig_10_5["rbdlab"]["dh_max_deviation_binary_tree"])
                for part, keys in (("book_rows", FIG_10_5_BOOK_KEYS), ("rbdlab", FIG_10_5_RBD_KEYS)):
                    for i, r in enumerate(self.fig_10_5[part]["per_n"]):
                        _require(r, keys, path, f"figure_10_5.{part}.per_n[{i}]")
            self.book = []
            for i, b in enumerate(raw.get("book_table_10_1", [])):
                _require(b, ("algorithm", "m", "a", "source"), path, f"book_table_10_1[{i}]")
                self.book.append({"algorithm": b["algorithm"], "source": b["source"],
                                  "family": b.get("family"),
                                  "m": [float(c) for c in b["m"]], "a": [float(c) for c in b["a"]]})

        # reproductions.json, discrepancies.json
        path = p("reproductions.json")
        raw = load_json(path)
        with structure_of(path):
            self.repro = list(raw["records"])
            for i, r in enumerate(self.repro):
                _require(r, ("quantity", "source", "published", "rbdlab", "agree"), path, i)
            # Example 9.5's error vs gear ratio (the geared_dynamics page plots it): optional here, required
            # by that page (pages.example_9_5_figure); checked whenever present.
            self.example_9_5 = (example_9_5_points(raw["example_9_5"], path) if "example_9_5" in raw else None)
            self.repro_path = path
        # loop_drift.json (verify/loop_drift_study.cpp; the closed_loop_dynamics page plots it): optional.
        path = p("loop_drift.json")
        raw = load_json(path, required=False)
        self.loop_drift = None
        if raw is not None:
            with structure_of(path):
                for mi, m in enumerate(raw["mechanisms"]):
                    _require(m, ("id", "title", "runs"), path, f"mechanisms[{mi}]")
                    for ri, r in enumerate(m["runs"]):
                        _require(r, ("id", "method", "dt", "max_residual", "series"), path, f"mechanisms[{mi}].runs[{ri}]")
                self.loop_drift = raw
        path = p("discrepancies.json")
        raw = load_json(path)
        with structure_of(path):
            self.discrepancies = list(raw["discrepancies"])
            for i, r in enumerate(self.discrepancies):
                _require(r, ("quantity", "published", "evidence"), path, i)
        # The family studies record the printed formulas they found wrong in their own JSON
        # (frames.json: seeds 000/002; integration.json: seed 004; constraints.json: seed 001;
        # roundoff.json: Featherstone 10.1-10.2's statements the measurements contradict; opcounts.json: Figure
        # 10.5's statements checked by counting); the Reproductions page lists them all.
        for study in ("frames.json", "integration.json", "constraints.json", "roundoff.json", "opcounts.json",
                      "symbolic.json"):
            path = p(study)
            raw = load_json(path, required=False)
            if raw is None:
                continue
            with structure_of(path):
                for i, r in enumerate(raw.get("discrepancies", [])):
                    _require(r, ("quantity", "published", "evidence"), path, f"discrepancies[{i}]")
                    self.discrepancies.append(dict(r, found_by=study))
                # Statements checked by measurement (roundoff.json: sections 10.1-10.2; opcounts.json:
                # Figure 10.5), in reproductions.json's record format.
                for i, r in enumerate(raw.get("reproductions", [])):
                    _require(r, ("quantity", "source", "published", "rbdlab", "agree"), path, f"reproductions[{i}]")
                    self.repro.append(dict(r, found_by=study))

        # bench.json (optional)
        path = p("bench.json")
        raw = load_json(path, required=False)
        self.bench = Bench(raw, path) if raw is not None else None

        # families and variants, in order of first appearance
        fams = [r["family"] for r in self.acc] + [r["family"] for r in self.ops]
        if self.bench:
            fams += self.bench.families()
        self.families = _unique(fams)
        self.variants = {}
        self.peers = {}
        for fam in self.families:
            vs = _unique([r["variant"] for r in self.acc if r["family"] == fam]
                         + [r["variant"] for r in self.ops if r["family"] == fam])
            bench_vs = self.bench.variants(fam) if self.bench else []
            # A benchmarked "variant" the verify data never saw is a peer library (e.g. mujoco).
            self.peers[fam] = [v for v in bench_vs if v not in vs]
            self.variants[fam] = vs

    # ---------------------------------------------------------------- accuracy
    def acc_records(self, family, variant=None, own=False):
        """The accuracy records of a family (and variant); own=True drops the records of cases the
        variant handed to another variant (`fallback_to`), whose figures are that variant's."""
        return [r for r in self.acc if r["family"] == family and (variant is None or r["variant"] == variant)
                and not (own and fallback_of(r))]

    def cases(self, family):
        return _unique(r["case"] for r in self.acc_records(family))

    def handed_on(self, family, variant):
        """{variant that ran instead: [cases]} for the cases this variant handed on (the DH variants
        give a model without a DH form to the general variant); empty without `fallback_to`."""
        out = {}
        for r in self.acc_records(family, variant):
            if fallback_of(r):
                out.setdefault(fallback_of(r), []).append(r["case"])
        return out

    def acc_summary(self, family, variant):
        """Worst accuracy, exactness and gate count over the variant's own cases (records with
        `fallback_to` excluded); None when it has none."""
        rs = self.acc_records(family, variant, own=True)
        if not rs:
            return None
        worst = max(rs, key=lambda r: r["err_eps_max"])
        worst_budget = max(rs, key=lambda r: r["err_eps_vs_typical_max"] / r["budget_eps"])
        least_exact = min(rs, key=lambda r: r["exact_digits"])
        return {
            "cases": len(rs),
            "exact_digits_min": least_exact["exact_digits"], "exact_case": least_exact["case"],
            "err_max": worst["err_eps_max"], "err_max_case": worst["case"],
            "err_mean": sum(r["err_eps_mean"] for r in rs) / len(rs),
            "vs_typical": worst_budget["err_eps_vs_typical_max"], "budget": worst_budget["budget_eps"],
            "vs_typical_case": worst_budget["case"],
            "passed": sum(1 for r in rs if r["pass"]),
            "failed_cases": [r["case"] for r in rs if not r["pass"]],
        }

    # ---------------------------------------------------------------- op counts
    def ops_series(self, family, variant, case="gu"):
        return sorted((r["n"], r["m"], r["a"]) for r in self.ops
                      if (r["family"], r["variant"], r["case"]) == (family, variant, case))

    def ops_at(self, family, variant, n, case="gu"):
        for rn, m, a in self.ops_series(family, variant, case):
            if rn == n:
                return m, a
        fit = self.fits.get((family, variant, case))
        if fit:
            return poly_eval(fit["m"], n), poly_eval(fit["a"], n)
        return None

    def book_rows(self, family):
        algo = FAMILY_TO_BOOK.get(family)
        return [b for b in self.book if b["family"] == family or (b["family"] is None and b["algorithm"] == algo)]

    def best_book_row(self, family, n=OPS_RATIO_N):
        rows = self.book_rows(family)
        if not rows:
            return None
        return min(rows, key=lambda b: poly_eval(b["m"], n) + poly_eval(b["a"], n))

    def ops_vs_book(self, family, variant, n=OPS_RATIO_N):
        """(variant m, a at n; best book row; ratio m; ratio a) or None."""
        mine, best = self.ops_at(family, variant, n), self.best_book_row(family, n)
        if mine is None or best is None:
            return None
        bm, ba = poly_eval(best["m"], n), poly_eval(best["a"], n)
        return {"m": mine[0], "a": mine[1], "book": best, "book_m": bm, "book_a": ba,
                "ratio_m": mine[0] / bm, "ratio_a": mine[1] / ba}

    # ---------------------------------------------------------------- files
    def files(self):
        out = []
        for sub in ("", "failed"):
            d = os.path.join(self.data_dir, sub)
            if not os.path.isdir(d):
                continue
            for name in sorted(os.listdir(d)):
                full = os.path.join(d, name)
                if os.path.isfile(full):
                    with open(full, "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()[:16]
                    out.append((os.path.join(sub, name) if sub else name, os.path.getsize(full), digest))
        return out
