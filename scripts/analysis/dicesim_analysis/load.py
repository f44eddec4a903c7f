"""Reading a dicesim results file (format "dicesim-results", major 3): every
read guarded as dicesim's own (files.py); anything wrong is a
ResultsFileError (a DicesimError) of one line."""

import functools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .errors import DicesimError, ResultsFileError, one_line, printable
from .files import CONTENT_CHECKSUM, FILE_ERRORS, LAYOUT, ResultsFile, content_checksum, parse_json  # noqa: F401

SUPPORTED_MAJORS = tuple(range(LAYOUT["oldest_readable_major"], LAYOUT["format_version"][0] + 1))
Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson_interval(successes, trials, z=Z95):
    """Wilson score interval for a binomial proportion (arrays welcome)."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z / denominator * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # The exact bounds are 0 at no successes and 1 at no failures, where
    # rounding leaves 4e-22 or 1 + 2e-16; clipped to [0, 1] everywhere.
    played = n > 0
    low = np.where(played & (k <= 0), 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(played & (k >= n), 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def mean_difference_z(mean_a, sd_a, n_a, mean_b, sd_b, n_b):
    """z of a difference of two sample means: (mean_a - mean_b) / sqrt(sd_a^2/n_a + sd_b^2/n_b).

    With n_a = n_b = n this is the Sixers paper's Table I statistic. NaN when
    any input is missing (for example a strategy not played in an interrupted run)."""
    values = (mean_a, sd_a, n_a, mean_b, sd_b, n_b)
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values) or n_a <= 0 or n_b <= 0:
        return float("nan")
    spread = math.sqrt(sd_a**2 / n_a + sd_b**2 / n_b)
    if spread == 0:
        return 0.0 if mean_a == mean_b else math.copysign(math.inf, mean_a - mean_b)
    return (mean_a - mean_b) / spread


def _moments(scores, weights):
    total = weights.sum()
    if total <= 0:
        return float("nan"), float("nan")
    mean = float((scores * weights).sum() / total)
    variance = float((weights * (scores - mean) ** 2).sum() / total)
    return mean, math.sqrt(variance)


# The columns of each frame and their types: a section with no rows is still a
# frame with its columns, typed as when it has rows.
_NAME, _COUNT, _REAL = object, "int64", "float64"
SUMMARY_COLUMNS = {"strategy": _NAME, "games": _COUNT, "mean": _REAL, "sd": _REAL, "ci_low": _REAL,
                   "ci_high": _REAL, "p_min": _REAL, "p_min_low": _REAL, "p_min_high": _REAL,
                   "exact_mean": _REAL, "exact_sd": _REAL, "z_mean": _REAL}
DISTRIBUTION_COLUMNS = {"strategy": _NAME, "score": _COUNT, "count": _COUNT, "probability": _REAL,
                        "exact_probability": _REAL}
PAIR_COLUMNS = {"mode": _NAME, "strategy": _NAME, "opponent": _NAME, "games": _COUNT, "wins": _COUNT,
                "ties": _COUNT, "losses": _COUNT, "win_rate": _REAL, "tie_rate": _REAL, "loss_rate": _REAL,
                "win_low": _REAL, "win_high": _REAL, "tie_low": _REAL, "tie_high": _REAL, "loss_low": _REAL,
                "loss_high": _REAL, "seat_advantage": _REAL, "seat_advantage_low": _REAL,
                "seat_advantage_high": _REAL, "exact_win": _REAL, "exact_tie": _REAL,
                "exact_loss": _REAL, "z_win": _REAL}
TABLE_COLUMNS = {"section": _NAME, "table": _COUNT, "seat": _COUNT, "strategy": _NAME, "head_start": _COUNT,
                 "games": _COUNT,
                 "wins": _COUNT, "tied": _COUNT, "tie_games": _COUNT, "win_rate": _REAL, "win_low": _REAL,
                 "win_high": _REAL, "tie_rate": _REAL, "tie_low": _REAL, "tie_high": _REAL, "exact_win": _REAL,
                 "exact_tie": _REAL, "z_win": _REAL}
# Names in the measures' long form are categoricals: it has a row per bin.
_LABEL = "category"
MEASURE_COLUMNS = {"section": _LABEL, "table": _COUNT, "seat": _COUNT, "strategy": _LABEL, "opponent": _LABEL,
                   "measure": _LABEL, "value": _COUNT, "count": _COUNT, "probability": _REAL,
                   "exact_probability": _REAL}
CHECK_COLUMNS = {"name": _NAME, "kind": _NAME, "observed": _REAL, "expected": _REAL, "z": _REAL,
                 "p_value": _REAL, "passed": bool}


def _frame(rows, columns):
    """A DataFrame of `rows` (dicts or tuples) with the given {column: type}."""
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def _frame_of(frames, columns):
    """DataFrames stacked, with the given {column: type} (missing ones NaN)."""
    if not frames:
        return _frame([], columns)
    return pd.concat(frames, ignore_index=True).reindex(columns=list(columns)).astype(columns)


@dataclass
class Results:
    """A results file as tidy DataFrames; see the module docstring."""

    path: str
    meta: dict
    config: dict
    strategies: pd.DataFrame
    distributions: pd.DataFrame
    summary: pd.DataFrame
    headtohead: pd.DataFrame
    nway: pd.DataFrame
    checks: pd.DataFrame
    has_exact: bool = field(default=False)
    log: str = field(default="", repr=False)  # what `dicesim run` printed, when run() made the file
    identity: tuple = field(default=(), repr=False)  # the file's (device, inode, size, mtime) when loaded

    def __repr__(self):
        """A few lines: the file, its game, strategies, games and checks (the frames are attributes)."""
        meta = self.meta
        status = "complete" if self.complete else "INCOMPLETE"
        if self.checks.empty:
            checks = "none (a run, not a check)"
        else:
            failed = int((~self.checks["passed"]).sum())
            checks = (f"{len(self.checks)} compared with the exact solver, {failed} beyond |z| > "
                      f"{self.checks.attrs['z_limit']:g}, largest |z| {self.checks['z'].abs().max():.2f}")
        return "\n".join(printable(line) for line in [
            f"<dicesim Results {self.path}>",
            f"  game {meta.get('game')}, config {meta.get('name')}, {len(self.strategies)} strategies, {status}",
            f"  games per table {int(meta.get('games', 0)):,}, seed {meta.get('seed_text', meta.get('seed'))}",
            f"  checks: {checks}",
        ])

    @functools.cached_property
    def measures(self):
        """Long form of every histogram (a row per bin: 10^6 rows for a 30-strategy
        10,000 sweep), read from the file on first use and kept."""
        with _opened(self.path) as rf:
            if self.identity and rf.identity != self.identity:
                rf.refuse("changed since it was loaded; load it again")
            return _guarded(rf, lambda: _read_measures(rf, list(self.strategies["strategy"])))

    @property
    def complete(self):
        return bool(self.meta.get("complete", 0))

    def table_i(self, strategies, games=None):
        """Table I of the Sixers paper: z of each difference of means (row - column).

        Returns (monte_carlo, exact). monte_carlo uses this file's samples, each
        strategy with the games it actually played. exact is the z the exact
        means and sds predict at `games` games each (default: the file's games
        per strategy). A file without exact results (`dicesim run`, not
        `check`) has no exact: asking for it with `games` raises ValueError,
        and without `games` exact is None.
        """
        if games is not None and not self.has_exact:
            raise ValueError(f"{self.path}: no exact results in this file (made by `dicesim run`): "
                             "table_i(..., games=...) needs a file of `dicesim check`")
        s = self.summary.set_index("strategy")

        def matrix(mean, sd, games_of):
            return pd.DataFrame(
                [[mean_difference_z(s.at[a, mean], s.at[a, sd], games_of(a), s.at[b, mean], s.at[b, sd], games_of(b))
                  for b in strategies] for a in strategies],
                index=pd.Index(strategies, name="strategy"),
                columns=pd.Index(strategies, name="minus"),
            )

        monte_carlo = matrix("mean", "sd", lambda name: int(s.at[name, "games"]))
        n = games or int(self.meta["games"])
        exact = matrix("exact_mean", "exact_sd", lambda name: n) if self.has_exact else None
        return monte_carlo, exact


    def to_xarray(self):
        """Every section as labelled xarray Datasets, in a dict (the sections
        the file has): strategies, summary, distributions (dims strategy and
        score), headtohead and sequential (dims strategy, opponent), nway and
        sequential_tables (dims table, seat), checks (dim check), and per
        measure of the distributions a Dataset `measure_<name>` (dims
        strategy and the measure's value axis, named after the measure). The
        same dimension names everywhere (the file's /strategies calls its
        axis `names`; here it is `strategy`); every Dataset carries the
        file's facts as attrs."""
        from .xarray_view import results_to_xarray

        return results_to_xarray(self)

def _opened(path):
    return ResultsFile(path)


def _length(rf, what, values, n):
    """values, which must hold n entries (a column beside another)."""
    if len(values) != n:
        rf.refuse(f"{what} holds {len(values)} entries, not {n} as the data beside it")
    return values


def _count(rf, what, value):
    if value < 0:
        rf.refuse(f"{what} is negative")
    return value


def _read_meta(rf):
    version = rf.verify()
    meta = rf.root_attributes()
    meta["format_version"] = version
    if meta.get("config") is None:  # too long for an attribute: the dataset /config
        if not rf.has("/config"):
            rf.refuse("holds no config")
        meta["config"] = rf.read("/config")[0]
    for key in ("games", "block_games"):
        _count(rf, key, meta[key])
    return meta


def _lowest_score_wins(meta):
    """Whether P(the least score) means something: only where the lowest score wins, not in races."""
    return bool(meta.get("lowest_score_wins", meta.get("game") == "sixers"))


def _read_distributions(rf, names, meta):
    rows, summary = [], []
    for name in names:
        path = f"/distributions/{name}"
        if not rf.has(path):
            continue
        counts = rf.read(f"{path}/counts")
        scores = _length(rf, f"{path}/score", rf.read(f"{path}/score"), len(counts))
        games = _count(rf, f"{path} games", rf.attribute(path, "games"))
        exact_path = f"/exact{path}/probability"
        known = rf.has(exact_path)
        exact = _length(rf, exact_path, rf.read(exact_path), len(counts)) if known else np.full(len(counts), np.nan)
        for score, count, p in zip(scores, counts, exact):
            rows.append((name, int(score), int(count), count / games if games else np.nan, float(p)))
        mean, sd = _moments(scores.astype(float), counts.astype(float))
        sd_sample = sd * math.sqrt(games / (games - 1)) if games > 1 else float("nan")
        sem = sd_sample / math.sqrt(games) if games > 0 else float("nan")
        exact_mean, exact_sd = _moments(scores.astype(float), exact) if known else (np.nan, np.nan)
        z = (mean - exact_mean) / (exact_sd / math.sqrt(games)) if known and exact_sd > 0 and games > 0 else np.nan
        least = counts[0] if len(counts) else 0
        p_min_low, p_min_high = (float(v) for v in wilson_interval(least, games))
        summary.append(
            dict(strategy=name, games=games, mean=mean, sd=sd_sample, ci_low=mean - Z95 * sem,
                 ci_high=mean + Z95 * sem, p_min=least / games if games else np.nan, p_min_low=p_min_low,
                 p_min_high=p_min_high, exact_mean=exact_mean, exact_sd=exact_sd, z_mean=z)
        )
    summary = _frame(summary, SUMMARY_COLUMNS)
    if not _lowest_score_wins(meta):
        summary = summary.drop(columns=["p_min", "p_min_low", "p_min_high"])
    return _frame(rows, DISTRIBUTION_COLUMNS), summary


class _Pairs:
    """The pairs of a pair section, each once as played: `strategy` in seat 0
    (in sequential play, first), `opponent` in seat 1; `count`, how many."""

    def __init__(self, rf, section):
        self.strategy = np.array(rf.read(f"/{section}/strategy"), dtype=object)
        self.count = len(self.strategy)
        self.opponent = np.array(_length(rf, f"/{section}/opponent", rf.read(f"/{section}/opponent"), self.count),
                                 dtype=object)


def _pair_frame(rf, mode, pairs):
    """One row per pair as played (seat 0's view)."""
    columns = {k: _length(rf, f"/{mode}/{k}", rf.read(f"/{mode}/{k}"), pairs.count)
               for k in ("wins", "ties", "losses", "games")}
    if any((v < 0).any() for v in columns.values()):
        rf.refuse(f"/{mode} holds negative counts")
    frame = pd.DataFrame(dict(mode=mode, strategy=pairs.strategy, opponent=pairs.opponent, **columns))
    if rf.has(f"/exact/{mode}/win"):
        frame = frame.assign(**{f"exact_{k}": _length(rf, f"/exact/{mode}/{k}", rf.read(f"/exact/{mode}/{k}"),
                                                      pairs.count) for k in ("win", "tie", "loss")})
    return frame


def _mirrored(frame):
    """A blind pair from the other seat's side: the same games, the roles swapped."""
    swap = {"strategy": "opponent", "opponent": "strategy", "wins": "losses", "losses": "wins",
            "exact_win": "exact_loss", "exact_loss": "exact_win"}
    return frame.rename(columns=swap)[list(frame.columns)]


def _read_pairs(rf, names):
    """Every pair section as one row per (strategy, opponent), in the order of
    the strategies: a blind pair gives a row to each of its two strategies."""
    order = {name: k for k, name in enumerate(names)}
    frames = []
    for mode in ("headtohead", "sequential"):
        if not rf.has(f"/{mode}"):
            continue
        frame = _pair_frame(rf, mode, _Pairs(rf, mode))
        if mode == "headtohead":
            frame = pd.concat([frame, _mirrored(frame)], ignore_index=True)
        position = frame["strategy"].map(order).fillna(len(names)) * (len(names) + 1) + frame["opponent"].map(order).fillna(len(names))
        frame = frame.iloc[np.argsort(position.to_numpy(), kind="stable")].reset_index(drop=True)
        n = frame["games"].to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            frame = frame.assign(win_rate=frame["wins"] / n, tie_rate=frame["ties"] / n, loss_rate=frame["losses"] / n)
        for outcome, counts in (("win", "wins"), ("tie", "ties"), ("loss", "losses")):
            low, high = wilson_interval(frame[counts].to_numpy(float), n.astype(float))
            frame[f"{outcome}_low"], frame[f"{outcome}_high"] = low, high
        frame = frame.assign(**_seat_advantages(mode, frame))
        if "exact_win" in frame:
            p = frame["exact_win"].to_numpy()
            with np.errstate(divide="ignore", invalid="ignore"):
                z = (frame["win_rate"].to_numpy() - p) / np.sqrt(p * (1 - p) / n)
            frame["z_win"] = np.where((p > 0) & (p < 1), z, np.nan)
        frames.append(frame)
    return _frame_of(frames, PAIR_COLUMNS)


def _seat_advantages(mode, frame):
    """How much more often each strategy wins when it plays first than when it
    plays second against the same opponent (sequential play; 0 blind)."""
    columns = ("seat_advantage", "seat_advantage_low", "seat_advantage_high")
    if mode == "headtohead":
        return dict.fromkeys(columns, 0.0)
    # The same two strategies the other way round: the opponent first.
    reverse = frame[["strategy", "opponent", "losses", "games"]].rename(
        columns={"strategy": "opponent", "opponent": "strategy", "losses": "second_wins", "games": "second_games"})
    reverse = reverse.drop_duplicates(["strategy", "opponent"])
    both = frame[["strategy", "opponent", "wins", "games"]].merge(reverse, on=["strategy", "opponent"], how="left")
    with np.errstate(divide="ignore", invalid="ignore"):
        first = both["wins"] / both["games"]
        second = both["second_wins"] / both["second_games"]
        se = np.sqrt(first * (1 - first) / both["games"] + second * (1 - second) / both["second_games"])
    difference = (first - second).to_numpy(float)
    return dict(seat_advantage=difference, seat_advantage_low=difference - Z95 * se.to_numpy(float),
                seat_advantage_high=difference + Z95 * se.to_numpy(float))


def _read_tables(rf):
    rows = []
    for section in ("nway", "sequential_tables"):
        if not rf.has(f"/{section}"):
            continue
        for key in rf.table_keys(f"/{section}"):
            path = f"/{section}/{key}"
            strategies = rf.read(f"{path}/strategy")  # a name may sit in several seats: key by seat
            head_start = _head_starts(rf, path, len(strategies))
            wins = _length(rf, f"{path}/wins", rf.read(f"{path}/wins"), len(strategies))
            tied = _length(rf, f"{path}/tied", rf.read(f"{path}/tied"), len(strategies))
            n = _count(rf, f"{path} games", rf.attribute(path, "games"))
            tie_games = _count(rf, f"{path} tie_games", rf.attribute(path, "tie_games"))
            exact_path = f"/exact{path}"
            known = rf.has(f"{exact_path}/win")
            exact_win = (_length(rf, f"{exact_path}/win", rf.read(f"{exact_path}/win"), len(strategies)) if known
                         else [np.nan] * len(strategies))
            exact_tie = rf.attribute(exact_path, "tie") if known else None
            exact_tie = np.nan if exact_tie is None else exact_tie
            low, high = wilson_interval(wins, n)
            tie_low, tie_high = (float(v) for v in wilson_interval(tie_games, n))
            for seat, name in enumerate(strategies):
                p = float(exact_win[seat])
                rows.append(dict(
                    section=section, table=int(key), seat=seat, strategy=name, head_start=int(head_start[seat]),
                    games=n, wins=int(wins[seat]),
                    tied=int(tied[seat]), tie_games=tie_games, win_rate=wins[seat] / n if n else np.nan,
                    win_low=float(low[seat]), win_high=float(high[seat]), tie_rate=tie_games / n if n else np.nan,
                    tie_low=tie_low, tie_high=tie_high, exact_win=p, exact_tie=exact_tie,
                    z_win=(wins[seat] / n - p) / math.sqrt(p * (1 - p) / n) if n and 0 < p < 1 else np.nan,
                ))
    return _frame(rows, TABLE_COLUMNS)


def _head_starts(rf, path, seats):
    """Each seat's points at the start: the optional `<path>/head_start`,
    all zeros where the file has none (every file before head starts)."""
    if not rf.has(f"{path}/head_start"):
        return np.zeros(seats, dtype=np.int64)
    try:
        values = rf.read(f"{path}/head_start")
    except LookupError:  # a file newer than this package's copy of the layout
        rf.refuse(f"{path}/head_start is not in this package's results layout: update the package")
    return _length(rf, f"{path}/head_start", values, seats)


def _measure_list(rf):
    """(name, subgroup) of every measure: the score (the first) in a table's group itself."""
    names = rf.read("/measures/name")
    if not names or names[0] != "score" or len(set(names)) != len(names) or any("/" in n or n in (".", "..", "") for n in names):
        rf.refuse("/measures/name does not list the measures as dicesim writes them")
    return [(name, None if i == 0 else name) for i, name in enumerate(names)]


def _histograms(rf, measures, group_path, dataset, seats):
    """{measure: (values, [seats, bins] array)} of one table group."""
    out = {}
    for name, sub in measures:
        path = group_path if sub is None else f"{group_path}/{sub}"
        if not rf.has(f"{path}/{dataset}"):
            continue
        values = rf.read(f"{path}/{name}")
        counts = np.atleast_2d(rf.read(f"{path}/{dataset}"))
        if counts.shape != (seats, len(values)):
            rf.refuse(f"{path}/{dataset} has the shape {list(counts.shape)}, not [{seats}, {len(values)}] "
                      "as its seats and value axis")
        out[name] = (values, counts)
    return out


class _MeasureRows:
    """The long form of histograms, built as numpy columns block by block (a
    row per bin), so that a file of 10^6 bins loads in a second. Names are
    stored as codes into `labels` and become categoricals at the end."""

    def __init__(self):
        self.blocks, self.labels = [], {}

    def code(self, label):
        return self.labels.setdefault(label, len(self.labels))

    def add(self, section, table, seats, strategies, opponents, measure, values, counts, exact):
        """counts and exact: [rows, bins]; seats, strategies, opponents: a code
        or name per row (lists of names are coded here)."""
        rows, bins = counts.shape
        totals = counts.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            probability = np.where(totals > 0, counts / np.where(totals > 0, totals, 1), np.nan)
        codes = {name: np.int32(self.code(name)) for name in set(strategies) | set(opponents)}
        per_row = lambda a: np.repeat(np.asarray(a), bins)  # noqa: E731
        self.blocks.append(dict(
            section=np.full(rows * bins, self.code(section), dtype=np.int32),
            table=np.full(rows * bins, table, dtype=np.int64), seat=per_row(seats).astype(np.int64),
            strategy=per_row([codes[n] for n in strategies]), opponent=per_row([codes[n] for n in opponents]),
            measure=np.full(rows * bins, self.code(measure), dtype=np.int32),
            value=np.tile(np.asarray(values, dtype=np.int64), rows), count=counts.reshape(-1).astype(np.int64),
            probability=probability.reshape(-1),
            exact_probability=(np.full(counts.shape, np.nan) if exact is None else exact).reshape(-1).astype(float)))

    def frame(self):
        labels = np.array(list(self.labels), dtype=object)
        columns = {}
        for name, kind in MEASURE_COLUMNS.items():
            # Each column's blocks are dropped once joined, to keep the peak low.
            data = np.concatenate([b.pop(name) for b in self.blocks]) if self.blocks else np.zeros(0, dtype=np.int32)
            if kind == _LABEL:
                used = np.unique(data)
                codes = np.searchsorted(used, data)
                columns[name] = pd.Categorical.from_codes(codes, categories=pd.Index(labels[used], dtype=object))
            else:
                columns[name] = data.astype(kind)
        return pd.DataFrame(columns)


def _add_pair_measures(rf, measures, out):
    """The per-pair histograms of headtohead and sequential, each pair once:
    seat 0 is the strategy against the opponent, seat 1 the other way round."""
    for section in ("headtohead", "sequential"):
        if not rf.has(f"/{section}"):
            continue
        pairs = _Pairs(rf, section)
        for measure, _ in measures:
            path = f"/{section}/{measure}"
            if not rf.has(f"{path}/counts"):
                continue
            values, counts = rf.read(f"{path}/{measure}"), rf.read(f"{path}/counts")  # [pairs, 2, bins]
            if counts.shape != (pairs.count, 2, len(values)):
                rf.refuse(f"{path}/counts has the shape {list(counts.shape)}, not [{pairs.count}, 2, {len(values)}]")
            exact_path = f"/exact{path}/probability"
            exact = rf.read(exact_path) if rf.has(exact_path) else None
            if exact is not None and exact.shape != counts.shape:
                rf.refuse(f"{exact_path} has the shape {list(exact.shape)}, not that of {path}/counts")
            strategy = np.stack([pairs.strategy, pairs.opponent], axis=1).reshape(-1)
            opponent = np.stack([pairs.opponent, pairs.strategy], axis=1).reshape(-1)
            out.add(section, -1, np.tile([0, 1], pairs.count), list(strategy), list(opponent), measure, values,
                    counts.reshape(-1, len(values)), None if exact is None else exact.reshape(-1, len(values)))


def _read_measures(rf, names):
    """Long form of every histogram: distributions, per-seat tables and pairs."""
    measures = _measure_list(rf)
    groups = [("distributions", -1, [name], f"/distributions/{name}") for name in names
              if rf.has(f"/distributions/{name}")]
    for section in ("nway", "sequential_tables"):
        if rf.has(f"/{section}"):
            groups += [(section, int(key), rf.read(f"/{section}/{key}/strategy"), f"/{section}/{key}")
                       for key in rf.table_keys(f"/{section}")]
    out = _MeasureRows()
    for section, table, strategies, path in groups:
        seats = len(strategies)
        exact = _histograms(rf, measures, f"/exact{path}", "probability", seats) if rf.has(f"/exact{path}") else {}
        for measure, (values, counts) in _histograms(rf, measures, path, "counts", seats).items():
            known = exact.get(measure)
            if known is not None and known[1].shape != counts.shape:
                rf.refuse(f"/exact{path}: the exact {measure} histogram has another shape than the counts")
            out.add(section, table, np.arange(seats), strategies, [""] * seats, measure,
                    values, counts, None if known is None else known[1])
    _add_pair_measures(rf, measures, out)
    return out.frame()


def _read_checks(rf):
    if not rf.has("/checks"):
        return _frame([], CHECK_COLUMNS)
    names = rf.read("/checks/name")
    columns = {k: _length(rf, f"/checks/{k}", rf.read(f"/checks/{k}"), len(names))
               for k in ("kind", "observed", "expected", "z", "p_value")}
    limit = rf.attribute("/checks", "z_limit")
    frame = pd.DataFrame({"name": names, **columns})
    frame["passed"] = frame["z"].abs() <= limit
    frame.attrs["z_limit"] = limit
    return frame


def _parameters_of_spec(spec):
    """A spec's numeric parameters, an array's elements as <key>_0, <key>_1, ..."""
    out = {}
    for key, value in spec.items():
        if isinstance(value, bool) or key in ("name", "family"):
            continue
        if isinstance(value, (int, float)):
            out[key] = float(value)
        elif isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            out.update({f"{key}_{k}": float(v) for k, v in enumerate(value)})
    return out


def _read_strategies(rf, names):
    """strategy, spec (a dict), family and one float column per parameter (NaN
    where it does not apply): from /strategies/family and /strategies/parameters
    where the file has them, else from each strategy's JSON spec."""
    if len(set(names)) != len(names) or any("/" in n or n in (".", "..", "") for n in names):
        rf.refuse("/strategies/names holds a name twice, or one that is no group name")
    specs = [parse_json(s, rf.refuse, "a spec of /strategies/specs")
             for s in _length(rf, "/strategies/specs", rf.read("/strategies/specs"), len(names))]
    if not all(isinstance(spec, dict) for spec in specs):
        rf.refuse("/strategies/specs holds a spec that is not a JSON object")
    frame = pd.DataFrame({"strategy": names, "spec": specs})
    family = rf.read_optional("/strategies/family")
    frame["family"] = (_length(rf, "/strategies/family", family, len(names)) if family is not None
                       else [str(spec.get("family", "")) for spec in specs])
    if rf.has("/strategies/parameters"):
        keys = [k for k in rf.members("/strategies/parameters") if k != "strategy"]
        parameters = pd.DataFrame({k: _length(rf, f"/strategies/parameters/{k}",
                                              rf.read(f"/strategies/parameters/{k}"), len(names)) for k in keys},
                                  index=range(len(names)))
    else:
        parameters = pd.DataFrame([_parameters_of_spec(spec) for spec in specs], index=range(len(specs)))
    return pd.concat([frame, parameters.astype(float)], axis=1)


def _load(rf):
    meta = _read_meta(rf)
    config = parse_json(meta["config"], rf.refuse, "the stored config")
    if not isinstance(config, dict):
        rf.refuse("the stored config is not a JSON object")
    names = rf.read("/strategies/names")
    strategies = _read_strategies(rf, names)
    distributions, summary = _read_distributions(rf, names, meta)
    return Results(
        path=rf.path, meta=meta, config=config, strategies=strategies, distributions=distributions,
        summary=summary, headtohead=_read_pairs(rf, names), nway=_read_tables(rf), checks=_read_checks(rf),
        has_exact=rf.has("/exact"), identity=rf.identity,
    )


def load(path):
    """Reads a dicesim results file into a Results of tidy DataFrames. A file
    that is not a regular file, is held open for writing, is of a format
    before 3.0, fails its content checksum, or holds anything the results
    layout (results_layout.json) does not allow raises ResultsFileError (a
    DicesimError and a ValueError) of one line naming it."""
    with _opened(path) as rf:
        return _guarded(rf, lambda: _load(rf))


def _guarded(rf, read):
    """read(), whatever h5py, numpy or the json module raise on a damaged file
    said as one line naming it."""
    try:
        return read()
    except DicesimError:
        raise
    except FILE_ERRORS as error:
        rf.refuse(f"unreadable or truncated results file ({one_line(error)})")
