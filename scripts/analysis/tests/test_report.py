import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from common import CONFIG, make_results

# The report as a module of the package: `python3 -m dicesim_analysis.report` (dicesim-report once installed).
REPORT = ["-m", "dicesim_analysis.report"]


class ReportTest(unittest.TestCase):
    def test_renders_a_self_contained_page(self):
        with tempfile.TemporaryDirectory() as directory:
            results = make_results(directory)
            run = subprocess.run([sys.executable, *REPORT, str(results)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            page = (Path(directory) / "results.html").read_text()
        images = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,[A-Za-z0-9+/=]{1000,}"', page)
        self.assertEqual(images, [
            "distributions: Monte Carlo minus exact",
            "score distributions: dv(2,2), ts(5,5), best, aware", "normal probability plot: dv(2,2)",
            "headtohead: win rate of the row", "headtohead: Monte Carlo minus exact",
            "sequential: win rate of the row", "sequential: Monte Carlo minus exact",
            "nway table 0: wins", "nway: Monte Carlo minus exact",
            "sequential_tables table 0: wins", "sequential_tables: Monte Carlo minus exact",
            "score: headtohead", "score: sequential", "score: nway table 0", "score: sequential_tables table 0",
            "z-scores of every compared number"])
        # Every estimate in the tables with its 95% interval: a mean, a win rate.
        self.assertRegex(page, r"<td>\d+\.\d{4} \[\d+\.\d{4}, \d+\.\d{4}\]</td>")
        for name in (s["name"] for s in CONFIG["strategies"]):
            self.assertIn(name, page)
        self.assertIn("none beyond the limit", page)
        self.assertIn("complete", page)
        self.assertNotRegex(page, r'(src|href)="(https?:)?//')  # nothing fetched from elsewhere

    def report_of(self, config):
        """The page dicesim-report makes of a `dicesim run` of config."""
        with tempfile.TemporaryDirectory() as directory:
            results = make_results(directory, "run", config)
            run = subprocess.run([sys.executable, *REPORT, str(results)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            return (Path(directory) / "results.html").read_text()

    def test_a_sweep_gets_its_plot_ranking_and_best_responses(self):
        strategies = [{"name": f"hold{at}", "family": "hold_at", "at": at} for at in (10, 20, 30)]
        strategies.append({"name": "turns2", "family": "optimal_turns", "turns": 2})
        config = {"game": "pig", "seed": 3, "games": 300, "strategies": strategies,
                  "contests": {"distributions": True, "sequential": True}}
        page = self.report_of(config)
        images = re.findall(r'<img alt="([^"]*)"', page)
        self.assertIn("hold_at by at: mean score", images)
        self.assertIn("hold_at by at: against turns2", images)
        self.assertNotIn("optimal_turns by turns: against hold10", images)  # one value is no sweep
        self.assertIn("<h2>Ranking</h2>", page)
        self.assertIn("Best response to each opponent", page)

    def test_a_sweep_at_tables_of_three_is_a_curve_and_its_many_tables_fold(self):
        # 16 hold values, each seated second between two copies of hold at 20
        # (one named with HTML in it): more tables than MOST_TABLES_DRAWN.
        config = {"game": "pig", "seed": 3, "games": 300,
                  "strategies": [{"name": "hold{at}", "family": "hold_at", "at": {"from": 10, "to": 40, "step": 2}},
                                 {"name": "h20", "family": "hold_at", "at": 20},
                                 {"name": "<b>h20&amp;", "family": "hold_at", "at": 20}],
                  "contests": {"distributions": False, "sequential_tables": [["h20", "hold{at}", "<b>h20&amp;"]]}}
        page = self.report_of(config)
        images = re.findall(r'<img alt="([^"]*)"', page)
        self.assertEqual(images, ["hold_at by at: sequential_tables against h20, &lt;b&gt;h20&amp;amp;"])
        self.assertIn("<th>best</th>", page)  # each swept seat's best, with its interval
        self.assertRegex(page, r"<td>hold\d+</td>\s*<td>\d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\]</td>")
        self.assertEqual(page.count("<details>"), 2)  # the tables and the histograms, folded
        self.assertIn("sequential_tables: 16 tables, one row per seat", page)
        self.assertIn("mean turns", page)
        self.assertNotIn("<b>h20&amp;", page)  # every name escaped
        self.assertLess(len(page), 200_000)  # 2.7 MB when its 16 tables were drawn one by one

    def test_every_histogram_of_the_file_appears(self):
        config = {"game": "tenk", "seed": 3, "games": 300,
                  "strategies": [{"name": "ev", "family": "ev_heuristic"}, {"name": "bank", "family": "bank_at", "total": 350}],
                  "contests": {"distributions": False, "sequential": True, "sequential_tables": [["ev", "bank"]]}}
        page = self.report_of(config)
        images = re.findall(r'<img alt="([^"]*)"', page)
        for measure in ("score", "turns", "turn_score", "first_turn", "place"):
            self.assertIn(f"{measure}: sequential", images)
            self.assertIn(f"{measure}: sequential_tables table 0", images)
        self.assertNotIn("p_min", page)  # a race

    def test_a_run_without_exact_numbers_says_so(self):
        with tempfile.TemporaryDirectory() as directory:
            results = make_results(directory, command="run")
            out = Path(directory) / "page.html"
            run = subprocess.run([sys.executable, *REPORT, str(results), "-o", str(out)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("holds no exact comparison", out.read_text())

    def test_a_file_that_is_not_results_is_refused(self):
        with tempfile.TemporaryDirectory() as directory:
            bogus = Path(directory) / "bogus.h5"
            bogus.write_bytes(b"not hdf5 at all")
            run = subprocess.run([sys.executable, *REPORT, str(bogus)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 2)
            self.assertEqual(run.stderr, f"{bogus}: unreadable or truncated results file "
                             "(Unable to open file (file signature not found))\n")


if __name__ == "__main__":
    unittest.main()
