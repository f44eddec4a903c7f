import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from common import CONFIG, ROOT, make_results

REPORT = ROOT / "scripts" / "report.py"


class ReportTest(unittest.TestCase):
    def test_renders_a_self_contained_page(self):
        with tempfile.TemporaryDirectory() as directory:
            results = make_results(directory)
            run = subprocess.run([sys.executable, str(REPORT), str(results)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            page = (Path(directory) / "results.html").read_text()
        images = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,[A-Za-z0-9+/=]{1000,}"', page)
        # One per four distributions, the normal plot, two matrices, two tables, the z-scores.
        self.assertEqual(len(images), 1 + 1 + 2 + 2 + 1)
        for name in (s["name"] for s in CONFIG["strategies"]):
            self.assertIn(name, page)
        self.assertIn("none beyond the limit", page)
        self.assertIn("complete", page)
        self.assertNotRegex(page, r'(src|href)="(https?:)?//')  # nothing fetched from elsewhere

    def test_a_run_without_exact_numbers_says_so(self):
        with tempfile.TemporaryDirectory() as directory:
            results = make_results(directory, command="run")
            out = Path(directory) / "page.html"
            run = subprocess.run([sys.executable, str(REPORT), str(results), "-o", str(out)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("holds no exact comparison", out.read_text())

    def test_a_file_that_is_not_results_is_refused(self):
        with tempfile.TemporaryDirectory() as directory:
            bogus = Path(directory) / "bogus.h5"
            bogus.write_bytes(b"not hdf5 at all")
            run = subprocess.run([sys.executable, str(REPORT), str(bogus)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 2)
            self.assertIn("cannot read", run.stderr)


if __name__ == "__main__":
    unittest.main()
