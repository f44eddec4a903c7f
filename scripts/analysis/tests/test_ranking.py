"""Rankings, best responses and sweep plots (dicesim_analysis.ranking)."""

import dataclasses
import math
import tempfile
import unittest
from pathlib import Path

import numpy as np
import pandas as pd

from common import make_results
from dicesim_analysis import (best_responses, load, lowest_means, plot_sweep, plot_sweep_map, plot_win_counts, rank,
                              rate_lead, scores_against, sweep_best, sweep_values)
from dicesim_analysis.load import SUMMARY_COLUMNS, Results, _frame
from dicesim_analysis.ranking import table_sweeps


def _results(pairs=(), summary=(), strategies=None, mode="sequential", lowest_score_wins=0):
    """A Results holding the given pair rows (strategy, opponent, games, wins, ties
    [, exact_win, exact_tie]) and summary rows (strategy, games, mean, sd)."""
    rows = []
    for pair in pairs:
        a, b, n, wins, ties = pair[:5]
        row = dict(mode=mode, strategy=a, opponent=b, games=n, wins=wins, ties=ties, losses=n - wins - ties)
        if len(pair) > 5:
            row.update(exact_win=pair[5], exact_tie=pair[6], exact_loss=1 - pair[5] - pair[6])
        rows.append(row)
    names = strategies or sorted({r["strategy"] for r in rows} | {r["opponent"] for r in rows} |
                                 {s[0] for s in summary})
    summary_rows = [dict(strategy=s, games=n, mean=m, sd=sd, ci_low=m - 1.96 * sd / math.sqrt(n),
                         ci_high=m + 1.96 * sd / math.sqrt(n)) for s, n, m, sd in summary]
    empty = pd.DataFrame()
    return Results(path="", meta={"lowest_score_wins": lowest_score_wins}, config={},
                   strategies=pd.DataFrame({"strategy": names, "spec": [{}] * len(names)}),
                   distributions=empty, summary=_frame(summary_rows, SUMMARY_COLUMNS),
                   headtohead=pd.DataFrame(rows), nway=empty, checks=empty)  # counts may be fractional


def _expected_pairs(strengths, games):
    """Every ordered pair with the counts the Bradley-Terry model expects
    (fractional): its maximum-likelihood fit is exactly `strengths`."""
    pairs = []
    for a, sa in strengths.items():
        for b, sb in strengths.items():
            if a != b:
                p = 1 / (1 + math.exp(-(sa - sb)))
                pairs.append((a, b, games, games * p, 0))
    return pairs


class BradleyTerryTest(unittest.TestCase):
    def test_expected_counts_give_back_the_strengths(self):
        strengths = {"a": 0.9, "b": 0.2, "c": -0.3, "d": -0.8}  # centred: they sum to 0
        ranked = rank(_results(_expected_pairs(strengths, 1000)))
        self.assertEqual(list(ranked["strategy"]), ["a", "b", "c", "d"])
        self.assertEqual(list(ranked["rank"]), [1, 2, 3, 4])
        np.testing.assert_allclose(ranked["strength"], list(strengths.values()), atol=1e-9)

    def test_two_strategies_have_the_binomial_interval_of_their_log_odds(self):
        # Strength difference d = logit(p) with variance 1 / (n p (1 - p)); each
        # centred strength is +-d/2 with a quarter of it.
        n, wins = 4000, 2600
        ranked = rank(_results([("a", "b", n, wins, 0)]))
        p = wins / n
        self.assertAlmostEqual(ranked["strength"].iloc[0], math.log(p / (1 - p)) / 2, places=10)
        self.assertAlmostEqual(ranked["se"].iloc[0], math.sqrt(1 / (n * p * (1 - p))) / 2, places=10)
        low, high = ranked["strength_low"].iloc[0], ranked["strength_high"].iloc[0]
        self.assertAlmostEqual((high - low) / 2, 1.959963984540054 * ranked["se"].iloc[0], places=12)

    def test_ties_count_half(self):
        ranked = rank(_results([("a", "b", 1000, 400, 200)]))
        self.assertAlmostEqual(ranked.set_index("strategy").at["a", "score_rate"], 0.5)
        self.assertAlmostEqual(ranked["strength"].abs().max(), 0.0, places=12)

    def test_strategies_that_never_meet_the_rest_cannot_be_ranked(self):
        with self.assertRaises(ValueError):
            rank(_results([("a", "b", 100, 60, 0), ("c", "d", 100, 60, 0)]))

    def test_a_rectangular_contest_ranks_through_the_common_opponents(self):
        strengths = {"x1": 0.5, "x2": -0.1, "o": 0.0, "x3": -0.4}
        pairs = [p for p in _expected_pairs(strengths, 500) if "o" in (p[0], p[1])]
        ranked = rank(_results(pairs))
        np.testing.assert_allclose(ranked.set_index("strategy")["strength"].reindex(["x1", "x2", "o", "x3"])
                                   - ranked["strength"].mean(), list(strengths.values()), atol=1e-9)


class BestResponseTest(unittest.TestCase):
    def test_a_lead_over_no_games_is_unknown(self):
        lead = rate_lead(0.5, 0, 0.4, 100)  # a table of an interrupted run
        self.assertTrue(math.isnan(lead["z"]))
        self.assertFalse(lead["beyond_chance"])

    def test_both_seats_count_and_the_margin_is_tested(self):
        # a vs o: 300 + 310 of 1000 as first and second seat; b: 270 + 280.
        r = _results([("a", "o", 500, 300, 0), ("o", "a", 500, 190, 0),
                      ("b", "o", 500, 270, 0), ("o", "b", 500, 220, 0)])
        best = best_responses(r).set_index("opponent").loc["o"]
        self.assertEqual((best["best"], best["runner_up"]), ("a", "b"))
        self.assertAlmostEqual(best["best_rate"], 0.61)
        self.assertAlmostEqual(best["runner_up_rate"], 0.55)
        se = math.sqrt(0.61 * 0.39 / 1000 + 0.55 * 0.45 / 1000)
        self.assertAlmostEqual(best["z"], 0.06 / se)
        self.assertTrue(best["beyond_chance"])  # z = 2.73

    def test_one_seat_at_a_time(self):
        # First seat: a wins 300 of 500, b 270. Second seat: a 310, b 330.
        r = _results([("a", "o", 500, 300, 0), ("o", "a", 500, 190, 0),
                      ("b", "o", 500, 270, 0), ("o", "b", 500, 170, 0)])
        first = best_responses(r, seat=0).set_index("opponent").loc["o"]
        second = best_responses(r, seat=1).set_index("opponent").loc["o"]
        self.assertEqual((first["best"], first["best_rate"]), ("a", 0.6))
        self.assertEqual((second["best"], second["best_rate"]), ("b", 0.66))
        with self.assertRaises(ValueError):
            scores_against(r, seat=2)

    def test_a_lead_within_chance_says_so(self):
        r = _results([("a", "o", 500, 260, 0), ("o", "a", 500, 240, 0),
                      ("b", "o", 500, 250, 0), ("o", "b", 500, 250, 0)])
        best = best_responses(r).set_index("opponent").loc["o"]
        self.assertEqual(best["best"], "a")
        self.assertFalse(best["beyond_chance"])  # 0.52 against 0.50 at 1000 games: z = 0.9
        self.assertLess(best["margin_low"], 0)

    def test_exact_rates_pool_like_the_counts(self):
        r = _results([("a", "o", 100, 60, 0, 0.6, 0.1), ("o", "a", 300, 100, 0, 0.3, 0.2)])
        a = scores_against(r).set_index(["strategy", "opponent"]).loc[("a", "o")]
        self.assertAlmostEqual(a["exact_rate"], (100 * (0.6 + 0.05) + 300 * (0.5 + 0.1)) / 400)

    def test_lowest_means_by_group(self):
        r = _results(summary=[("p", 10000, 20.0, 5.0), ("q", 10000, 20.1, 5.0), ("s", 10000, 25.0, 5.0)])
        lowest = lowest_means(r, {"pq": ["p", "q"], "qs": ["q", "s"]})
        self.assertEqual(list(lowest["best"]), ["p", "q"])
        self.assertFalse(lowest.at["pq", "beyond_chance"])  # 0.1 / 0.0707 = 1.41
        self.assertTrue(lowest.at["qs", "beyond_chance"])


class SweepOfARealRunTest(unittest.TestCase):
    """A Pig sweep of hold values in sequential play, checked (exact odds)."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        strategies = [{"name": f"hold{at}", "family": "hold_at", "at": at} for at in (10, 15, 20, 25, 30)]
        config = {"game": "pig", "seed": 3, "games": 4000, "strategies": strategies,
                  "contests": {"distributions": False, "sequential": True}}
        cls.r = load(make_results(cls.directory.name, "check", config))

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_parameters_are_columns(self):
        self.assertEqual(list(self.r.strategies["at"]), [10.0, 15.0, 20.0, 25.0, 30.0])
        self.assertEqual(set(self.r.strategies["family"]), {"hold_at"})

    def test_the_sweep_against_one_opponent_has_exact_values_within_chance(self):
        values = sweep_values(self.r, opponent="hold20")
        self.assertEqual(list(values["at"]), [10.0, 15.0, 25.0, 30.0])
        z = (values["value"] - values["exact"]) / np.sqrt(values["exact"] * (1 - values["exact"]) / 8000)
        self.assertLess(z.abs().max(), 5)
        self.assertTrue(((values["low"] <= values["value"]) & (values["value"] <= values["high"])).all())

    def test_plot_marks_the_best_and_draws_the_exact_curve(self):
        ax = plot_sweep(self.r, "at", opponent="hold20")
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        best = sweep_values(self.r, opponent="hold20").sort_values("value").iloc[-1]["strategy"]
        self.assertIn(f"best: {best}", labels)
        self.assertIn("exact", labels)

    def test_map_boxes_the_best_cell(self):
        strategies = self.r.strategies.assign(other=[1.0, 1.0, 2.0, 2.0, 2.0])
        r = dataclasses.replace(self.r, strategies=strategies)
        ax = plot_sweep_map(r, "at", "other", opponent="hold20")
        values = sweep_values(r, opponent="hold20")
        best = values.loc[values["value"].idxmax()]
        self.assertIn(f"at={best['at']:g}, other={best['other']:g}", ax.get_title())

    def test_ranking_agrees_with_the_score_rates(self):
        ranked = rank(self.r)
        self.assertEqual(len(ranked), 5)
        # Strengths and score rates order the strategies alike in a round robin.
        self.assertEqual(list(ranked["strategy"]), list(ranked.sort_values("score_rate", ascending=False)["strategy"]))



def three_seat_sweep(tables, games=3000, command="check"):
    """A Pig config: hold{at} (10 to 30) swept at tables of three beside two
    declared copies of hold at 20, h20a and h20b; `tables` the seatings."""
    return {"game": "pig", "seed": 5, "games": games,
            "strategies": [{"name": "hold{at}", "family": "hold_at", "at": [10, 15, 20, 25, 30]},
                           {"name": "h20a", "family": "hold_at", "at": 20},
                           {"name": "h20b", "family": "hold_at", "at": 20}],
            "contests": {"distributions": False, "sequential_tables": tables}}


class TableSweepTest(unittest.TestCase):
    """The three-seat question: seated second between two copies of one
    strategy, which hold value wins most? One config, `sweep_values`, the curve."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.path = make_results(cls.directory.name, "check", three_seat_sweep([["h20a", "hold{at}", "h20b"]]))
        cls.r = load(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_one_row_per_swept_total_with_interval_and_exact(self):
        values = sweep_values(self.r)  # one sweep at tables in the file: no opponent needed
        self.assertEqual(list(values["at"]), [10.0, 15.0, 20.0, 25.0, 30.0])
        self.assertEqual(set(values["seat"]), {1})
        self.assertEqual(set(values["opponent"]), {("h20a", "h20b")})
        t = self.r.nway.set_index(["table", "seat"])
        for row in values.itertuples():
            self.assertEqual(row.value, t.at[(row.table, 1), "wins"] / 3000)  # a shared win counts nothing
            self.assertTrue(row.low <= row.value <= row.high)
        z = (values["value"] - values["exact"]) / np.sqrt(values["exact"] * (1 - values["exact"]) / 3000)
        self.assertLess(z.abs().max(), 5)
        pd.testing.assert_frame_equal(values, sweep_values(self.r, opponent=("h20a", "h20b")))
        pd.testing.assert_frame_equal(values, sweep_values(self.r, opponent=["h20a", "h20b"], mode="sequential_tables"))

    def test_the_curve_marks_the_best_and_draws_the_exact_values(self):
        ax = plot_sweep(self.r, "at")
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        values = sweep_values(self.r)
        best = values.loc[values["value"].idxmax(), "strategy"]
        self.assertTrue(any(label.endswith(f": {best}") and "best" in label for label in labels), labels)
        self.assertIn("exact", labels)
        self.assertIn("seat 1", ax.get_title())
        best = sweep_best(values).iloc[0]
        self.assertEqual((best["seat"], best["best"]), (1, values.loc[values["value"].idxmax(), "strategy"]))
        self.assertEqual(best["exact_best"], values.loc[values["exact"].idxmax(), "strategy"])
        self.assertEqual(best["runner_up"], values.sort_values("value").iloc[-2]["strategy"])

    def test_a_file_of_tables_ranks_by_outright_wins(self):
        ranked = rank(self.r)
        self.assertEqual(list(ranked.columns[:3]), ["rank", "strategy", "win_rate"])
        self.assertEqual(ranked.set_index("strategy").at["h20a", "tables"], 5)
        self.assertAlmostEqual(ranked["fair_rate"].iloc[0], 1 / 3)
        self.assertTrue((ranked["win_rate"].diff().dropna() <= 0).all())
        with self.assertRaisesRegex(ValueError, "no pairs"):
            rank(self.r, mode="sequential")

    def test_what_is_not_there_is_a_value_error_naming_the_choices(self):
        for opponent in ("h20a", ("h20b", "h20a"), "nobody"):
            with self.assertRaisesRegex(ValueError, r"opponent=\('h20a', 'h20b'\), mode='sequential_tables'"):
                sweep_values(self.r, opponent=opponent)
        with self.assertRaisesRegex(ValueError, "no tables in nway"):
            sweep_values(self.r, mode="nway")
        with self.assertRaisesRegex(ValueError, "seat 0 is not swept"):
            sweep_values(self.r, seat=0)
        with self.assertRaisesRegex(ValueError, "mode must be one of"):
            sweep_values(self.r, mode="tables")

    def test_repeated_names_at_a_table_are_keyed_by_seat(self):
        # One strategy in two seats (["h20a", "hold{at}", "h20a"]), as dicesim plays it.
        config = three_seat_sweep([["h20a", "hold{at}", "h20a"]])
        r = load(make_results(Path(self.directory.name) / "repeated", "check", config))
        self.assertEqual(list(r.nway.query("table == 0")["strategy"]), ["h20a", "hold10", "h20a"])
        values = sweep_values(r, opponent="h20a")  # one name: every other seat is h20a
        pd.testing.assert_frame_equal(values, sweep_values(r, opponent=("h20a", "h20a")))
        self.assertEqual(set(values["opponent"]), {("h20a", "h20a")})
        self.assertTrue(values["exact"].notna().all())
        z = (values["value"] - values["exact"]) / np.sqrt(values["exact"] * (1 - values["exact"]) / values["games"])
        self.assertLess(z.abs().max(), 5)
        ranked = rank(r).set_index("strategy")
        self.assertEqual(ranked.at["h20a", "games"], 2 * 5 * 3000)  # both seats of every table
        labels = [t.get_text() for t in plot_win_counts(r, 0, "sequential_tables").get_xticklabels()]
        self.assertEqual(labels, ["0: h20a", "1: hold10", "2: h20a", "ties"])
        r.measures  # every seat's histograms, names repeated

    def test_head_starts_are_read_where_the_file_has_them(self):
        self.assertEqual(set(self.r.nway["head_start"]), {0})  # absent: all zeros
        tables = [["h20a", "hold{at}", "h20b"], [{"strategy": "h20a", "head_start": 10}, "hold{at}", "h20b"]]
        r = load(make_results(Path(self.directory.name) / "head_start", "run", three_seat_sweep(tables, games=300)))
        with_head_start = r.nway[r.nway["head_start"] > 0]
        self.assertEqual(set(with_head_start["seat"]), {0})
        self.assertEqual(set(with_head_start["head_start"]), {10})
        self.assertEqual(len(with_head_start), 5)  # seat 0 of each of the 5 tables with a head start
        # A head start makes another sweep: the two are told apart, not mixed.
        with self.assertRaisesRegex(ValueError, r"2 sweeps at tables.*head_starts=\(10, 0, 0\)"):
            sweep_values(r)
        self.assertEqual(list(table_sweeps(r)["head_starts"]), [(0, 0, 0), (10, 0, 0)])
        plain, ahead = sweep_values(r, head_starts=(0, 0, 0)), sweep_values(r, head_starts=(10, 0, 0))
        self.assertEqual(list(plain["at"]), [10, 15, 20, 25, 30])
        self.assertEqual(list(ahead["at"]), [10, 15, 20, 25, 30])
        self.assertEqual(set(ahead["table"]).isdisjoint(plain["table"]), True)  # each its own tables


class TableSweepChoicesTest(unittest.TestCase):
    """A file of several sweeps at tables: the same sweep in two seats against
    the same others, and against the others the other way round."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        tables = [["h20a", "hold{at}", "h20b"], ["hold{at}", "h20a", "h20b"], ["h20b", "hold{at}", "h20a"]]
        cls.r = load(make_results(cls.directory.name, "run", three_seat_sweep(tables, games=300)))

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_the_sweeps_are_listed(self):
        sweeps = table_sweeps(self.r)
        self.assertEqual(list(sweeps["opponent"]), [("h20a", "h20b"), ("h20b", "h20a")])
        self.assertEqual(list(sweeps["seats"]), [(0, 1), (1,)])
        self.assertEqual(list(sweeps["tables"]), [10, 5])

    def test_ambiguity_is_a_value_error_naming_each_choice(self):
        with self.assertRaises(ValueError) as caught:
            sweep_values(self.r)
        self.assertIn("2 sweeps at tables", str(caught.exception))
        self.assertIn("opponent=('h20a', 'h20b'), mode='sequential_tables' (swept seats 0, 1)", str(caught.exception))
        self.assertIn("opponent=('h20b', 'h20a'), mode='sequential_tables' (swept seat 1)", str(caught.exception))
        with self.assertRaisesRegex(ValueError, "pass seat="):
            other = self.r.strategies.assign(other=[1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0])
            plot_sweep_map(dataclasses.replace(self.r, strategies=other), "at", "other", opponent=("h20a", "h20b"))

    def test_each_swept_seat_is_a_curve(self):
        values = sweep_values(self.r, opponent=("h20a", "h20b"))
        self.assertEqual(list(values["seat"]), [0] * 5 + [1] * 5)
        self.assertEqual(list(values["at"]), [10.0, 15.0, 20.0, 25.0, 30.0] * 2)
        ax = plot_sweep(self.r, "at", opponent=("h20a", "h20b"))
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertIn("seat 0: Monte Carlo", labels)
        self.assertIn("seat 1: Monte Carlo", labels)
        self.assertEqual(sum("best" in label for label in labels), 2)  # each seat's best
        one = sweep_values(self.r, opponent=("h20a", "h20b"), seat=1)
        self.assertEqual(set(one["seat"]), {1})

    def test_the_pair_functions_say_where_the_tables_are(self):
        with self.assertRaisesRegex(ValueError, "results.nway"):
            scores_against(self.r)


if __name__ == "__main__":
    unittest.main()
