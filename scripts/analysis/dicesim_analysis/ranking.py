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

At tables of three or more seats (the file's `nway` and `sequential_tables`,
results.nway) there are no pairs to fit: `rank` there ranks by each
strategy's rate of outright wins over every seat it played (see
`rank_at_tables`), and `sweep_values` reads a sweep seat by seat (see
`table_sweeps`).

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

    A file of tables only (three seats or more: no pairs to fit), or mode
    "nway" or "sequential_tables", gives rank_at_tables' ranking instead.
    """
    if _tables_wanted(results, mode):
        return rank_at_tables(results, mode)
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


def rate_lead(rate, games, runner_up_rate, runner_up_games):
    """How far one rate leads another, as best_responses and plot_sweep test
    it: the margin, its 95% interval and z (the difference of two
    independent binomial rates), and whether it is beyond chance (z > 1.96)."""
    margin = rate - runner_up_rate
    if not games or not runner_up_games:  # a table of an interrupted run may hold no game: nothing is known
        return dict(margin=math.nan, margin_low=math.nan, margin_high=math.nan, z=math.nan, beyond_chance=False)
    se = math.sqrt(rate * (1 - rate) / games + runner_up_rate * (1 - runner_up_rate) / runner_up_games)
    z = margin / se if se > 0 else (math.inf if margin > 0 else 0.0)
    return dict(margin=margin, margin_low=margin - Z95 * se, margin_high=margin + Z95 * se, z=z,
                beyond_chance=bool(z > Z95))


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
        lead = rate_lead(best["rate"], best["games"], runner_up["rate"], runner_up["games"])
        rows.append(dict(opponent=opponent, best=best["strategy"], best_rate=best["rate"],
                         best_exact_rate=best["exact_rate"], runner_up=runner_up["strategy"],
                         runner_up_rate=runner_up["rate"], **lead))
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
PAIR_MODES = ("headtohead", "sequential")
TABLE_SECTIONS = ("nway", "sequential_tables")
# Columns a sweep at tables adds to the strategy's parameters, before SWEEP_COLUMNS.
TABLE_SWEEP_COLUMNS = ("section", "seat", "opponent", "table", "games", "wins", "tied", "shared_rate")


def _tables_wanted(results, mode):
    """Whether `mode` means the tables of three or more (results.nway): named,
    or left out in a file that has tables and no pairs."""
    if mode is not None and mode not in PAIR_MODES + TABLE_SECTIONS:
        raise ValueError(f"mode must be one of {', '.join(PAIR_MODES + TABLE_SECTIONS)} or None, not {mode!r}")
    if mode is None:
        return results.headtohead.empty and not results.nway.empty
    return mode in TABLE_SECTIONS


def _tables_of(results, mode):
    """results.nway's rows of one table section (None: both), or a
    ValueError saying which sections the file has."""
    tables = results.nway
    if mode is not None:
        tables = tables[tables["section"] == mode]
    if tables.empty:
        held = sorted(set(results.nway["section"])) if not results.nway.empty else []
        raise ValueError(f"the file has no tables{f' in {mode}' if mode else ''} "
                         f"(its table sections: {', '.join(held) or 'none'})")
    return tables


RANK_AT_TABLES_COLUMNS = {"rank": "int64", "strategy": object, "win_rate": "float64", "win_low": "float64",
                          "win_high": "float64", "fair_rate": "float64", "shared_rate": "float64",
                          "games": "int64", "wins": "int64", "tied": "int64", "tables": "int64"}


def rank_at_tables(results, mode=None):
    """The strategies ranked by their rate of outright wins over every seat
    they played at the tables of `mode` ("nway", "sequential_tables"; None:
    both), best first. A shared win counts nothing here (the exact solver
    gives each seat's P(win alone) only); shared_rate is beside it. Columns:
    rank, strategy, win_rate with its 95% Wilson interval win_low/high,
    fair_rate (the rate an equal player would win at the same tables: the
    mean of 1/seats over its games, ignoring shared wins), shared_rate,
    games (seat-games), wins, tied, tables. Strategies that sat at tables of
    other sizes or company are not compared on equal terms: read the win
    rate against fair_rate, and use sweep_values for like against like."""
    tables = _tables_of(results, mode)
    seats = tables.groupby(["section", "table"])["seat"].transform("size")
    pooled = tables.assign(fair=tables["games"] / seats, key=tables["section"] + "/" + tables["table"].astype(str))
    pooled = pooled.groupby("strategy", sort=False).agg(games=("games", "sum"), wins=("wins", "sum"),
                                                         tied=("tied", "sum"), fair=("fair", "sum"),
                                                         tables=("key", "nunique")).reset_index()
    low, high = wilson_interval(pooled["wins"], pooled["games"])
    pooled = pooled.assign(win_rate=pooled["wins"] / pooled["games"], win_low=low, win_high=high,
                           fair_rate=pooled["fair"] / pooled["games"],
                           shared_rate=pooled["tied"] / pooled["games"])
    pooled = pooled.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    pooled.insert(0, "rank", np.arange(1, len(pooled) + 1))
    return pooled[list(RANK_AT_TABLES_COLUMNS)].astype(RANK_AT_TABLES_COLUMNS)


def _with_companions(tables):
    """results.nway's rows with `opponent`: the strategies in the other seats
    of the row's table, in seating order (a tuple; names may repeat), and
    `starts`, every seat's head start (a tuple), so that a sweep compares
    only tables that differ in the swept seat."""
    seating = tables.groupby(["section", "table"], sort=False)["strategy"].agg(tuple)
    starts = (tables.groupby(["section", "table"], sort=False)["head_start"].agg(tuple) if "head_start" in tables
              else pd.Series(dtype=object))
    keys = list(zip(tables["section"], tables["table"]))
    others = [seating[key][:seat] + seating[key][seat + 1:] for key, seat in zip(keys, tables["seat"])]
    return tables.assign(opponent=others, starts=[starts.get(key, ()) for key in keys])


def _swept_rows(tables):
    """The rows whose seat is swept: a seat whose strategy changes from table
    to table while the other seats (and every head start) stay the same."""
    tables = _with_companions(tables)
    strategies = tables.groupby(["section", "seat", "opponent", "starts"], sort=False)["strategy"].transform("nunique")
    return tables[strategies >= 2]


def table_sweeps(results, mode=None):
    """The sweeps at tables a file holds: one row per table section and
    opponent (the other seats' strategies, in seating order, as a tuple)
    where some seat's strategy changes from table to table while the other
    seats stay. Columns: section, opponent, head_starts (every seat's head
    start, a tuple: tables that differ in them are different sweeps), seats
    (the swept seats, a tuple), strategies (how many sit in them), tables.
    The opponents and head starts are what sweep_values(results,
    opponent=..., head_starts=...) and plot_sweep take."""
    columns = ["section", "opponent", "head_starts", "seats", "strategies", "tables"]
    if results.nway.empty:
        return pd.DataFrame(columns=columns)
    rows = _swept_rows(_tables_of(results, mode))
    groups = rows.groupby(["section", "opponent", "starts"], sort=False)
    return pd.DataFrame([dict(section=section, opponent=opponent, head_starts=starts,
                              seats=tuple(sorted(set(g["seat"]))), strategies=g["strategy"].nunique(), tables=len(g))
                         for (section, opponent, starts), g in groups], columns=columns)


def _matches(others, opponent):
    """Whether a row's other seats are what `opponent` describes: a tuple or
    list of names (the other seats in seating order), or one name (every
    other seat is that strategy)."""
    if isinstance(opponent, str):
        return all(name == opponent for name in others)
    return tuple(others) == tuple(opponent)


def _choices(sweeps):
    """The sweeps as the arguments that pick each, for an error message."""
    def starts(head_starts):
        return f", head_starts={tuple(head_starts)!r}" if any(head_starts) else ""
    return "; ".join(f"opponent={opponent!r}, mode={section!r}{starts(head_starts)} (swept "
                     f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))})"
                     for section, opponent, head_starts, seats in
                     zip(sweeps["section"], sweeps["opponent"], sweeps["head_starts"], sweeps["seats"]))


def _table_sweep_values(results, opponent, mode, seat, head_starts=None):
    """sweep_values at tables of three or more seats (see sweep_values)."""
    rows = _swept_rows(_tables_of(results, mode))
    if rows.empty:
        raise ValueError("the file's tables (results.nway, one row per table and seat) hold no sweep: no seat "
                         "whose strategy changes from table to table while the other seats stay the same")
    sweeps = table_sweeps(results, mode)
    if opponent is not None:
        rows = rows[[_matches(others, opponent) for others in rows["opponent"]]]
        if rows.empty:
            raise ValueError(f"no sweep at tables against {opponent!r}; the file's: {_choices(sweeps)}")
    if head_starts is not None:
        rows = rows[[tuple(starts) == tuple(head_starts) for starts in rows["starts"]]]
        if rows.empty:
            raise ValueError(f"no sweep at tables with head starts {tuple(head_starts)!r}; the file's: "
                             f"{_choices(sweeps)}")
    picked = rows[["section", "opponent", "starts"]].drop_duplicates().rename(columns={"starts": "head_starts"})
    if len(picked) > 1:
        shown = sweeps.merge(picked, on=["section", "opponent", "head_starts"])
        raise ValueError(f"the file holds {len(picked)} sweeps at tables; choose one with {_choices(shown)}")
    if seat is not None:
        rows = rows[rows["seat"] == seat]
        if rows.empty:
            raise ValueError(f"seat {seat!r} is not swept; the swept seats: {_choices(sweeps.merge(picked))}")
    figures = rows.assign(value=rows["win_rate"], low=rows["win_low"], high=rows["win_high"],
                          exact=rows["exact_win"], shared_rate=rows["tied"] / rows["games"])
    extra = ["head_start"] if "head_start" in rows else []
    return figures[["strategy", *TABLE_SWEEP_COLUMNS, *extra, *SWEEP_COLUMNS]]


def _sweep_uses_tables(results, opponent, mode):
    """Whether sweep_values reads the tables: mode names a table section; or
    mode is left out and the opponent is a tuple or list (the other seats),
    or a name that met no pair in the file, or None in a file with neither
    distributions nor pairs."""
    if mode is not None:
        return _tables_wanted(results, mode)
    if isinstance(opponent, (tuple, list)):
        return True
    pairs = results.headtohead
    if opponent is None:
        return results.summary.empty and pairs.empty and not results.nway.empty
    return not results.nway.empty and (pairs.empty or not (pairs["opponent"] == opponent).any())


def sweep_values(results, opponent=None, mode=None, seat=None, head_starts=None):
    """One row per strategy: its parameters (results.strategies) and the figure
    a sweep compares, with its 95% interval and exact value: columns value,
    low, high, exact.

    Pairs (headtohead, sequential; mode one of them): with an opponent (a
    name), the score rate against it (wins plus half the ties, both seats in
    sequential play, or only in `seat` 0 or 1 as scores_against counts it),
    and its games; without one, the mean score (score distributions).

    Tables of three or more seats (nway, sequential_tables; see
    table_sweeps): one row per swept strategy and swept seat, the figure its
    rate of outright wins there (Wilson interval; exact: the solver's P(win
    alone) where the file has it). A shared win counts nothing in it, since
    the solver gives each seat's P(win alone) only: shared_rate is beside
    it. Extra columns: section, seat, opponent (the other seats' strategies,
    in seating order), table, games, wins, tied, and head_start (0 where the
    file records none). opponent: a tuple or list of names (the other
    seats, in seating order; names may repeat) or one name (every other
    seat is that strategy); None where the file holds one sweep at tables.
    mode: "nway" or "sequential_tables" where both hold one; seat: keep only
    that swept seat; head_starts: every seat's head start (a tuple), where
    the same seating is swept with and without them. The tables are read when mode names a table section,
    when opponent is a tuple or list, when it is a name that met no pair, or
    when the file has neither distributions nor pairs. Ambiguity (several
    sweeps, no sweep against that opponent) is a ValueError listing the
    arguments that pick each sweep the file holds."""
    if _sweep_uses_tables(results, opponent, mode):
        figures = _table_sweep_values(results, opponent, mode, seat, head_starts)
        return _with_parameters(results, figures).sort_values("seat", kind="stable").reset_index(drop=True)
    if opponent is None:
        if results.summary.empty:
            raise ValueError(_no_mean_score(results))
        figures = results.summary.rename(columns={"mean": "value", "ci_low": "low", "ci_high": "high",
                                                  "exact_mean": "exact"})[["strategy", "games", *SWEEP_COLUMNS]]
    else:
        scores = scores_against(results, mode, seat)
        figures = scores[scores["opponent"] == opponent].rename(
            columns={"rate": "value", "rate_low": "low", "rate_high": "high", "exact_rate": "exact"})
        if figures.empty:
            met = list(dict.fromkeys(scores["opponent"]))
            raise ValueError(f"no strategy met {opponent!r}; the opponents: {', '.join(map(repr, met))}")
        figures = figures[["strategy", "games", *SWEEP_COLUMNS]]
    return _with_parameters(results, figures)


def _with_parameters(results, figures):
    """Each row of figures with its strategy's family and parameters before it."""
    return results.strategies.drop(columns="spec").merge(figures, on="strategy")


SWEEP_BEST_COLUMNS = {"seat": "Int64", "best": object, "value": "float64", "low": "float64", "high": "float64",
                      "exact": "float64", "runner_up": object, "margin": "float64", "margin_low": "float64",
                      "margin_high": "float64", "z": "float64", "beyond_chance": bool, "exact_best": object}


def sweep_best(rows):
    """The best of a sweep of rates (sweep_values' rows against an opponent,
    or at tables), per swept seat (seat <NA> for pairs): the best strategy,
    its value with its interval and exact value, the runner-up and the
    lead's test (rate_lead; a lone strategy leads by nothing, beyond chance),
    and exact_best, the best by the exact values where the rows have them."""
    groups = rows.groupby("seat", sort=True) if "seat" in rows else [(pd.NA, rows)]
    best = []
    for seat, group in groups:
        ordered = group.sort_values("value", ascending=False, kind="stable")
        top = ordered.iloc[0]
        if len(ordered) > 1:
            second = ordered.iloc[1]
            runner_up, lead = second["strategy"], rate_lead(top["value"], top["games"], second["value"],
                                                            second["games"])
        else:
            runner_up, lead = None, dict(margin=np.nan, margin_low=np.nan, margin_high=np.nan, z=np.nan,
                                         beyond_chance=True)
        known = group["exact"].notna().any()
        best.append(dict(seat=seat, best=top["strategy"], value=top["value"], low=top["low"], high=top["high"],
                         exact=top["exact"], runner_up=runner_up, **lead,
                         exact_best=group.loc[group["exact"].idxmax(), "strategy"] if known else None))
    return pd.DataFrame(best, columns=list(SWEEP_BEST_COLUMNS)).astype(SWEEP_BEST_COLUMNS)


def _no_mean_score(results):
    """Why sweep_values without an opponent has nothing to show, and what to pass."""
    if not results.headtohead.empty:
        opponents = list(dict.fromkeys(results.headtohead["opponent"]))[:10]
        return ("the file has no score distributions, so there is no mean score to sweep: pass opponent=, "
                f"one of {', '.join(map(repr, opponents))}")
    return "the file has no score distributions, pairs or tables to sweep"
