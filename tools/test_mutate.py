#!/usr/bin/python3
"""Tests of tools/mutate.py's pure parts (run by `make gate`): site matching and its refusals,
the schema rewriting, the mutant-set checks, reading the checks' outcomes, and the switch header
compiled and run in a small program (double, a counting scalar)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True
import mutate  # noqa: E402

ROOT = HERE.parent


def mutant(**kw):
    m = {"id": 7, "kind": "wrong_formula", "file": "algorithms/x/y.hpp", "form": "expr",
         "original": "a + b", "replacement": "a - b", "description": "sign"}
    m.update(kw)
    return m


class SiteMatching(unittest.TestCase):
    def test_one_match(self):
        text = "int f() {\n  return a + b;\n}\n"
        self.assertEqual(mutate.find_site(text, mutant()), text.index("a + b"))

    def test_refuses_no_match_naming_the_mutant(self):
        with self.assertRaises(mutate.MutantError) as e:
            mutate.find_site("return a * b;", mutant())
        self.assertIn("mutant 7", str(e.exception))
        self.assertIn("does not occur", str(e.exception))
        self.assertIn("algorithms/x/y.hpp", str(e.exception))

    def test_refuses_two_matches_naming_the_lines(self):
        with self.assertRaises(mutate.MutantError) as e:
            mutate.find_site("x = a + b;\ny = 1;\nz = a + b;\n", mutant())
        msg = str(e.exception)
        self.assertIn("mutant 7", msg)
        self.assertIn("more than once", msg)
        self.assertIn("lines 1 and 3", msg)

    def test_overlapping_matches_count_as_two(self):
        with self.assertRaises(mutate.MutantError):
            mutate.find_site("aaa", mutant(original="aa", replacement="b"))

    def test_whitespace_is_exact(self):
        with self.assertRaises(mutate.MutantError):
            mutate.find_site("a  + b", mutant())


class SchemaRewriting(unittest.TestCase):
    def test_expression_form(self):
        self.assertEqual(mutate.schema(mutant()), "(rbd_mutant_on(7) ? (a - b) : (a + b))")

    def test_statement_form(self):
        m = mutant(form="stmt", original="x = a + b;", replacement="x = a - b;")
        self.assertEqual(mutate.schema(m), "if (rbd_mutant_on(7)) { x = a - b; } else { x = a + b; }")

    def test_comment_gets_a_line_break(self):
        m = mutant(form="stmt", original="x = a;  // why", replacement="x = b;")
        s = mutate.schema(m)
        self.assertIn("// why\n }", s)
        self.assertTrue(s.endswith("}"))

    def test_apply_rewrites_each_site_once_and_reports_lines(self):
        text = "l1\nx = a + b;\nl3\ny = c * d;\n"
        ms = [mutant(id=3, form="stmt", original="y = c * d;", replacement="y = c * d * 1;"),
              mutant(id=2, original="a + b", replacement="a - b")]
        out, lines = mutate.apply_schemata(text, ms)
        self.assertEqual(lines, {2: 2, 3: 4})
        self.assertEqual(out, "l1\nx = (rbd_mutant_on(2) ? (a - b) : (a + b));\nl3\n"
                              "if (rbd_mutant_on(3)) { y = c * d * 1; } else { y = c * d; }\n")

    def test_sites_are_found_in_the_unmutated_text(self):
        # The second mutant's original occurs in the first one's replacement: still one site.
        text = "u = f(x);\nv = g(y);\n"
        ms = [mutant(id=1, original="f(x)", replacement="f(x) + g(y)"), mutant(id=2, original="g(y)", replacement="h(y)")]
        out, _ = mutate.apply_schemata(text, ms)
        self.assertIn("(rbd_mutant_on(1) ? (f(x) + g(y)) : (f(x)))", out)
        self.assertIn("(rbd_mutant_on(2) ? (h(y)) : (g(y)))", out)

    def test_overlapping_sites_refused(self):
        ms = [mutant(id=1, original="a + b", replacement="a"), mutant(id=2, original="b;", replacement="c;")]
        with self.assertRaises(mutate.MutantError) as e:
            mutate.apply_schemata("x = a + b;\n", ms)
        self.assertIn("overlap", str(e.exception))

    def test_same_span_shares_one_schema(self):
        ms = [mutant(id=1, original="a + b", replacement="a - b"), mutant(id=1001, original="a + b", replacement="b")]
        out, lines = mutate.apply_schemata("x = a + b;\n", ms)
        self.assertEqual(out, "x = (rbd_mutant_on(1) ? (a - b) : (rbd_mutant_on(1001) ? (b) : (a + b)));\n")
        self.assertEqual(lines, {1: 1, 1001: 1})
        st = [mutant(id=2, form="stmt", original="y = 1;", replacement="y = 2;"),
              mutant(id=3, form="stmt", original="y = 1;", replacement="y = 3;")]
        self.assertEqual(mutate.apply_schemata("y = 1;", st)[0],
                         "if (rbd_mutant_on(2)) { y = 2; } else if (rbd_mutant_on(3)) { y = 3; } else { y = 1; }")
        mixed = [mutant(id=4, original="y = 1;", replacement="y = 2;"),
                 mutant(id=5, form="stmt", original="y = 1;", replacement="y = 3;")]
        with self.assertRaises(mutate.MutantError):
            mutate.apply_schemata("y = 1;", mixed)

    def test_mutate_files_refuses_an_untracked_file(self):
        with self.assertRaises(mutate.MutantError) as e:
            mutate.mutate_files({"algorithms/a.hpp": b"a + b"}, [mutant(file="algorithms/b.hpp")])
        self.assertIn("not a tracked file", str(e.exception))


class MutantSet(unittest.TestCase):
    def check_refused(self, m, words):
        with self.assertRaises(mutate.MutantError) as e:
            mutate.validate_set({"mutants": [m]})
        self.assertIn(words, str(e.exception))

    def test_fields(self):
        m = mutant()
        del m["description"]
        self.check_refused(m, "lacks description")
        self.check_refused(mutant(kind="typo"), "kind 'typo'")
        self.check_refused(mutant(form="block"), "form 'block'")
        self.check_refused(mutant(id=0), "id must be an integer >= 1")
        self.check_refused(mutant(file="verify/x.cpp"), "not a path under algorithms/")
        self.check_refused(mutant(file="algorithms/../verify/x.cpp"), "not a path under algorithms/")
        self.check_refused(mutant(replacement="a + b"), "equals the original")
        self.check_refused(mutant(description="two\nlines"), "one line")

    def test_duplicate_id(self):
        with self.assertRaises(mutate.MutantError) as e:
            mutate.validate_set({"mutants": [mutant(), mutant()]})
        self.assertIn("used twice", str(e.exception))

    def test_set_names(self):
        d = Path(tempfile.mkdtemp())
        try:
            (d / "suite.json").write_text("{}")
            (d / "holdout.json").write_text("{}")
            self.assertEqual(mutate.resolve_set("suite", d), d / "suite.json")
            self.assertEqual(mutate.resolve_set("holdout.json", d), d / "holdout.json")
            for bad in ("../suite", "/tmp/suite.json", "sub/suite", ".hidden"):
                with self.assertRaises(mutate.MutantError):
                    mutate.resolve_set(bad, d)
            with self.assertRaises(mutate.MutantError) as e:
                mutate.resolve_set("nope", d)
            self.assertIn("holdout, suite", str(e.exception))
        finally:
            shutil.rmtree(d)

    def test_the_suite_applies_to_the_current_sources(self):
        """tools/mutants/suite.json: valid, >= 6 mutants of each kind, every site found once in
        algorithms/ as it is now (a change to a mutated line must update the set)."""
        raw = json.loads((ROOT / "tools" / "mutants" / "suite.json").read_text())
        ms = mutate.validate_set(raw, "suite.json")
        for kind in mutate.KINDS:
            self.assertGreaterEqual(sum(m["kind"] == kind for m in ms), 6, kind)
        files = {m["file"]: (ROOT / m["file"]).read_bytes() for m in ms}
        changed, lines = mutate.mutate_files(files, ms)
        self.assertEqual(sorted(lines), sorted(m["id"] for m in ms))

    def test_every_set_applies_together(self):
        """The one mutant build holds every set of tools/mutants/ (--build-sets' default): ids
        unique across sets, every site found, sites shared only as whole spans."""
        ms = []
        for p in sorted((ROOT / "tools" / "mutants").glob("*.json")):
            ms += mutate.validate_set(json.loads(p.read_text()), p.name)
        ids = [m["id"] for m in ms]
        self.assertEqual(len(ids), len(set(ids)))
        files = {m["file"]: (ROOT / m["file"]).read_bytes() for m in ms}
        changed, lines = mutate.mutate_files(files, ms)
        self.assertEqual(sorted(lines), sorted(ids))


XML = """<?xml version="1.0" encoding="UTF-8"?>
<Catch name="rbdlab_tests">
  <Group name="rbdlab_tests">
    <TestCase name="passes" tags="[a]" filename="t.cpp" line="1">
      <OverallResult success="true"/>
    </TestCase>
    <TestCase name="fails &quot;here&quot; - double" tags="[a]" filename="t.cpp" line="9">
      <Section name="one"><Expression success="false"/></Section>
      <OverallResult success="false"/>
    </TestCase>
    <TestCase name="fails &quot;here&quot; - double" tags="[a]" filename="t.cpp" line="9">
      <OverallResult success="false"/>
    </TestCase>
    <TestCase name="crashes" tags="[a]" filename="t.cpp" line="20">
      <Expression success="false"/>
"""


class Outcomes(unittest.TestCase):
    def test_failing_test_cases_from_catch2_xml(self):
        self.assertEqual(mutate.failing_test_cases(XML),
                         ['fails "here" - double', "crashes (did not finish)"])
        self.assertEqual(mutate.failing_test_cases(""), [])

    def test_gate_failure_lines_one_per_kind(self):
        out = ("gate: FAILED\n"
               + "".join(f"  - op counts changed for id/rnea/gu/{n}: m {n} -> {n + 1}\n" for n in range(1, 8))
               + "  - accuracy: id/rnea/gu:3 fails its budget (40 eps vs 32)\n"
               + "  - exactness: id/rnea/gu:3 agrees with the oracle to 12.0 digits (< 40)\n"
               + "  - accuracy: id/rnea/gu:4 fails its budget (41 eps vs 32)\n"
               + "gate: 10 regressions\n")
        self.assertEqual(mutate.gate_failure_lines(out), [
            "op counts changed for id/rnea/gu/1: m 1 -> 2 (and 6 more like it)",
            "accuracy: id/rnea/gu:3 fails its budget (40 eps vs 32) (and 1 more like it)",
            "exactness: id/rnea/gu:3 agrees with the oracle to 12.0 digits (< 40)"])
        lines = mutate.gate_failure_lines(out, keep=1)
        self.assertEqual(lines[1], "... and 2 more kinds of problem")
        self.assertEqual(mutate.gate_failure_lines("gate: x.json is missing\n"), ["gate: x.json is missing"])

    def test_program_failure_lines(self):
        out = "case gu:1 ok\n/b/runs/3/data/x.json written\naccuracy: aba/gu:12 err 5e3 eps over budget\nwrote /b/runs/3/f\n"
        self.assertEqual(mutate.program_failure_lines(out, "/b/"), ["accuracy: aba/gu:12 err 5e3 eps over budget"])
        self.assertEqual(mutate.program_failure_lines("one\ntwo\nthree\n"), ["two", "three"])

    def test_check_order_cheapest_first_each_gate_part_after_its_program(self):
        secs = {"rbdlab_tests": 50, "rbdlab_accuracy": 30, "rbdlab_opcounts": 2, "rbdlab_frames_study": 1,
                "rbdlab_roundoff_study": 60, "gate:accuracy.json": 0.5, "gate:opcounts.json": 0.5,
                "gate:roundoff.json": 0.4, "gate:frames.json": 0.3}
        order = mutate.check_order(secs, list(secs))
        self.assertEqual(order, ["rbdlab_frames_study", "gate:frames.json", "rbdlab_opcounts", "gate:opcounts.json",
                                 "rbdlab_accuracy", "gate:accuracy.json", "rbdlab_tests", "rbdlab_roundoff_study",
                                 "gate:roundoff.json"])

    def test_every_gated_file_has_a_gate_part(self):
        sys.path.insert(0, str(mutate.ROOT / "tools"))
        import gate
        self.assertEqual(sorted(mutate.GATE_FILE_OF.values()), sorted(gate.EXACT + gate.STUDIES))
        self.assertTrue(set(mutate.GATE_FILE_OF) <= set(mutate.PROGRAMS))

    def test_timeout(self):
        self.assertEqual(mutate.timeout_for("a", {"a": 100.0}), 1000.0)
        self.assertEqual(mutate.timeout_for("a", {"a": 0.5}), mutate.MIN_TIMEOUT_S)

    def test_summary(self):
        rs = [{"id": 1, "kind": "wrong_formula", "killed": True}, {"id": 2, "kind": "extra_operation", "killed": False},
              {"id": 3, "kind": "extra_operation", "killed": True}]
        by_kind, total, survivors = mutate.summarize(None, rs)
        self.assertEqual(by_kind["extra_operation"], {"killed": 1, "total": 2})
        self.assertEqual(by_kind["double_precision_loss"], {"killed": 0, "total": 0})
        self.assertEqual(total, {"killed": 2, "total": 3})
        self.assertEqual(survivors, [2])

    def test_strip_timing(self):
        obj = {"a": 1, "run_time_s": 3.2, "cost": [{"ns_per_step": 5, "m": 7, "seconds": 1}], "time": 4}
        self.assertEqual(mutate.strip_timing(obj), {"a": 1, "cost": [{"m": 7}]})

    def test_atomic_write(self):
        d = Path(tempfile.mkdtemp())
        try:
            p = d / "out.json"
            mutate.write_json_atomically(p, {"a": 1})
            self.assertEqual(json.loads(p.read_text()), {"a": 1})
            self.assertEqual(sorted(x.name for x in d.iterdir()), ["out.json"])
        finally:
            shutil.rmtree(d)


PROGRAM = r"""
#include <cstdio>
#include <cmath>
struct Counted {  // counts multiplications, as rbd::Counted does
  static inline int muls = 0;
  double v;
  Counted(double x = 0) : v(x) {}
  friend Counted operator*(Counted a, Counted b) { ++muls; return Counted(a.v * b.v); }
  friend Counted operator+(Counted a, Counted b) { return Counted(a.v + b.v); }
};
template <class S> S f(const S& a, const S& b) {
  S x = SITE_EXPR;
  SITE_STMT
  return x;
}
int main() {
  const double d = f<double>(2.0, 3.0);
  const Counted c = f<Counted>(Counted(2.0), Counted(3.0));
  std::printf("%d %.17g %.17g %d %d\n", rbd_mutant_active(), d, c.v, Counted::muls, std::isnan(d) ? 1 : 0);
}
"""


@unittest.skipUnless(shutil.which("c++"), "no C++ compiler")
class Header(unittest.TestCase):
    """The forced-include header and two schemata, compiled with the suite's language level and
    run with RBDLAB_MUTANT set: only the selected mutant is live, the double-only helpers leave
    the counting scalar's value and counts alone."""

    @classmethod
    def setUpClass(cls):
        cls.dir = Path(tempfile.mkdtemp())
        (cls.dir / "h.hpp").write_text(mutate.HEADER)
        expr = mutate.schema(mutant(id=1, original="a * b", replacement="a * b * S(1)"))
        stmt = mutate.schema(mutant(id=2, form="stmt", original="x = x;",
                                    replacement="x = rbd_mut::nan_if<S>(true, rbd_mut::bump<S>(x));"))
        stmt3 = mutate.schema(mutant(id=3, form="stmt", original="x = x + S(0);", replacement="x = rbd_mut::via_float<S>(x + S(1e-9));"))
        src = PROGRAM.replace("SITE_EXPR", expr).replace("SITE_STMT", stmt + "\n  " + stmt3)
        (cls.dir / "p.cpp").write_text(src)
        cls.built = subprocess.run(["c++", "-std=c++20", "-include", str(cls.dir / "h.hpp"), "-o", str(cls.dir / "p"),
                                    str(cls.dir / "p.cpp")], capture_output=True, text=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def run_with(self, value):
        self.assertEqual(self.built.returncode, 0, self.built.stderr)
        env = dict(os.environ)
        env.pop("RBDLAB_MUTANT", None)
        if value is not None:
            env["RBDLAB_MUTANT"] = value
        return subprocess.run([str(self.dir / "p")], capture_output=True, text=True, env=env)

    def test_unset_and_zero_are_the_original(self):
        for v in (None, "0", ""):
            self.assertEqual(self.run_with(v).stdout.split(), ["0", "6", "6", "1", "0"], v)

    def test_expression_mutant_counts_one_more_operation(self):
        self.assertEqual(self.run_with("1").stdout.split(), ["1", "6", "6", "2", "0"])

    def test_double_only_helpers(self):
        self.assertEqual(self.run_with("2").stdout.split(), ["2", "nan", "6", "1", "1"])
        out = self.run_with("3").stdout.split()
        self.assertEqual(out[2], "6.0000000010000001")   # Counted: x + 1e-9, not rounded through float
        self.assertEqual(out[1], "6")                     # double: 6 + 1e-9 rounded through float is 6

    def test_bad_value_refused(self):
        r = self.run_with("seven")
        self.assertEqual(r.returncode, 3)
        self.assertIn("RBDLAB_MUTANT=seven", r.stderr)


if __name__ == "__main__":
    unittest.main()
