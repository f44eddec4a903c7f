import json
import math
import unittest

import h5py
import numpy as np

import tempfile

from common import CONFIG, ResultsFile, make_results
from dicesim_analysis import (load, mean_difference_z, plot_distributions, plot_headtohead, plot_mc_vs_exact,
                              plot_normal_probability, plot_win_counts, wilson_interval)


class LoadTest(ResultsFile, unittest.TestCase):
    def setUp(self):
        self.r = load(self.path)

    def test_meta_and_config(self):
        self.assertEqual(self.r.meta["format"], "dicesim-results")
        self.assertEqual(self.r.meta["format_version"][0], 1)
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
            names = [n.decode() for n in f["strategies/names"][()]]
            i, j = names.index("best"), names.index("aware")
            seat1 = f["sequential/score/counts"][i, j, 1]
            self.assertEqual(int(f["sequential/games"][i, j]), seat1.sum())
        self.assertEqual(list(pair[pair["seat"] == 1]["count"]), list(seat1))
        # Blind pairs are stored mirrored in the file; the long form holds each game once, seen from both seats.
        blind = m[(m["section"] == "headtohead") & (m["measure"] == "score")]
        with h5py.File(self.path) as f:
            games = f["headtohead/games"][()]
        for seat in (0, 1):
            self.assertEqual(blind[blind["seat"] == seat]["count"].sum(), games.sum() // 2)

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
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["dv(2,2)", "ts(5,5)", "best", "ties"])
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
        self.assertEqual(h2h["wins"].dims, ("strategy", "opponent"))
        with h5py.File(self.path) as f:
            names = [n.decode() for n in f["strategies/names"][()]]
            wins = f["headtohead/wins"][()]
        self.assertEqual([str(v) for v in h2h["strategy"].values], names)
        self.assertEqual(int(h2h["wins"].sel(strategy="ts(5,5)", opponent="best")), wins[1, 2])
        self.assertEqual(h2h["wins"].attrs["units"], "games")
        dist = xr.open_dataset(self.path, group="distributions/dv(2,2)", engine="h5netcdf")
        self.assertEqual(dist["counts"].dims, ("score",))
        self.assertEqual(list(dist["score"].values), list(range(37)))
        table = xr.open_dataset(self.path, group="nway/0", engine="h5netcdf")
        self.assertEqual(table["counts"].dims, ("seat", "score"))  # format 1.2; each seat's strategy beside it:
        self.assertEqual(list(table["counts"].coords["strategy"].values), ["dv(2,2)", "ts(5,5)", "best"])
        exact = xr.open_dataset(self.path, group="exact/headtohead", engine="h5netcdf")
        self.assertEqual(exact["win"].dims, ("strategy", "opponent"))


if __name__ == "__main__":
    unittest.main()


class TypedFramesAndBounds(unittest.TestCase):
    """Empty results still have their columns; a race has no P(least score);
    interval bounds stay inside [0, 1]."""

    def test_empty_sections_are_typed_frames_with_columns(self):
        with tempfile.TemporaryDirectory() as d:
            path = make_results(d, "run", {"game": "tenk", "games": 200,
                                    "strategies": [{"name": "a", "family": "ev_heuristic"},
                                                   {"name": "b", "family": "bank_at", "total": 500}],
                                    "contests": {"distributions": False, "sequential": True}})
            r = load(path)
            self.assertTrue(r.summary.empty)
            self.assertIn("mean", r.summary.columns)
            self.assertEqual(str(r.summary["games"].dtype), "int64")
            self.assertTrue(r.nway.empty)
            self.assertIn("win_rate", r.nway.columns)
            self.assertFalse(r.headtohead.empty)

    def test_only_games_the_lowest_score_wins_have_p_min(self):
        with tempfile.TemporaryDirectory() as d:
            race = load(make_results(d, "run", {"game": "pig", "games": 200,
                                         "strategies": [{"name": "h", "family": "hold_at", "at": 20}],
                                         "contests": {"distributions": True}}))
            self.assertNotIn("p_min", race.summary.columns)
            self.assertIn("p_min", load(make_results(d, "run", CONFIG)).summary.columns)

    def test_wilson_bounds_are_clipped_to_0_and_1(self):
        for k, n in ((0, 10), (10, 10), (0, 1), (1, 1)):
            low, high = wilson_interval(k, n)
            self.assertGreaterEqual(float(low), 0.0)
            self.assertLessEqual(float(high), 1.0)
        self.assertEqual(float(wilson_interval(0, 1000)[0]), 0.0)
