"""dicesim_analysis.run and solve call dicesim from Python; Results has a
short repr, to_xarray, clear errors; plot_sweep says when its best is
within chance."""

import contextlib
import io
import os
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

import matplotlib.pyplot as plt

import dicesim_analysis as da
from common import BINARY, CONFIG


def sweep(holds, games):
    """hold_at at each of `holds`, and optimal_turns 2 to play against."""
    return {"game": "pig", "seed": 3, "games": games,
            "strategies": [{"name": f"hold{at}", "family": "hold_at", "at": at} for at in holds]
            + [{"name": "turns2", "family": "optimal_turns", "turns": 2}],
            "contests": {"distributions": True, "sequential": True}}


class Runs(unittest.TestCase):
    def setUp(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.directory = Path(directory.name)
        patcher = mock.patch.dict(os.environ, {"DICESIM": str(BINARY)})
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_a_dict_config_runs_and_loads(self):
        out = self.directory / "r.h5"
        results = da.run(CONFIG, games=300, seed=4, threads=1, output=out, check=True, progress=False)
        self.assertIsInstance(results, da.Results)
        self.assertEqual(Path(results.path), out)
        self.assertEqual(results.meta["games"], 300)
        self.assertEqual(results.meta["seed"], 4)
        self.assertEqual(results.meta["threads"], 1)
        self.assertFalse(results.checks.empty)
        self.assertIn("check:", results.log)

    def test_total_games_are_split_evenly_over_the_tables(self):
        plan = da.run(CONFIG, games=1, progress=False, extra=["--dry-run"])
        tables = int(plan.split(" games in all")[0].split("\n")[-1].replace(",", ""))
        results = da.run(CONFIG, total_games=300 * tables + 1, threads=1, output=self.directory / "t.h5",
                         progress=False)
        self.assertEqual(results.meta["games"], 300)

    def test_device_gpu_gives_the_cpus_counters_or_is_refused_in_one_line(self):
        cpu = da.run(CONFIG, games=1000, threads=1, output=self.directory / "c.h5", progress=False)
        try:
            gpu = da.run(CONFIG, games=1000, device="gpu", output=self.directory / "g.h5", progress=False)
        except da.DicesimError as refused:  # no GPU here (or no GPU engine in this build)
            self.assertEqual(refused.exit_code, 2)
            self.assertTrue(refused.message.startswith("--device gpu: "), refused.message)
            self.assertFalse((self.directory / "g.h5").exists())
            return
        import h5py
        with h5py.File(cpu.path, "r") as a, h5py.File(gpu.path, "r") as b:
            self.assertEqual(a["engine/counters"][()].tolist(), b["engine/counters"][()].tolist())

    def test_a_sweep_of_a_file_without_pairs_says_where_its_tables_are(self):
        config = dict(CONFIG, contests={"distributions": False, "nway": [[s["name"] for s in CONFIG["strategies"]]]})
        results = da.run(config, games=200, threads=1, output=self.directory / "n.h5", progress=False)
        with self.assertRaisesRegex(ValueError, "results.nway"):
            da.sweep_values(results, opponent=CONFIG["strategies"][0]["name"])

    def test_a_path_config_runs_with_its_defaults_and_writes_the_json_summary(self):
        config = self.directory / "c.json"
        config.write_text(__import__("json").dumps({**CONFIG, "games": 200}))
        summary = self.directory / "s.json"
        results = da.run(config, output=self.directory / "r.h5", json_summary=summary, progress=False)
        self.assertEqual(results.meta["games"], 200)
        self.assertTrue(results.checks.empty)
        self.assertEqual(__import__("json").loads(summary.read_text())["run"]["command"], "run")

    def test_progress_lines_stream_to_stderr_as_they_come(self):
        # A dicesim that writes a line, then takes two seconds before the real one runs: the line
        # must reach sys.stderr while it waits, not when it ends.
        slow = self.directory / "slow-dicesim"
        slow.write_text(f'#!/bin/sh\necho "[0:00:00] first line" >&2\nsleep 2\nexec "{BINARY}" "$@"\n')
        slow.chmod(0o755)
        arrivals = []

        class Timed(io.StringIO):
            def write(self, text):
                arrivals.append((time.monotonic(), text))
                return super().write(text)

        with mock.patch.dict(os.environ, {"DICESIM": str(slow)}), contextlib.redirect_stderr(Timed()):
            da.run(CONFIG, games=1000, output=self.directory / "r.h5", progress=True)
        finished = time.monotonic()
        first = [when for when, text in arrivals if "first line" in text]
        self.assertEqual(len(first), 1, arrivals)
        self.assertLess(first[0], finished - 1.5)

    def test_a_failure_raises_with_dicesims_one_line_message(self):
        bad = {**CONFIG, "strategies": [{"name": "x", "family": "no_such_family"}]}
        with self.assertRaises(da.DicesimError) as caught:
            da.run(bad, output=self.directory / "r.h5", progress=False)
        error = caught.exception
        self.assertEqual(error.exit_code, 2)
        self.assertIn("no_such_family", error.message)
        self.assertNotIn("\n", error.message)
        self.assertIn(error.message, str(error))
        self.assertFalse((self.directory / "r.h5").exists())

    def test_a_failed_check_raises_and_names_the_file_it_wrote(self):
        out = self.directory / "biased.h5"
        with self.assertRaises(da.DicesimError) as caught:
            da.run(CONFIG, games=2000, check=True, output=out, progress=False, extra=["--test-biased-die"])
        error = caught.exception
        self.assertEqual(error.exit_code, 1)
        self.assertRegex(error.message, r"^check: \d+ numbers compared with the exact solver, [1-9]\d* beyond")
        self.assertEqual(Path(error.results), out)
        self.assertFalse(da.load(error.results).checks["passed"].all())

    def test_the_binary_is_found_by_DICESIM_first(self):
        self.assertEqual(da.find_binary(), str(BINARY))
        # $DICESIM naming no executable is said, never silently another dicesim.
        text = self.directory / "not_executable"
        text.write_text("")
        for named in (self.directory / "missing", text):
            with mock.patch.dict(os.environ, {"DICESIM": str(named)}), self.assertRaises(da.DicesimError) as caught:
                da.find_binary()
            self.assertIn(f"$DICESIM names '{named}'", str(caught.exception))

    def test_solve_returns_the_text(self):
        text = da.solve("pig", "--dice", "1", "--turns", "2")
        self.assertIn("turns", text)
        with self.assertRaises(da.DicesimError) as caught:
            da.solve("no_such_game")
        self.assertIn("no_such_game", caught.exception.message)


class Files(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        with mock.patch.dict(os.environ, {"DICESIM": str(BINARY)}):
            cls.checked = da.run(CONFIG, games=2000, output=Path(cls.directory.name) / "c.h5", check=True,
                                 progress=False)
            cls.played = da.run(CONFIG, games=500, output=Path(cls.directory.name) / "r.h5", progress=False)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_the_repr_is_a_few_lines(self):
        text = repr(self.checked)
        self.assertLessEqual(len(text.splitlines()), 5, text)
        self.assertLess(len(text), 500, text)
        self.assertIn("sixers", text)
        self.assertIn("4 strategies", text)
        self.assertRegex(text, r"\d+ compared with the exact solver, 0 beyond")
        self.assertIn("checks: none", repr(self.played))

    def test_table_i_without_exact_results_says_so(self):
        names = ["dv(2,2)", "ts(5,5)"]
        with self.assertRaisesRegex(ValueError, "no exact results"):
            self.played.table_i(names, games=100_000)
        monte_carlo, exact = self.played.table_i(names)
        self.assertIsNone(exact)
        self.assertEqual(list(monte_carlo.index), names)
        _, exact = self.checked.table_i(names, games=100_000)
        self.assertIsNotNone(exact)

    def test_to_xarray_names_every_dimension_alike(self):
        sections = self.checked.to_xarray()
        self.assertLessEqual({"strategies", "summary", "distributions", "headtohead", "sequential", "nway",
                              "sequential_tables", "checks", "measure_score"}, set(sections))
        self.assertEqual(tuple(sections["strategies"].sizes), ("strategy",))
        self.assertEqual(tuple(sections["summary"].sizes), ("strategy",))
        self.assertEqual(tuple(sections["headtohead"].sizes), ("strategy", "opponent"))
        self.assertEqual(tuple(sections["nway"].sizes), ("table", "seat"))
        self.assertEqual(tuple(sections["distributions"].sizes), ("strategy", "score"))
        self.assertEqual(tuple(sections["measure_score"].sizes), ("strategy", "score"))
        names = list(self.checked.strategies["strategy"])
        for section in ("strategies", "summary", "distributions", "headtohead", "measure_score"):
            self.assertEqual(list(sections[section]["strategy"].values), names, section)  # not sorted by name
        self.assertEqual(list(sections["headtohead"]["opponent"].values), names)
        for dataset in sections.values():
            self.assertNotIn("names", dataset.dims)
            self.assertEqual(dataset.attrs["game"], "sixers")
        h = self.checked.headtohead
        row = h[(h["mode"] == "sequential")].iloc[1]
        cell = sections["sequential"]["win_rate"].sel(strategy=row["strategy"], opponent=row["opponent"])
        self.assertEqual(float(cell), row["win_rate"])
        self.assertEqual(int(sections["checks"].sizes["check"]), len(self.checked.checks))
        # Every histogram too: the pairs' per seat, the seated tables' per (table, seat).
        self.assertEqual(tuple(sections["headtohead_score"].sizes), ("strategy", "opponent", "seat", "score"))
        self.assertEqual(tuple(sections["nway_score"].sizes), ("table", "seat", "score"))
        nway = self.checked.nway.iloc[0]
        counts = sections["nway_score"]["count"].sel(table=nway["table"], seat=nway["seat"])
        self.assertEqual(int(counts.sum()), nway["games"])
        opened = da.open_xarray(self.checked.path)
        self.assertEqual(set(opened), set(sections))


class SweepBest(unittest.TestCase):
    def test_a_best_within_chance_is_marked_so(self):
        with tempfile.TemporaryDirectory() as directory, mock.patch.dict(os.environ, {"DICESIM": str(BINARY)}):
            close = da.run(sweep((18, 20, 22), 200), output=Path(directory) / "close.h5", progress=False)
            clear = da.run(sweep((2, 20, 80), 20000), output=Path(directory) / "clear.h5", progress=False)
        # hold18, hold20 and hold22 are within a few points of each other: 200 games cannot tell them apart.
        ax = da.plot_sweep(close, "at", opponent="turns2", family="hold_at")
        labels = ax.get_legend_handles_labels()[1]
        plt.close(ax.figure)
        self.assertTrue(any(label.startswith("best within chance of hold") for label in labels), labels)
        # Holding at 2 or at 80 is far worse than at 20: at 20,000 games the lead is no chance.
        ax = da.plot_sweep(clear, "at", opponent="turns2", family="hold_at")
        labels = ax.get_legend_handles_labels()[1]
        plt.close(ax.figure)
        self.assertFalse(any("within chance" in label for label in labels), labels)


    def test_a_map_says_when_its_best_is_within_chance(self):
        # Sixers, lowest mean wins: dv(1,2) and dv(2,2) differ by 0.14 points, which 300 games cannot tell.
        grid = [[a, b] for a in (1, 2) for b in (1, 2)]
        config = {"game": "sixers", "seed": 1, "games": 300, "contests": {"distributions": True},
                  "strategies": [{"name": f"dv{a}{b}", "family": "dice_value_threshold", "per_roll": [a, b]}
                                 for a, b in grid]}
        with tempfile.TemporaryDirectory() as directory, mock.patch.dict(os.environ, {"DICESIM": str(BINARY)}):
            results = da.run(config, output=Path(directory) / "grid.h5", progress=False)
        ax = da.plot_sweep_map(results, "per_roll_0", "per_roll_1")
        title = ax.get_title()
        plt.close(ax.figure)
        self.assertIn("within chance of dv", title)

if __name__ == "__main__":
    unittest.main()
