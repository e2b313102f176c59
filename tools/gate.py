#!/usr/bin/python3
"""Regression gate (DESIGN.md section 9): compares a fresh `make verify` run with the
committed baselines in reports/baselines/.

  gate.py check     exit 0 if nothing regressed, 1 with a list of regressions otherwise
  gate.py baseline  copy the current data into the baselines (a deliberate, reviewed change)

What is gated, and how:
  - operation counts (opcounts.json): every (family, variant, case, n) record must equal
    the baseline exactly; counts are deterministic, so any difference is a code change;
  - accuracy (accuracy.json): every record must pass its documented budget;
  - exactness: a variant's exact_digits must not fall below 40, nor more than
    DIGITS_DROP below the baseline's (Reference round-off makes the last digit or two vary
    between compilers; a formula change loses tens of digits);
  - a variant or case present in the baseline but missing from the fresh data, or new and
    without a baseline, fails until `make baseline` records it.
Wall-clock times are reported, never gated.
"""
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "reports" / "data"
BASE = ROOT / "reports" / "baselines"
GATED = ["opcounts.json", "accuracy.json"]
DIGITS_DROP = 3.0
DIGITS_REQUIRED = 40.0


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        sys.exit(f"gate: {path} is missing (run `make verify` first)")
    except json.JSONDecodeError as e:
        sys.exit(f"gate: {path} is not valid JSON: {e}")


def key(r, *fields):
    return tuple(r[f] for f in fields)


def check_opcounts(fresh, base, problems):
    fields = ("family", "variant", "case", "n")
    counted = ("m", "a", "mul", "div", "add", "sqrt", "sin", "cos")
    b = {key(r, *fields): r for r in base["records"]}
    f = {key(r, *fields): r for r in fresh["records"]}
    for k in sorted(set(b) - set(f)):
        problems.append(f"op counts: {'/'.join(map(str, k))} is in the baseline but was not counted")
    for k in sorted(set(f) - set(b)):
        problems.append(f"op counts: {'/'.join(map(str, k))} has no baseline (run `make baseline` if intended)")
    for k in sorted(set(b) & set(f)):
        diffs = [f"{c} {b[k][c]} -> {f[k][c]}" for c in counted if b[k].get(c) != f[k].get(c)]
        if diffs:
            problems.append(f"op counts changed for {'/'.join(map(str, k))}: " + ", ".join(diffs))


def check_accuracy(fresh, base, problems):
    fields = ("family", "variant", "case")
    b = {key(r, *fields): r for r in base["records"]}
    f = {key(r, *fields): r for r in fresh["records"]}
    for k in sorted(set(b) - set(f)):
        problems.append(f"accuracy: {'/'.join(k)} is in the baseline but was not measured")
    for k in sorted(set(f) - set(b)):
        problems.append(f"accuracy: {'/'.join(k)} has no baseline (run `make baseline` if intended)")
    for k, r in sorted(f.items()):
        name = "/".join(k)
        if not r["pass"]:
            problems.append(f"accuracy: {name} fails its budget ({r['err_eps_vs_typical_max']:.3g} eps vs "
                            f"{r['budget_eps']:.3g}) or exactness ({r['exact_digits']:.1f} digits)")
        if r["exact_digits"] < DIGITS_REQUIRED:
            problems.append(f"exactness: {name} agrees with the oracle to {r['exact_digits']:.1f} digits (< 40)")
        if k in b and r["exact_digits"] < b[k]["exact_digits"] - DIGITS_DROP:
            problems.append(f"exactness: {name} dropped from {b[k]['exact_digits']:.1f} to "
                            f"{r['exact_digits']:.1f} digits")


def check():
    problems = []
    check_opcounts(load(DATA / "opcounts.json"), load(BASE / "opcounts.json"), problems)
    check_accuracy(load(DATA / "accuracy.json"), load(BASE / "accuracy.json"), problems)
    if problems:
        print("gate: FAILED")
        for p in problems:
            print("  - " + p)
        print(f"gate: {len(problems)} regressions; if a change is deliberate, run `make baseline` and commit the diff")
        return 1
    n_ops = len(load(BASE / "opcounts.json")["records"])
    n_acc = len(load(BASE / "accuracy.json")["records"])
    print(f"gate: {n_ops} op-count records identical to the baseline; {n_acc} accuracy records within budget")
    print("gate: 2 passed, 0 failed")
    return 0


def baseline():
    # Only data from a passing run may become a baseline: a failed run writes to data/failed/.
    for name in GATED:
        data = load(DATA / name)
        if name == "accuracy.json" and not all(r["pass"] for r in data["records"]):
            sys.exit(f"gate: {DATA / name} has failing records; refusing to make it a baseline")
    BASE.mkdir(parents=True, exist_ok=True)
    for name in GATED:
        tmp = BASE / (name + ".tmp")
        shutil.copyfile(DATA / name, tmp)
        tmp.replace(BASE / name)
        print(f"gate: baseline {BASE / name} updated")
    return 0


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="rbdlab regression gate")
    ap.add_argument("command", choices=["check", "baseline"])
    ap.add_argument("--data", type=Path, default=DATA, help="fresh data (default reports/data)")
    ap.add_argument("--baselines", type=Path, default=BASE, help="baselines (default reports/baselines)")
    args = ap.parse_args()
    DATA, BASE = args.data, args.baselines
    sys.exit(check() if args.command == "check" else baseline())
