#!/usr/bin/python3
"""How much the gated figures move between builds that change nothing in the algorithms
(issue 13, item 2): the measurement behind tools/gate.py's RATIO_LIMIT and ERR_FLOOR_EPS.

  gate_variation.py REF_DIR NAME=DIR [NAME=DIR ...] [--out reports/data/gate_variation.json]

REF_DIR holds the data of the reference build (Clang, -O1, -ffp-contract=off: what CI runs and
the baselines come from; GCC -O1 until 2026-11-26); each NAME=DIR the data of the same sources built another way
(`make gate-variation` builds and runs them: -O2, -O3, Clang, and -march=native with FMA
contraction). For every figure the gate compares (accuracy.json's err_eps_max, err_eps_mean,
exact_digits, budget_eps; every study's gated_figures), it records how far the other build
is from the reference, in the gate's own terms:
  - error figures: the ratio max(v, floor) / max(b, floor) and its inverse (either build
    could be the one the baseline came from), for floor = 0 and the candidate floors;
  - digits: the drop; near figures: |v - b| against the figure's tolerance; budgets: the
    relative change.
The summary names the largest ratio above the chosen floor (what RATIO_LIMIT must cover)
and the worst figures, so the choice can be checked and redone.
"""
import argparse
import json
import math
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gate  # noqa: E402

FLOORS = [0.0, 0.25, 0.5, 1.0, 2.0]  # candidate floors (eps) for accuracy.json's errors


def load(d, name):
    for p in (Path(d) / name, Path(d) / "failed" / name):
        if p.exists():
            return json.loads(p.read_text()), p.parent.name == "failed"
    return None, False


def ratio(v, b, floor):
    """Symmetric ratio of two non-negative figures compared at `floor`."""
    if not (gate.finite(v) and gate.finite(b)):
        return math.inf
    x, y = max(v, floor), max(b, floor)
    if x == y:
        return 1.0
    if min(x, y) == 0:
        return math.inf
    return max(x / y, y / x)


class Worst:
    def __init__(self, n=8):
        self.items, self.n = [], n

    def add(self, value, what):
        self.items.append((value, what))
        self.items.sort(key=lambda t: -t[0] if math.isfinite(t[0]) else -1e308)
        del self.items[self.n:]

    def max(self):
        return self.items[0][0] if self.items else 1.0

    def to_json(self):
        return [{"value": v if math.isfinite(v) else None, "figure": w} for v, w in self.items]


def compare_accuracy(ref, other):
    key = lambda r: (r["family"], r["variant"], r["case"])
    b = {key(r): r for r in ref["records"]}
    out = {"records_compared": 0, "records_bit_identical": 0, "digits_drop_max": 0.0, "budget_rel_change_max": 0.0}
    worst = {f: Worst() for f in FLOORS}
    for r in other["records"]:
        o = b.get(key(r))
        if o is None:
            continue
        out["records_compared"] += 1
        same = all(r.get(x) == o.get(x) for x in ("err_eps_max", "err_eps_mean", "exact_digits", "budget_eps"))
        out["records_bit_identical"] += same
        name = "/".join(key(r))
        for x in ("err_eps_max", "err_eps_mean"):
            for f in FLOORS:
                worst[f].add(ratio(r.get(x), o.get(x), f), f"accuracy {name} {x}: {o.get(x)} -> {r.get(x)}")
        if gate.finite(r.get("exact_digits")) and gate.finite(o.get("exact_digits")):
            out["digits_drop_max"] = max(out["digits_drop_max"], abs(o["exact_digits"] - r["exact_digits"]))
        if gate.finite(r.get("budget_eps")) and gate.finite(o.get("budget_eps")) and o["budget_eps"] > 0:
            out["budget_rel_change_max"] = max(out["budget_rel_change_max"], abs(r["budget_eps"] / o["budget_eps"] - 1))
    out["error_ratio_max_by_floor_eps"] = {str(f): worst[f].max() for f in FLOORS}
    out["worst"] = {str(f): worst[f].to_json() for f in FLOORS}
    return out


def compare_study(ref, other):
    b = {x["id"]: x for x in ref.get("gated_figures", [])}
    err, out = Worst(), {"figures_compared": 0, "figures_bit_identical": 0, "digits_drop_max": 0.0,
                         "near_over_tolerance_max": 0.0, "missing": 0}
    for fig in other.get("gated_figures", []):
        o = b.get(fig["id"])
        if o is None:
            out["missing"] += 1
            continue
        out["figures_compared"] += 1
        v, bv = fig.get("value"), o.get("value")
        out["figures_bit_identical"] += v == bv
        if o["kind"] == "error":
            err.add(ratio(v, bv, o.get("floor", 0.0)), f"{fig['id']}: {bv} -> {v}")
        elif o["kind"] == "digits" and gate.finite(v) and gate.finite(bv):
            out["digits_drop_max"] = max(out["digits_drop_max"], bv - v)
        elif o["kind"] == "near" and gate.finite(v) and gate.finite(bv):
            tol = o.get("tolerance", 0.0)
            d = abs(v - bv)
            out["near_over_tolerance_max"] = max(out["near_over_tolerance_max"], (d / tol) if tol > 0 else (0.0 if d == 0 else math.inf))
    out["error_ratio_max"] = err.max()
    out["worst"] = err.to_json()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref")
    ap.add_argument("others", nargs="+", help="NAME=DIR")
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "data" / "gate_variation.json")
    ap.add_argument("--describe", action="append", default=[], help="NAME=how it was built")
    a = ap.parse_args()
    described = dict(x.split("=", 1) for x in a.describe)
    ref_acc, _ = load(a.ref, "accuracy.json")
    if ref_acc is None:
        sys.exit(f"gate_variation: no accuracy.json in {a.ref}")
    configs = {}
    above_floor = Worst()
    for spec in a.others:
        name, d = spec.split("=", 1)
        c = {"built": described.get(name, ""), "studies": {}}
        acc, failed = load(d, "accuracy.json")
        if acc is not None:
            c["accuracy"] = compare_accuracy(ref_acc, acc)
            c["accuracy"]["from_failed_run"] = failed
            for item in c["accuracy"]["worst"][str(gate.ERR_FLOOR_EPS)]:
                above_floor.add(item["value"] if item["value"] is not None else math.inf, f"{name}: {item['figure']}")
        for s in gate.STUDIES:
            r, _ = load(a.ref, s)
            o, failed = load(d, s)
            if r is None or o is None or "gated_figures" not in r:
                continue
            c["studies"][s] = compare_study(r, o)
            c["studies"][s]["from_failed_run"] = failed
            for item in c["studies"][s]["worst"]:
                above_floor.add(item["value"] if item["value"] is not None else math.inf, f"{name}: {s} {item['figure']}")
        configs[name] = c
    out = {"what": "variation of the gated figures between builds that change nothing in the algorithms (issue 13)",
           "reference_build": described.get("ref", "Clang -O1 -ffp-contract=off"),
           "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
           "err_floor_eps": gate.ERR_FLOOR_EPS, "ratio_limit": gate.RATIO_LIMIT,
           "largest_ratio_above_floor": above_floor.max(), "worst_above_floor": above_floor.to_json(),
           "configs": configs}
    tmp = a.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(out, indent=1) + "\n")
    tmp.replace(a.out)
    print(f"gate_variation: largest ratio above the {gate.ERR_FLOOR_EPS:g}-eps floor: {above_floor.max():.3g} "
          f"(RATIO_LIMIT {gate.RATIO_LIMIT:g}); wrote {a.out}")
    for name, c in configs.items():
        acc = c.get("accuracy", {})
        print(f"  {name}: accuracy {acc.get('records_bit_identical')}/{acc.get('records_compared')} records identical, "
              f"ratio by floor {acc.get('error_ratio_max_by_floor_eps')}; studies "
              + ", ".join(f"{s}: {v['figures_bit_identical']}/{v['figures_compared']} identical, max ratio {v['error_ratio_max']:.3g}"
                          for s, v in c["studies"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
