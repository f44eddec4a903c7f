"""Which strategy is best, and by how much: rankings with uncertainty and best
responses, from the head-to-head and sequential pairs of a results file.

`rank` fits a Bradley-Terry model to every pair a file played (round robin or
rectangular): strategy i beats j with probability
    p_ij = 1 / (1 + exp(-(s_i - s_j)))
a tie counting as half a win for each. The strengths s (log-odds units,
centred on their mean) are the maximum-likelihood fit, found by Newton's
method; their 95% intervals come from the inverse of the observed information
(the curvature of the log-likelihood) under the centring constraint. Only
differences of strengths mean anything, and a strength is only as certain as
the games that connect it to the others: strategies that never meet anyone
connected to the rest cannot be ranked and make `rank` raise.

`best_responses` answers the question a sweep asks of each opponent: which
strategy scores best against it (win rate plus half the tie rate), by how
much it leads the runner-up, and whether that lead is beyond chance (a z of
the difference of two independent binomial rates beyond 1.96). `lowest_means`
does the same for score distributions (the lowest mean, as in Sixers).
"""

import math

import numpy as np
import pandas as pd

from .load import Z95, wilson_interval

RANK_COLUMNS = {"rank": "int64", "strategy": object, "strength": "float64", "strength_low": "float64",
                "strength_high": "float64", "se": "float64", "games": "int64", "score_rate": "float64"}


def _pairs(results, mode):
    """The pairs of one mode (default: sequential if the file has it, else
    headtohead), each game counted once: a blind pair is stored both ways."""
    frame = results.headtohead
    if frame.empty or "mode" not in frame:
        # Not a KeyError deep in pandas: say what the file holds instead.
        raise ValueError("the file has no pairs (headtohead, sequential or against); the tables of three or more "
                         "seats (nway, sequential_tables) are in results.nway, one row per seat")
    if mode is None:
        modes = set(frame["mode"])
        mode = "sequential" if "sequential" in modes else "headtohead"
    pairs = frame[(frame["mode"] == mode) & (frame["strategy"] != frame["opponent"])]
    if mode == "headtohead":  # [i, j] mirrors [j, i]: keep one of each
        keep = [a < b for a, b in zip(pairs["strategy"], pairs["opponent"])]
        pairs = pairs[keep]
    return pairs, mode


def _connected(n, i, j):
    """Whether the graph on n nodes with edges (i[k], j[k]) is connected."""
    parent = list(range(n))

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in zip(i, j):
        parent[root(a)] = root(b)
    return len({root(x) for x in range(n)}) == 1


def _fit_bradley_terry(n, i, j, score, games, iterations=100):
    """Strengths (centred) and their covariance for comparisons i vs j, where i
    scored `score` (wins + ties/2) out of `games`."""
    s = np.zeros(n)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(s[i] - s[j])))
        residual = score - games * p
        gradient = np.bincount(i, residual, n) - np.bincount(j, residual, n)
        w = games * p * (1 - p)
        information = np.zeros((n, n))
        np.add.at(information, (i, i), w)
        np.add.at(information, (j, j), w)
        np.add.at(information, (i, j), -w)
        np.add.at(information, (j, i), -w)
        # The likelihood only sees differences: add the centring constraint
        # (sum of s = 0) as a rank-one term so the system is invertible.
        constrained = information + np.ones((n, n)) / n
        step = np.linalg.solve(constrained, gradient)
        s += step
        s -= s.mean()
        if np.max(np.abs(step)) < 1e-12:
            break
    covariance = np.linalg.inv(constrained) - np.ones((n, n)) / n
    return s, covariance


def rank(results, mode=None):
    """A ranking of the strategies by Bradley-Terry strength, strongest first.

    mode: "sequential" (both seats, the default when the file has it) or
    "headtohead". Columns: rank, strategy, strength (log-odds, centred),
    strength_low/high (95%), se, games (played in the fit) and score_rate
    (wins plus half the ties, over games). A strategy with no score at all
    against everyone has an infinite strength in theory; the fit stops where
    the likelihood is flat within rounding, so read its interval as open.
    """
    pairs, _ = _pairs(results, mode)
    names = sorted(set(pairs["strategy"]) | set(pairs["opponent"]), key=list(results.strategies["strategy"]).index)
    if len(names) < 2:
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in RANK_COLUMNS.items()})
    index = {name: k for k, name in enumerate(names)}
    i = pairs["strategy"].map(index).to_numpy()
    j = pairs["opponent"].map(index).to_numpy()
    games = pairs["games"].to_numpy(float)
    score = pairs["wins"].to_numpy(float) + pairs["ties"].to_numpy(float) / 2
    if not _connected(len(names), i, j):
        raise ValueError("the strategies do not all meet, directly or through others: no common ranking")
    strength, covariance = _fit_bradley_terry(len(names), i, j, score, games)
    se = np.sqrt(np.clip(np.diag(covariance), 0, None))
    played = np.bincount(i, games, len(names)) + np.bincount(j, games, len(names))
    scored = np.bincount(i, score, len(names)) + np.bincount(j, games - score, len(names))
    frame = pd.DataFrame({
        "strategy": names, "strength": strength, "strength_low": strength - Z95 * se,
        "strength_high": strength + Z95 * se, "se": se, "games": played.astype(np.int64),
        "score_rate": scored / played,
    }).sort_values("strength", ascending=False, kind="stable")
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    return frame.reset_index(drop=True).astype(RANK_COLUMNS)


BEST_COLUMNS = {"opponent": object, "best": object, "best_rate": "float64", "best_exact_rate": "float64",
                "runner_up": object,
                "runner_up_rate": "float64", "margin": "float64", "margin_low": "float64",
                "margin_high": "float64", "z": "float64", "beyond_chance": bool}


def scores_against(results, mode=None, seat=None):
    """Each strategy's games and score (wins plus half the ties) against each
    other strategy it met. In sequential play both seats count: the row's
    games as first seat, and the column's as second seat (the first seat's
    losses are its wins); seat=0 or 1 keeps only the games the strategy
    played in that seat. Columns: strategy, opponent, games, score, rate
    (score / games) with its 95% Wilson interval rate_low/high, and
    exact_rate where the file has exact odds (else NaN)."""
    pairs, mode = _pairs(results, mode)
    # The other side of each pair: the column strategy's games, as second seat
    # (sequential) or the mirror that _pairs dropped (blind).
    frames = [pairs.assign(score=pairs["wins"] + pairs["ties"] / 2),
              pairs.assign(score=pairs["losses"] + pairs["ties"] / 2)
              .rename(columns={"strategy": "opponent", "opponent": "strategy"})]
    # The exact score where the solver knows it, as a games-weighted sum so
    # that both seats pool like the counts do.
    exact = "exact_win" in pairs and pairs["exact_win"].notna().all() and len(pairs) > 0
    if exact:
        frames[0] = frames[0].assign(exact=pairs["games"] * (pairs["exact_win"] + pairs["exact_tie"] / 2))
        frames[1] = frames[1].assign(exact=pairs["games"] * (pairs["exact_loss"] + pairs["exact_tie"] / 2))
    if seat is not None:
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        frames = [frames[seat]]
    columns = ["strategy", "opponent", "games", "score"] + (["exact"] if exact else [])
    both = pd.concat(frames)[columns].groupby(["strategy", "opponent"], sort=False, as_index=False).sum()
    low, high = wilson_interval(both["score"].to_numpy(float), both["games"].to_numpy(float))
    both = both.assign(rate=both["score"] / both["games"], rate_low=low, rate_high=high,
                       exact_rate=both["exact"] / both["games"] if exact else np.nan)
    return both.drop(columns=["exact"], errors="ignore")


def best_responses(results, mode=None, candidates=None, seat=None):
    """Per opponent, the strategy that scores best against it (wins plus half
    the ties, both seats together in sequential play, or only in `seat` 0 or
    1), the runner-up, the margin between them with its 95% interval, its z
    and whether it is beyond chance (z > 1.96), and the best's exact rate
    where the file has exact odds. candidates: the strategies to choose from
    (default: every strategy that met the opponent)."""
    scores = scores_against(results, mode, seat)
    if candidates is not None:
        scores = scores[scores["strategy"].isin(list(candidates))]
    rows = []
    for opponent, group in scores.groupby("opponent", sort=False):
        if len(group) < 2:
            continue
        group = group.sort_values("rate", ascending=False, kind="stable")
        best, runner_up = group.iloc[0], group.iloc[1]
        margin = best["rate"] - runner_up["rate"]
        se = math.sqrt(best["rate"] * (1 - best["rate"]) / best["games"]
                       + runner_up["rate"] * (1 - runner_up["rate"]) / runner_up["games"])
        z = margin / se if se > 0 else (math.inf if margin > 0 else 0.0)
        rows.append(dict(opponent=opponent, best=best["strategy"], best_rate=best["rate"],
                         best_exact_rate=best["exact_rate"],
                         runner_up=runner_up["strategy"], runner_up_rate=runner_up["rate"], margin=margin,
                         margin_low=margin - Z95 * se, margin_high=margin + Z95 * se, z=z,
                         beyond_chance=bool(z > Z95)))
    return pd.DataFrame(rows, columns=list(BEST_COLUMNS)).astype(BEST_COLUMNS)


LOWEST_COLUMNS = {"best": object, "mean": "float64", "runner_up": object, "runner_up_mean": "float64",
                  "margin": "float64", "margin_low": "float64", "margin_high": "float64", "z": "float64",
                  "beyond_chance": bool}


def lowest_means(results, groups=None):
    """The strategy with the lowest mean score (Sixers: the lowest total wins),
    per group of strategies (groups: {label: [names]}, default one group of
    all), the runner-up, the margin with its 95% interval and whether it is
    beyond chance. A frame indexed by group label."""
    summary = results.summary.set_index("strategy")
    groups = groups or {"all": list(summary.index)}
    rows, labels = [], []
    for label, names in groups.items():
        s = summary.loc[list(names)].sort_values("mean", kind="stable")
        if len(s) < 2:
            continue
        a, b = s.iloc[0], s.iloc[1]
        se = math.sqrt(a["sd"] ** 2 / a["games"] + b["sd"] ** 2 / b["games"])
        margin = b["mean"] - a["mean"]
        z = margin / se if se > 0 else math.inf
        rows.append(dict(best=s.index[0], mean=a["mean"], runner_up=s.index[1], runner_up_mean=b["mean"],
                         margin=margin, margin_low=margin - Z95 * se, margin_high=margin + Z95 * se, z=z,
                         beyond_chance=bool(z > Z95)))
        labels.append(label)
    return pd.DataFrame(rows, columns=list(LOWEST_COLUMNS), index=pd.Index(labels, name="group")).astype(LOWEST_COLUMNS)


SWEEP_COLUMNS = ("value", "low", "high", "exact")


def sweep_values(results, opponent=None, mode=None):
    """One row per strategy: its parameters (results.strategies) and the figure
    a sweep compares, with its 95% interval and exact value. With an opponent:
    the score rate against it (wins plus half the ties, both seats in
    sequential play); without: the mean score (score distributions)."""
    if opponent is None:
        figures = results.summary.rename(columns={"mean": "value", "ci_low": "low", "ci_high": "high",
                                                  "exact_mean": "exact"})
    else:
        scores = scores_against(results, mode)
        figures = scores[scores["opponent"] == opponent].rename(
            columns={"rate": "value", "rate_low": "low", "rate_high": "high", "exact_rate": "exact"})
        if figures.empty:
            raise ValueError(f"no strategy met {opponent!r}")
    figures = figures[["strategy", *SWEEP_COLUMNS]]
    return results.strategies.drop(columns="spec").merge(figures, on="strategy")
