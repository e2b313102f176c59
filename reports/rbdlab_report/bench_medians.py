"""Median times from a Google Benchmark JSON of `make bench` (bench_frames.json,
bench_constraints.json, bench_integration.json), for the pages of the families that have their
own benchmark program. Absent file: no rows (the page says `make bench` has not run)."""
import os

from .data import GenerationError, load_json

_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
_STANDARD = {"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
             "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
             "aggregate_name", "aggregate_unit", "label", "error_occurred", "error_message"}


def medians(data_dir, filename):
    """{run_name: {"ns": median real time, "cv": coefficient of variation or None, "counters": {...}}}.
    An aggregate median wins over a single run of the same benchmark (a run with one repetition
    has no aggregates); None when the file is absent."""
    path = os.path.join(data_dir, filename)
    raw = load_json(path, required=False)
    if raw is None:
        return None
    out, cv = {}, {}
    try:
        for b in raw["benchmarks"]:
            name = b.get("run_name", b["name"])
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "cv":
                    cv[name] = b["real_time"]
                if b.get("aggregate_name") != "median":
                    continue
            elif name in out:
                continue
            counters = {k: v for k, v in b.items() if k not in _STANDARD}
            out[name] = {"ns": b["real_time"] * _UNIT_NS[b.get("time_unit", "ns")], "counters": counters}
    except (KeyError, TypeError) as e:
        raise GenerationError(f"{path}: unexpected structure ({e!r} missing or malformed)")
    for name, r in out.items():
        r["cv"] = cv.get(name)
    return out


def cv_cell(r):
    return f"{100 * r['cv']:.1f}%" if r.get("cv") is not None else "–"


def by_prefix(bench, prefix):
    """{a: {b: median record}} from the medians of benchmarks named <prefix>/<a>/<b> (bench_contact.json's
    contact/<scene>/<solver>, bench_loops.json's loops/<mechanism>/<method>)."""
    out = {}
    for name, r in bench.items():
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == prefix:
            out.setdefault(parts[1], {})[parts[2]] = r
    return out
