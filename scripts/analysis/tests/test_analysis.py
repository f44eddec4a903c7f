import json
import math
import shutil
import tempfile
import unittest
from pathlib import Path

import h5py
import numpy as np

from common import ResultsFile, make_results, pair_index
from dicesim_analysis.files import content_checksum
from dicesim_analysis import (load, mean_difference_z, plot_distributions, plot_headtohead, plot_mc_minus_exact,
                              plot_mc_vs_exact, plot_measure, plot_normal_probability, plot_win_counts,
                              wilson_interval)
from dicesim_analysis.load import Z95
from dicesim_analysis.plots import INTERVALS
from matplotlib.colors import to_rgba
from matplotlib.container import ErrorbarContainer


TENK_SEQUENTIAL_ONLY = {
    "game": "tenk", "seed": 5, "games": 300,
    "strategies": [{"name": "ev", "family": "ev_heuristic"}, {"name": "bank", "family": "bank_at", "total": 350}],
    "contests": {"distributions": False, "sequential": True},
}
PIG_DISTRIBUTIONS = {
    "game": "pig", "seed": 5, "games": 300,
    "strategies": [{"name": "hold20", "family": "hold_at", "at": 20}], "contests": {"distributions": True},
}
FRAMES = ("summary", "distributions", "headtohead", "nway", "measures", "checks")


class LoadTest(ResultsFile, unittest.TestCase):
    def setUp(self):
        self.r = load(self.path)

    def test_meta_and_config(self):
        self.assertEqual(self.r.meta["format"], "dicesim-results")
        self.assertEqual(self.r.meta["format_version"][0], 3)
        self.assertTrue(self.r.complete)
        self.assertEqual(self.r.config["games"], 20000)
        self.assertEqual(list(self.r.strategies["strategy"]), ["dv(2,2)", "ts(5,5)", "best", "aware"])

    def test_summary_matches_the_raw_histogram(self):
        with h5py.File(self.path) as f:
            counts = f["distributions/ts(5,5)/counts"][()]
            exact = f["exact/distributions/ts(5,5)/probability"][()]
        scores = np.arange(len(counts))
        mean = (scores * counts).sum() / counts.sum()
        sd = math.sqrt(((scores - mean) ** 2 * counts).sum() / (counts.sum() - 1))
        row = self.r.summary.set_index("strategy").loc["ts(5,5)"]
        self.assertAlmostEqual(row["mean"], mean, places=12)
        self.assertAlmostEqual(row["sd"], sd, places=12)
        self.assertAlmostEqual(row["ci_high"] - row["ci_low"], 2 * 1.959963984540054 * sd / math.sqrt(20000), places=10)
        self.assertAlmostEqual(row["exact_mean"], (scores * exact).sum(), places=12)
        self.assertLess(abs(row["z_mean"]), 5)
        d = self.r.distributions[self.r.distributions["strategy"] == "ts(5,5)"]
        self.assertEqual(d["count"].sum(), 20000)
        self.assertAlmostEqual(d["probability"].sum(), 1.0, places=12)
        self.assertAlmostEqual(d["exact_probability"].sum(), 1.0, places=12)

    def test_headtohead_rows_and_mirror(self):
        h = self.r.headtohead
        blind = h[h["mode"] == "headtohead"].set_index(["strategy", "opponent"])
        self.assertEqual(len(blind), 4 * 3)
        for (a, b), row in blind.iterrows():
            self.assertEqual(row["wins"] + row["ties"] + row["losses"], row["games"])
            self.assertEqual(row["wins"], blind.loc[(b, a), "losses"])
            self.assertLessEqual(row["win_low"], row["win_rate"])
            self.assertGreaterEqual(row["win_high"], row["win_rate"])
            self.assertEqual(row["seat_advantage"], 0.0)

    def test_seat_advantage_agrees_with_the_exact_solver(self):
        seq = self.r.headtohead[self.r.headtohead["mode"] == "sequential"].set_index(["strategy", "opponent"])
        for (a, b), row in seq.iterrows():
            reverse = seq.loc[(b, a)]
            exact = row["exact_win"] - reverse["exact_loss"]
            # The difference of two independent proportions: a z bound, not a tolerance.
            sd = math.sqrt(row["exact_win"] * (1 - row["exact_win"]) / row["games"]
                           + reverse["exact_loss"] * (1 - reverse["exact_loss"]) / reverse["games"])
            self.assertLess(abs(row["seat_advantage"] - exact) / sd, 5, (a, b))
            first, second = row["win_rate"], reverse["loss_rate"]
            estimated_sd = math.sqrt(first * (1 - first) / row["games"] + second * (1 - second) / reverse["games"])
            for bound, sign in (("seat_advantage_low", -1), ("seat_advantage_high", 1)):
                self.assertAlmostEqual(row[bound], row["seat_advantage"] + sign * Z95 * estimated_sd, places=12)
        # target_aware playing second sees the score to beat: best, first, loses ground.
        self.assertLess(seq.loc[("best", "aware"), "exact_win"], seq.loc[("best", "aware"), "exact_loss"])

    def test_z_scores_are_the_ones_dicesim_check_computed(self):
        checks = self.r.checks.set_index("name")["z"]
        names = list(self.r.strategies["strategy"])
        for _, row in self.r.headtohead.iterrows():
            i, j = names.index(row["strategy"]), names.index(row["opponent"])
            if row["mode"] == "headtohead":
                key = "independent" + json.dumps([names[min(i, j)], names[max(i, j)]], separators=(",", ":"))
            else:
                key = "sequential" + json.dumps([row["strategy"], row["opponent"]], separators=(",", ":"))
            self.assertAlmostEqual(row["z_win"], checks[f"{key}/win/{row['strategy']}"], places=9)
        for _, row in self.r.nway.iterrows():
            seats = list(self.r.nway[(self.r.nway["section"] == row["section"]) & (self.r.nway["table"] == row["table"])]["strategy"])
            key = ("sequential" if row["section"] == "sequential_tables" else "independent") + json.dumps(seats, separators=(",", ":"))
            self.assertAlmostEqual(row["z_win"], checks[f"{key}/win/{row['strategy']}"], places=9)
        for _, row in self.r.summary.iterrows():
            key = "independent" + json.dumps([row["strategy"]], separators=(",", ":"))
            self.assertAlmostEqual(row["z_mean"], checks[f"{key}/{row['strategy']}/mean"], places=9)

    def test_wilson_intervals_come_from_the_right_counts(self):
        for _, row in self.r.headtohead.iterrows():
            for outcome, count in (("win", "wins"), ("tie", "ties"), ("loss", "losses")):
                low, high = wilson_interval(row[count], row["games"])
                self.assertAlmostEqual(row[f"{outcome}_low"], float(low), places=12)
                self.assertAlmostEqual(row[f"{outcome}_high"], float(high), places=12)
        for _, row in self.r.nway.iterrows():
            low, high = wilson_interval(row["wins"], row["games"])
            self.assertAlmostEqual(row["win_low"], float(low), places=12)
            self.assertAlmostEqual(row["win_high"], float(high), places=12)
            low, high = wilson_interval(row["tie_games"], row["games"])
            self.assertAlmostEqual(row["tie_low"], float(low), places=12)

    def test_tables(self):
        t = self.r.nway
        four = t[(t["section"] == "nway") & (t["table"] == 0)]
        self.assertEqual(list(four["strategy"]), ["dv(2,2)", "ts(5,5)", "best"])
        self.assertEqual(four["wins"].sum() + four["tie_games"].iloc[0], 20000)
        self.assertAlmostEqual(four["exact_win"].sum() + four["exact_tie"].iloc[0], 1.0, places=12)
        seq = t[t["section"] == "sequential_tables"]
        self.assertEqual(list(seq["strategy"]), ["best", "dv(2,2)", "aware"])

    def test_measures_long_form_matches_the_histograms(self):
        m = self.r.measures
        self.assertEqual(set(m["measure"]), {"score"})  # Sixers records the score only
        seq = m[(m["section"] == "sequential_tables") & (m["table"] == 0)]
        self.assertEqual(list(seq.drop_duplicates("seat")["strategy"]), ["best", "dv(2,2)", "aware"])
        with h5py.File(self.path) as f:
            counts = f["sequential_tables/0/counts"][()]
            exact = f["exact/sequential_tables/0/probability"][()]
        for seat in range(3):
            rows = seq[seq["seat"] == seat]
            self.assertEqual(list(rows["count"]), list(counts[seat]))
            self.assertEqual(list(rows["exact_probability"]), list(exact[seat]))
        dist = m[(m["section"] == "distributions") & (m["strategy"] == "ts(5,5)")]
        self.assertEqual(list(dist["count"]), list(self.r.distributions.query("strategy == 'ts(5,5)'")["count"]))
        # Pairs: seat 1 of (best, aware) in sequential play is aware against best.
        pair = m[(m["section"] == "sequential") & (m["strategy"] == "aware") & (m["opponent"] == "best")]
        with h5py.File(self.path) as f:
            k = pair_index(f, "sequential", "best", "aware")
            seat1 = f["sequential/score/counts"][k, 1]
            self.assertEqual(int(f["sequential/games"][k]), seat1.sum())
        self.assertEqual(list(pair[pair["seat"] == 1]["count"]), list(seat1))
        # Blind pairs are stored once in the file, as is each game in the long form, seen from both seats.
        blind = m[(m["section"] == "headtohead") & (m["measure"] == "score")]
        with h5py.File(self.path) as f:
            games = f["headtohead/games"][()]
        for seat in (0, 1):
            self.assertEqual(blind[blind["seat"] == seat]["count"].sum(), games.sum())

    def test_checks(self):
        c = self.r.checks
        self.assertGreater(len(c), 50)
        self.assertTrue(c["passed"].all())
        self.assertEqual(set(c["kind"]), {"mean", "chi_square", "win_rate", "tie_rate"})

    def test_table_i_uses_the_papers_statistic(self):
        mc, exact = self.r.table_i(["dv(2,2)", "best"], games=100000)
        s = self.r.summary.set_index("strategy")
        expected = (s.at["dv(2,2)", "exact_mean"] - s.at["best", "exact_mean"]) / math.sqrt(
            (s.at["dv(2,2)", "exact_sd"] ** 2 + s.at["best", "exact_sd"] ** 2) / 100000)
        self.assertAlmostEqual(exact.loc["dv(2,2)", "best"], expected, places=10)
        # The Monte Carlo z uses the games each strategy played, whatever `games` says.
        played = (s.at["dv(2,2)", "mean"] - s.at["best", "mean"]) / math.sqrt(
            s.at["dv(2,2)", "sd"] ** 2 / s.at["dv(2,2)", "games"] + s.at["best", "sd"] ** 2 / s.at["best", "games"])
        self.assertAlmostEqual(mc.loc["dv(2,2)", "best"], played, places=10)
        self.assertAlmostEqual(mc.loc["best", "dv(2,2)"], -played, places=10)


class HelpersTest(unittest.TestCase):
    def test_wilson_interval_textbook_case(self):
        low, high = wilson_interval(5, 10)  # Wilson (1927); Newcombe (1998), 5/10: 0.2366 to 0.7634
        self.assertAlmostEqual(float(low), 0.2366, places=4)
        self.assertAlmostEqual(float(high), 0.7634, places=4)
        low, high = wilson_interval(0, 20)
        self.assertEqual(float(low), 0.0)
        self.assertGreater(float(high), 0.0)

    def test_mean_difference_z(self):
        self.assertAlmostEqual(mean_difference_z(10.0, 3.0, 100, 9.0, 4.0, 100), 1.0 / math.sqrt(25 / 100), places=12)
        self.assertAlmostEqual(mean_difference_z(10.0, 3.0, 900, 9.0, 4.0, 400), 1.0 / math.sqrt(9 / 900 + 16 / 400),
                               places=12)
        self.assertTrue(math.isnan(mean_difference_z(float("nan"), 3.0, 0, 9.0, 4.0, 100)))

    def test_refuses_a_foreign_file(self):
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".h5") as handle:
            with h5py.File(handle.name, "w") as f:
                f.attrs["format"] = "something-else"
            with self.assertRaises(ValueError):
                load(handle.name)


class PlotsTest(ResultsFile, unittest.TestCase):
    def setUp(self):
        self.r = load(self.path)

    def test_each_plot_draws_labelled_axes(self):
        ax = plot_distributions(self.r, ["dv(2,2)", "best"])
        self.assertEqual(len(ax.patches), 2 * 37)
        self.assertIn("exact", [t.get_text() for t in ax.get_legend().get_texts()])
        ax = plot_normal_probability(self.r, "dv(2,2)")
        self.assertIn("dv(2,2)", ax.get_title())
        ax = plot_win_counts(self.r, table=0)
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["0: dv(2,2)", "1: ts(5,5)", "2: best", "ties"])
        ax = plot_win_counts(self.r, pair=("dv(2,2)", "best"))
        self.assertEqual(sorted(p.get_height() for p in ax.patches),
                         sorted(self.r.headtohead.query("mode == 'headtohead' and strategy == 'dv(2,2)' and opponent == 'best'")[
                             ["wins", "losses", "ties"]].iloc[0].tolist()))
        ax = plot_headtohead(self.r)
        self.assertEqual([t.get_text() for t in ax.get_yticklabels()], list(self.r.strategies["strategy"]))
        ax = plot_headtohead(self.r, mode="sequential", value="seat_advantage")
        low, high = ax.images[0].get_clim()
        self.assertAlmostEqual(low, -high)  # signed values: a scale centred on 0, nothing clipped
        self.assertGreaterEqual(high, self.r.headtohead["seat_advantage"].abs().max())
        ax = plot_mc_vs_exact(self.r)
        self.assertIn(f"{len(self.r.checks)} numbers", ax.get_title())


def _error_bar_spans(ax, which=0):
    """(low, high) of each bar of the Axes' `which`-th set of error bars, along its one axis."""
    container = [c for c in ax.containers if isinstance(c, ErrorbarContainer)][which]
    segments = container.lines[2][0].get_segments()
    return [(min(s[0][k], s[1][k]), max(s[0][k], s[1][k])) for s in segments
            for k in [0 if s[0][1] == s[1][1] else 1]]


class ErrorBarsTest(ResultsFile, unittest.TestCase):
    """Every estimated number a plot shows carries its 95% interval."""

    def setUp(self):
        self.r = load(self.path)

    def test_score_distribution_bars_have_wilson_intervals(self):
        ax = plot_distributions(self.r, ["dv(2,2)"])
        d = self.r.distributions.query("strategy == 'dv(2,2)'")
        low, high = wilson_interval(d["count"], d["count"].sum())
        spans = _error_bar_spans(ax)
        np.testing.assert_allclose([s[0] for s in spans], low, atol=1e-12)
        np.testing.assert_allclose([s[1] for s in spans], high, atol=1e-12)

    def test_win_counts_have_wilson_intervals(self):
        ax = plot_win_counts(self.r, table=0)
        t = self.r.nway.query("section == 'nway' and table == 0")
        games = t["games"].iloc[0]
        spans = _error_bar_spans(ax)
        np.testing.assert_allclose([s[0] for s in spans[:-1]], t["win_low"] * games)
        np.testing.assert_allclose([s[1] for s in spans[:-1]], t["win_high"] * games)
        np.testing.assert_allclose(spans[-1], np.array(wilson_interval(t["tie_games"].iloc[0], games)) * games)

    def test_mc_minus_exact_shows_each_interval_around_the_difference(self):
        ax = plot_mc_minus_exact(self.r, "nway")
        t = self.r.nway.query("section == 'nway'")
        spans = _error_bar_spans(ax)
        np.testing.assert_allclose([s[0] for s in spans], t["win_low"] - t["exact_win"], atol=1e-12)
        np.testing.assert_allclose([s[1] for s in spans], t["win_high"] - t["exact_win"], atol=1e-12)
        ax = plot_mc_minus_exact(self.r, "distributions")
        self.assertEqual([t.get_text() for t in ax.get_yticklabels()], list(self.r.summary["strategy"]))

    def test_heat_map_cells_show_the_half_width_and_fit_their_cells(self):
        for mode, value in (("headtohead", "win_rate"), ("sequential", "seat_advantage")):
            ax = plot_headtohead(self.r, mode=mode, value=value)
            h = self.r.headtohead.query("mode == @mode").set_index(["strategy", "opponent"])
            names = list(self.r.strategies["strategy"])
            ax.figure.canvas.draw()
            renderer = ax.figure.canvas.get_renderer()
            self.assertEqual(len(ax.texts), len(h))
            for text in ax.texts:
                j, i = (round(c) for c in text.get_position())
                low, high = INTERVALS[value]
                row = h.loc[(names[i], names[j])]
                self.assertEqual(text.get_text(), f"{row[value]:.3f}\n±{(row[high] - row[low]) / 2:.3f}")
                self.assertGreaterEqual(text.get_fontsize(), 9)
                cell = ax.transData.transform([(j - 0.5, i - 0.5), (j + 0.5, i + 0.5)])
                box = text.get_window_extent(renderer)
                self.assertTrue(cell[:, 0].min() <= box.x0 and box.x1 <= cell[:, 0].max(), text.get_text())
                self.assertTrue(cell[:, 1].min() <= box.y0 and box.y1 <= cell[:, 1].max(), text.get_text())
                background = ax.images[0].cmap(ax.images[0].norm(row[value]))
                self.assertGreater(abs(_luminance(background) - _luminance(to_rgba(text.get_color()))), 0.4)


def _luminance(rgba):
    return 0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]


class MeasurePlotsTest(unittest.TestCase):
    """The histograms of turns, turn score, first turn and place, with bands."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        config = dict(TENK_SEQUENTIAL_ONLY, contests={"distributions": False, "sequential": True,
                                                      "sequential_tables": [["ev", "bank"]]})
        cls.r = load(make_results(cls.directory.name, "check", config))

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_every_measure_draws_each_seat_with_its_interval(self):
        self.assertEqual(sorted(self.r.measures["measure"].unique()),
                         ["first_turn", "place", "score", "turn_score", "turns"])
        for measure in ("turns", "turn_score", "first_turn", "place"):
            ax = plot_measure(self.r, measure, "sequential_tables", table=0)
            labels = [t.get_text() for t in ax.get_legend().get_texts()]
            self.assertLessEqual({"seat 0: ev", "seat 1: bank"}, set(labels), measure)
            intervals = len(ax.collections)  # a band per seat, or the bars of points
            self.assertGreaterEqual(intervals, 2, measure)
            self.assertIn(measure, ax.get_title())
        ax = plot_measure(self.r, "place", "sequential_tables", table=0)
        places = self.r.measures.query("measure == 'place' and section == 'sequential_tables' and seat == 0")
        places = places[places["count"] > 0]  # the plot shows the places that occur (2 of 8 bins here)
        spans = _error_bar_spans(ax)
        low, high = wilson_interval(places["count"], places["count"].sum())
        np.testing.assert_allclose([s[0] for s in spans], low, atol=1e-12)
        np.testing.assert_allclose([s[1] for s in spans], high, atol=1e-12)
        self.assertIn("exact", [t.get_text() for t in ax.get_legend().get_texts()])

    def test_pair_sections_pool_each_strategy(self):
        ax = plot_measure(self.r, "turns", "sequential")
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()], ["ev", "bank"])
        self.assertIn("pooled", ax.get_title())


class GenericToolsTest(ResultsFile, unittest.TestCase):
    """Labelled axes that xarray and h5netcdf read with no project code."""

    def test_every_group_opens_with_named_axes(self):
        import xarray as xr
        groups = []
        with h5py.File(self.path) as f:
            f.visititems(lambda name, obj: groups.append(name) if isinstance(obj, h5py.Group) and any(
                isinstance(v, h5py.Dataset) for v in obj.values()) and not name.startswith("engine") else None)
        self.assertGreater(len(groups), 15)
        for group in groups:
            ds = xr.open_dataset(self.path, group=group, engine="h5netcdf")
            for name, variable in ds.data_vars.items():
                for dim in variable.dims:
                    self.assertFalse(dim.startswith("phony"), f"{group}/{name}")
                    self.assertIn(dim, ds.coords, f"{group}/{name}")

    def test_every_data_set_is_described(self):
        problems = []

        def visit(name, obj):
            if not isinstance(obj, h5py.Dataset):
                return
            if "description" not in obj.attrs:
                problems.append(f"{name}: no description")
            if obj.dtype.kind in "iuf" and "units" not in obj.attrs:
                problems.append(f"{name}: no units")

        with h5py.File(self.path) as f:
            f.visititems(visit)
        self.assertEqual(problems, [])

    def test_xarray_sees_names_and_scores_on_the_axes(self):
        import xarray as xr
        h2h = xr.open_dataset(self.path, group="headtohead", engine="h5netcdf")
        self.assertEqual(h2h["wins"].dims, ("pair",))
        self.assertEqual(set(h2h["wins"].coords), {"pair", "strategy", "opponent"})
        with h5py.File(self.path) as f:
            k = pair_index(f, "headtohead", "ts(5,5)", "best")
            wins = f["headtohead/wins"][()]
        cell = h2h["wins"].where((h2h["strategy"] == "ts(5,5)") & (h2h["opponent"] == "best"), drop=True)
        self.assertEqual(int(cell), wins[k])
        self.assertEqual(h2h["wins"].attrs["units"], "games")
        dist = xr.open_dataset(self.path, group="distributions/dv(2,2)", engine="h5netcdf")
        self.assertEqual(dist["counts"].dims, ("score",))
        self.assertEqual(list(dist["score"].values), list(range(37)))
        table = xr.open_dataset(self.path, group="nway/0", engine="h5netcdf")
        self.assertEqual(table["counts"].dims, ("seat", "score"))  # format 1.2; each seat's strategy beside it:
        self.assertEqual(list(table["counts"].coords["strategy"].values), ["dv(2,2)", "ts(5,5)", "best"])
        exact = xr.open_dataset(self.path, group="exact/headtohead", engine="h5netcdf")
        self.assertEqual(exact["win"].dims, ("pair",))



class EmptyAndRaceFramesTest(ResultsFile, unittest.TestCase):
    """Sections a file lacks are typed frames with their columns; races have no
    P(least score). ResultsFile's Sixers check file has every section."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.full = load(cls.path)
        cls.tenk = load(make_results(Path(cls.directory.name) / "tenk", "run", TENK_SEQUENTIAL_ONLY))
        cls.pig_path = make_results(Path(cls.directory.name) / "pig", "run", PIG_DISTRIBUTIONS)

    def test_sections_without_rows_have_the_columns_and_types_of_full_ones(self):
        empty = [name for name in FRAMES if getattr(self.tenk, name).empty]
        self.assertEqual(empty, ["summary", "distributions", "nway", "checks"])
        for name in FRAMES:
            frame, full = getattr(self.tenk, name), getattr(self.full, name)
            self.assertFalse(full.empty, name)
            if name == "summary":  # the one column a race lacks
                full = full.drop(columns=["p_min", "p_min_low", "p_min_high"])
            # (categoricals differ in their categories: compare the kinds)
            self.assertEqual({c: str(t) for c, t in frame.dtypes.items()},
                             {c: str(t) for c, t in full.dtypes.items()}, name)

    def test_only_games_the_lowest_score_wins_have_p_min(self):
        self.assertIn("p_min", self.full.summary.columns)
        self.assertNotIn("p_min", self.tenk.summary.columns)
        pig = load(self.pig_path).summary
        self.assertEqual(list(pig["strategy"]), ["hold20"])
        self.assertNotIn("p_min", pig.columns)

    def test_files_before_the_attribute_know_races_by_their_game(self):
        for source, has_p_min in ((self.pig_path, False), (self.path, True)):
            old = Path(self.directory.name) / "old.h5"
            shutil.copy(source, old)
            with h5py.File(old, "r+") as f:  # as written before the attribute, the checksum made to match
                del f.attrs["lowest_score_wins"]
                f.attrs["content_sha256"] = np.bytes_(content_checksum(f))
            self.assertEqual("p_min" in load(old).summary.columns, has_p_min, source)


class WilsonBoundsTest(unittest.TestCase):
    def test_no_successes_or_no_failures_give_exact_bounds(self):
        for n in (1, 7, 1000, 10**9):
            self.assertEqual(float(wilson_interval(0, n)[0]), 0.0, n)
            self.assertEqual(float(wilson_interval(n, n)[1]), 1.0, n)

    def test_every_bound_lies_in_0_1(self):
        for n in list(range(1, 300)) + [10**9, 10**12]:  # unclipped, some fall below 0 by rounding
            k = np.arange(n + 1) if n < 300 else np.array([0, 1, n - 1, n])
            low, high = wilson_interval(k, np.full(len(k), n))
            self.assertTrue(((0 <= low) & (low <= high) & (high <= 1)).all(), n)

    def test_no_trials_give_no_interval(self):
        self.assertTrue(np.isnan(wilson_interval(0, 0)).all())


if __name__ == "__main__":
    unittest.main()
