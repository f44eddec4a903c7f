"""Rankings, best responses and sweep plots (dicesim_analysis.ranking)."""

import dataclasses
import math
import tempfile
import unittest

import numpy as np
import pandas as pd

from common import make_results
from dicesim_analysis import (best_responses, load, lowest_means, plot_sweep, plot_sweep_map, rank, scores_against,
                              sweep_values)
from dicesim_analysis.load import SUMMARY_COLUMNS, Results, _frame


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


if __name__ == "__main__":
    unittest.main()
