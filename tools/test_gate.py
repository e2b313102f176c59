#!/usr/bin/python3
"""The gate must fail on each kind of regression it claims to catch (run by `make gate`)."""
import json
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GATE = [str(ROOT / "tools" / "gate.py")]


class GateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.data, self.base = self.tmp / "data", self.tmp / "base"
        self.data.mkdir()
        for name in ("opcounts.json", "accuracy.json"):
            shutil.copyfile(ROOT / "reports" / "baselines" / name, self.data / name)
        self.run_gate("baseline")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_gate(self, cmd):
        return subprocess.run(["/usr/bin/python3"] + GATE + [cmd, "--data", str(self.data), "--baselines", str(self.base)],
                              capture_output=True, text=True)

    def edit(self, name, fn):
        p = self.data / name
        d = json.loads(p.read_text())
        fn(d)
        p.write_text(json.dumps(d))

    def test_identical_data_passes(self):
        self.assertEqual(self.run_gate("check").returncode, 0)

    def test_changed_op_count_fails(self):
        self.edit("opcounts.json", lambda d: d["records"][5].update(m=d["records"][5]["m"] + 1))
        r = self.run_gate("check")
        self.assertEqual(r.returncode, 1)
        self.assertIn("op counts changed", r.stdout)

    def test_missing_variant_fails(self):
        self.edit("opcounts.json", lambda d: d.update(records=[x for x in d["records"] if x["variant"] != "crba"]))
        self.assertIn("was not counted", self.run_gate("check").stdout)

    def test_budget_failure_fails(self):
        self.edit("accuracy.json", lambda d: d["records"][0].update({"pass": False}))
        self.assertIn("fails its budget", self.run_gate("check").stdout)

    def test_digit_drop_fails(self):
        self.edit("accuracy.json", lambda d: d["records"][0].update(exact_digits=30.0))
        out = self.run_gate("check").stdout
        self.assertIn("dropped from", out)
        self.assertIn("< 40", out)

    def test_corrupt_json_is_reported(self):
        (self.data / "accuracy.json").write_text("{not json")
        r = self.run_gate("check")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not valid JSON", r.stderr)


if __name__ == "__main__":
    unittest.main()
