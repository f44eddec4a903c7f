"""Reading a dicesim results file (format "dicesim-results", majors 1 to 3)."""

import functools
import hashlib
import json
import math
import os
import struct
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

SUPPORTED_MAJORS = (1, 2, 3)  # 3.0: fixed-length strings and the content checksum; 2.0 pairs as lists; 1.x as matrices
CONTENT_CHECKSUM = "content_sha256"  # the root attribute; sim/README.md, Results file: checksums
Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def _text(value):
    """A string attribute or element: bytes (fixed-length, format 3.0 on) decoded, str as it is."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _strings(dataset):
    return [_text(v) for v in dataset[()]]


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
TABLE_COLUMNS = {"section": _NAME, "table": _COUNT, "seat": _COUNT, "strategy": _NAME, "games": _COUNT,
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
        return "\n".join([
            f"<dicesim Results {self.path}>",
            f"  game {meta.get('game')}, config {meta.get('name')}, {len(self.strategies)} strategies, {status}",
            f"  games per table {int(meta.get('games', 0)):,}, seed {meta.get('seed_text', meta.get('seed'))}",
            f"  checks: {checks}",
        ])

    @functools.cached_property
    def measures(self):
        """Long form of every histogram (a row per bin: 10^6 rows for a 30-strategy
        10,000 sweep), read from the file on first use and kept."""
        with h5py.File(self.path, "r") as f:
            return _read_measures(f, list(self.strategies["strategy"]))

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

# Attributes the HDF5 dimension-scale calls write for themselves: outside the checksum.
_SCALE_ATTRIBUTES = {"CLASS", "NAME", "DIMENSION_LIST", "REFERENCE_LIST"}
_MOST_INFLATION = 1100  # deflate inflates at most about 1032:1
_SLAB_VALUES = 1 << 20


def _refuse(f, why):
    raise ValueError(f"{f.filename}: {why}")


def _kind(f, dtype, what):
    """The checksum's tag of a stored type: i (integers), f (floats), s (fixed-length strings); anything else
    (a variable-length string above all, which HDF5 reads by following ids into the file) is refused before
    it is read."""
    if h5py.check_string_dtype(dtype) is not None and h5py.check_string_dtype(dtype).length is None:
        _refuse(f, f"{what} is a variable-length string, which files of format 3.0 on never hold")
    if dtype.kind in "iu" and dtype.itemsize <= 8:
        return b"i"
    if dtype.kind == "f" and dtype.itemsize <= 8:
        return b"f"
    if dtype.kind == "S" and 0 < dtype.itemsize <= 16 << 20:
        return b"s"
    _refuse(f, f"{what} holds data of a type dicesim does not write")


def _value_hash(tag, shape):
    h = hashlib.sha256(tag)
    h.update(struct.pack("<Q", len(shape)))
    for d in shape:
        h.update(struct.pack("<Q", d))
    return h


def _hash_values(h, tag, values):
    values = np.asarray(values)
    if tag == b"i":
        h.update(values.astype("<i8").tobytes())
    elif tag == b"f":
        h.update(values.astype("<f8").tobytes())
    else:
        for v in values.reshape(-1):
            v = bytes(v).rstrip(b"\0")
            h.update(struct.pack("<Q", len(v)))
            h.update(v)


def _dataset_entry(f, name, dataset, file_bytes):
    what = name.decode(errors="replace")
    tag = _kind(f, dataset.dtype, what)
    count, stored = dataset.size, dataset.id.get_storage_size()
    if stored > file_bytes:
        _refuse(f, f"{what} claims more bytes than the file has")
    if count and count * max(dataset.dtype.itemsize, 8) > stored * _MOST_INFLATION:
        _refuse(f, f"{what} declares {count} values but stores {stored} bytes")
    h = _value_hash(tag, dataset.shape)
    if dataset.ndim == 0:
        _hash_values(h, tag, dataset[()])
    elif count:
        rows = max(1, _SLAB_VALUES // (count // dataset.shape[0]))
        for first in range(0, dataset.shape[0], rows):
            _hash_values(h, tag, dataset[first:first + rows])
    return b"D/" + name + b"\0" + h.digest()


def _attribute_entries(f, path, obj, file_bytes):
    entries = []
    for name in obj.attrs.keys():
        if name in _SCALE_ATTRIBUTES or (path == b"/" and name == CONTENT_CHECKSUM):
            continue
        what = f"attribute {name} of {path.decode(errors='replace')}"
        attr = h5py.h5a.open(obj.id, name.encode())
        tag = _kind(f, attr.dtype, what)
        count = int(np.prod(attr.shape)) if attr.shape else 1
        if count * max(attr.dtype.itemsize, 8) > file_bytes + 8:
            _refuse(f, f"{what} declares more bytes than the file has")
        h = _value_hash(tag, attr.shape or ())
        _hash_values(h, tag, obj.attrs[name])
        entries.append(b"A" + path + b"\0" + name.encode() + b"\0" + h.digest())
    return entries


def content_checksum(f):
    """The content checksum of an open results file as it is (sim/README.md, Results file: checksums):
    SHA-256 over every dataset and attribute, each type and size checked before it is read."""
    file_bytes = os.fstat(f.id.get_vfd_handle()).st_size
    links = []

    def visit(name, info):
        links.append((name, info.type))

    f.id.links.visit(visit, info=True)
    if any(kind != h5py.h5l.TYPE_HARD for _, kind in links):
        _refuse(f, "the file holds a soft or external link, which dicesim never writes")
    entries = _attribute_entries(f, b"/", f, file_bytes)
    for name, _ in links:
        obj = f[name]
        if isinstance(obj, h5py.Dataset):
            entries.append(_dataset_entry(f, name, obj, file_bytes))
        elif not isinstance(obj, h5py.Group):
            _refuse(f, f"{name.decode(errors='replace')} is an object dicesim does not write")
        entries += _attribute_entries(f, b"/" + name, obj, file_bytes)
    return hashlib.sha256(b"".join(sorted(entries))).hexdigest()


def _verify(f, version):
    """Format 3.0 on: the content checksum, before anything else is read. Older files have none (and
    variable-length strings, which a damaged file can make the HDF5 library crash on): they are read
    trusting them more than a damaged file deserves."""
    if version[0] < 3:
        return
    attr = h5py.h5a.open(f.id, CONTENT_CHECKSUM.encode()) if CONTENT_CHECKSUM in f.attrs else None
    if attr is None or _kind(f, attr.dtype, CONTENT_CHECKSUM) != b"s" or attr.shape != ():
        _refuse(f, "checksum mismatch: the file was altered or damaged")
    if _text(f.attrs[CONTENT_CHECKSUM]) != content_checksum(f):
        _refuse(f, "checksum mismatch: the file was altered or damaged")


def _read_version(f):
    """format_version, read before any string (an int64 pair, its type checked first)."""
    if "format_version" not in f.attrs:
        _refuse(f, "not a dicesim results file")
    attr = h5py.h5a.open(f.id, b"format_version")
    if attr.dtype.kind not in "iu" or attr.shape != (2,):
        _refuse(f, "format_version is not [major, minor]")
    version = [int(v) for v in f.attrs["format_version"]]
    if version[0] not in SUPPORTED_MAJORS:
        raise ValueError(f"{f.filename}: format_version {version} is not readable "
                         f"(supported majors {', '.join(map(str, SUPPORTED_MAJORS))})")
    return version


def _read_meta(f):
    version = _read_version(f)
    _verify(f, version)
    meta = {key: (_text(v) if isinstance(v, (bytes, str)) else v) for key, v in f.attrs.items()}
    if meta.get("format") != "dicesim-results":
        raise ValueError(f"{f.filename}: not a dicesim results file")
    meta["format_version"] = version
    if "config" not in meta and "config" in f:  # too long for an attribute (format 3.0 on)
        meta["config"] = _text(f["config"][0])
    for key in ("games", "seed", "complete", "threads", "block_games"):
        if key in meta:
            meta[key] = int(np.asarray(meta[key]))
    return meta


def _lowest_score_wins(f):
    """Whether P(the least score) means something: only where the lowest score
    wins, not in races. Files before the attribute: only Sixers."""
    if "lowest_score_wins" in f.attrs:
        return bool(np.asarray(f.attrs["lowest_score_wins"]))
    return _text(f.attrs.get("game", "sixers")) == "sixers"


def _read_distributions(f):
    rows, summary = [], []
    names = _strings(f["strategies/names"])
    for name in names:
        path = f"distributions/{name}"
        if path not in f:
            continue
        group = f[path]
        counts = group["counts"][()].astype(np.int64)
        scores = group["score"][()] if "score" in group else (group.attrs["min_score"] + group.attrs.get("score_step", 1) * np.arange(len(counts)))
        games = int(group.attrs["games"])
        exact_path = f"exact/{path}/probability"
        exact = f[exact_path][()] if exact_path in f else np.full(len(counts), np.nan)
        for score, count, p in zip(scores, counts, exact):
            rows.append((name, int(score), int(count), count / games if games else np.nan, float(p)))
        mean, sd = _moments(scores.astype(float), counts.astype(float))
        sd_sample = sd * math.sqrt(games / (games - 1)) if games > 1 else float("nan")
        sem = sd_sample / math.sqrt(games) if games > 0 else float("nan")
        exact_mean, exact_sd = _moments(scores.astype(float), exact) if exact_path in f else (np.nan, np.nan)
        z = (mean - exact_mean) / (exact_sd / math.sqrt(games)) if exact_path in f and exact_sd > 0 else np.nan
        p_min_low, p_min_high = (float(v) for v in wilson_interval(counts[0], games))
        summary.append(
            dict(strategy=name, games=games, mean=mean, sd=sd_sample, ci_low=mean - Z95 * sem,
                 ci_high=mean + Z95 * sem, p_min=counts[0] / games if games else np.nan, p_min_low=p_min_low,
                 p_min_high=p_min_high, exact_mean=exact_mean, exact_sd=exact_sd, z_mean=z)
        )
    summary = _frame(summary, SUMMARY_COLUMNS)
    if not _lowest_score_wins(f):
        summary = summary.drop(columns=["p_min", "p_min_low", "p_min_high"])
    return _frame(rows, DISTRIBUTION_COLUMNS), summary


class _Pairs:
    """The pairs of a pair section, each once as played: `strategy` in seat 0
    (in sequential play, first), `opponent` in seat 1, and `take(dataset)`,
    a dataset's entries per pair. Format 2.0 stores a list of pairs; older
    formats a strategy-by-strategy matrix (with its own axes from 1.3, over
    every strategy before), a blind pair twice, mirrored."""

    def __init__(self, f, section, names):
        g = f[section]
        games = g["games"][()]
        if games.ndim == 1:
            self.strategy = np.array(_strings(g["strategy"]), dtype=object)
            self.opponent = np.array(_strings(g["opponent"]), dtype=object)
            self.take = lambda dataset: dataset[()]
            return
        rows = columns = np.array(names, dtype=object)
        if "strategy" in g and "opponent" in g:
            rows, columns = (np.array(_strings(g[k]), dtype=object) for k in ("strategy", "opponent"))
        played = games > 0
        if section == "headtohead":
            played &= np.triu(np.ones(games.shape, dtype=bool))
        i, j = np.nonzero(played)
        self.strategy, self.opponent = rows[i], columns[j]
        self.take = lambda dataset: dataset[()][i, j]


def _pair_frame(mode, g, pairs, exact):
    """One row per pair as played (seat 0's view)."""
    wins, ties, losses, games = (pairs.take(g[k]).astype(np.int64) for k in ("wins", "ties", "losses", "games"))
    frame = pd.DataFrame(dict(mode=mode, strategy=pairs.strategy, opponent=pairs.opponent, games=games,
                              wins=wins, ties=ties, losses=losses))
    if exact is not None:
        frame = frame.assign(exact_win=pairs.take(exact["win"]), exact_tie=pairs.take(exact["tie"]),
                             exact_loss=pairs.take(exact["loss"]))
    return frame


def _mirrored(frame):
    """A blind pair from the other seat's side: the same games, the roles swapped."""
    swap = {"strategy": "opponent", "opponent": "strategy", "wins": "losses", "losses": "wins",
            "exact_win": "exact_loss", "exact_loss": "exact_win"}
    return frame.rename(columns=swap)[list(frame.columns)]


def _read_pairs(f, names):
    """Every pair section as one row per (strategy, opponent), in the order of
    the strategies: a blind pair gives a row to each of its two strategies."""
    order = {name: k for k, name in enumerate(names)}
    frames = []
    for mode in ("headtohead", "sequential"):
        if mode not in f:
            continue
        pairs = _Pairs(f, mode, names)
        exact = f[f"exact/{mode}"] if f"exact/{mode}/win" in f else None
        frame = _pair_frame(mode, f[mode], pairs, exact)
        if mode == "headtohead":
            frame = pd.concat([frame, _mirrored(frame)], ignore_index=True)
        position = frame["strategy"].map(order) * len(names) + frame["opponent"].map(order)
        frame = frame.iloc[np.argsort(position.to_numpy(), kind="stable")].reset_index(drop=True)
        n = frame["games"].to_numpy()
        frame = frame.assign(win_rate=frame["wins"] / n, tie_rate=frame["ties"] / n, loss_rate=frame["losses"] / n)
        for outcome, counts in (("win", "wins"), ("tie", "ties"), ("loss", "losses")):
            low, high = wilson_interval(frame[counts].to_numpy(float), n.astype(float))
            frame[f"{outcome}_low"], frame[f"{outcome}_high"] = low, high
        frame = frame.assign(**_seat_advantages(mode, frame))
        if exact is not None:
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
    both = frame[["strategy", "opponent", "wins", "games"]].merge(reverse, on=["strategy", "opponent"], how="left")
    first = both["wins"] / both["games"]
    second = both["second_wins"] / both["second_games"]
    se = np.sqrt(first * (1 - first) / both["games"] + second * (1 - second) / both["second_games"])
    difference = (first - second).to_numpy(float)
    return dict(seat_advantage=difference, seat_advantage_low=difference - Z95 * se.to_numpy(float),
                seat_advantage_high=difference + Z95 * se.to_numpy(float))


def _read_tables(f):
    rows = []
    for section in ("nway", "sequential_tables"):
        if section not in f:
            continue
        for key in sorted(f[section], key=int):
            g = f[f"{section}/{key}"]
            strategies = _strings(g["strategy"])
            n = int(g.attrs["games"])
            exact_path = f"exact/{section}/{key}"
            known = exact_path in f and "win" in f[exact_path]
            exact_win = f[exact_path]["win"][()] if known else [np.nan] * len(strategies)
            exact_tie = float(f[exact_path].attrs["tie"]) if known else np.nan
            low, high = wilson_interval(g["wins"][()], n)
            tie_low, tie_high = (float(v) for v in wilson_interval(g.attrs["tie_games"], n))
            for seat, name in enumerate(strategies):
                wins = int(g["wins"][seat])
                p = float(exact_win[seat])
                rows.append(dict(
                    section=section, table=int(key), seat=seat, strategy=name, games=n, wins=wins,
                    tied=int(g["tied"][seat]), tie_games=int(g.attrs["tie_games"]), win_rate=wins / n if n else np.nan,
                    win_low=float(low[seat]), win_high=float(high[seat]), tie_rate=g.attrs["tie_games"] / n if n else np.nan,
                    tie_low=tie_low, tie_high=tie_high,
                    exact_win=p, exact_tie=exact_tie,
                    z_win=(wins / n - p) / math.sqrt(p * (1 - p) / n) if n and 0 < p < 1 else np.nan,
                ))
    return _frame(rows, TABLE_COLUMNS)


def _measure_list(f):
    """(name, subgroup) of every measure; files of format 1.0 have the score only."""
    names = _strings(f["measures/name"]) if "measures" in f else ["score"]
    return [(name, None if i == 0 else name) for i, name in enumerate(names)]


def _value_axis(group, measure):
    """The value of each bin of a measure's histogram in group: the scale named
    after the measure (format 1.2, and the score in a table's own group), or
    `value` (the subgroups of formats 1.0 and 1.1)."""
    axis = group.get(measure)
    return (axis if isinstance(axis, h5py.Dataset) else group["value"])[()]


def _histograms(f, group_path, dataset):
    """{measure: (values, per-seat 2-D array)} of one table group."""
    out = {}
    for name, sub in _measure_list(f):
        path = group_path if sub is None else f"{group_path}/{sub}"
        if f"{path}/{dataset}" not in f:
            continue
        values = _value_axis(f[path], name)
        out[name] = (values, np.atleast_2d(f[f"{path}/{dataset}"][()]))
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


def _add_pair_measures(f, names, out):
    """The per-pair histograms of headtohead and sequential, each pair once:
    seat 0 is the strategy against the opponent, seat 1 the other way round."""
    for section in ("headtohead", "sequential"):
        if section not in f:
            continue
        pairs = _Pairs(f, section, names)
        for measure, _ in _measure_list(f):
            path = f"{section}/{measure}"
            if f"{path}/counts" not in f:
                continue
            values, counts = _value_axis(f[path], measure), pairs.take(f[f"{path}/counts"])  # [pairs, 2, bins]
            exact_path = f"exact/{path}/probability"
            exact = pairs.take(f[exact_path]).reshape(-1, len(values)) if exact_path in f else None
            strategy = np.stack([pairs.strategy, pairs.opponent], axis=1).reshape(-1)
            opponent = np.stack([pairs.opponent, pairs.strategy], axis=1).reshape(-1)
            out.add(section, -1, np.tile([0, 1], len(pairs.strategy)), list(strategy), list(opponent),
                    measure, values, counts.reshape(-1, len(values)), exact)


def _read_measures(f, names):
    """Long form of every histogram: distributions, per-seat tables and pairs."""
    groups = [("distributions", -1, [name], f"distributions/{name}") for name in names if f"distributions/{name}" in f]
    for section in ("nway", "sequential_tables"):
        if section in f:
            groups += [(section, int(key), _strings(f[f"{section}/{key}/strategy"]), f"{section}/{key}")
                       for key in sorted(f[section], key=int)]
    out = _MeasureRows()
    for section, table, strategies, path in groups:
        exact = _histograms(f, f"exact/{path}", "probability") if f"exact/{path}" in f else {}
        for measure, (values, counts) in _histograms(f, path, "counts").items():
            out.add(section, table, np.arange(len(strategies)), strategies, [""] * len(strategies), measure,
                    values, counts, exact[measure][1] if measure in exact else None)
    _add_pair_measures(f, names, out)
    return out.frame()


def _read_checks(f):
    if "checks" not in f:
        return _frame([], CHECK_COLUMNS)
    g = f["checks"]
    limit = float(g.attrs["z_limit"])
    frame = pd.DataFrame({
        "name": _strings(g["name"]), "kind": _strings(g["kind"]), "observed": g["observed"][()],
        "expected": g["expected"][()], "z": g["z"][()], "p_value": g["p_value"][()],
    })
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


def _read_strategies(f, names):
    """strategy, spec (a dict), family and one float column per parameter (NaN
    where it does not apply): from /strategies/family and /strategies/parameters
    where the file has them, else from each strategy's JSON spec."""
    specs = [json.loads(s) for s in _strings(f["strategies/specs"])]
    frame = pd.DataFrame({"strategy": names, "spec": specs})
    if "strategies/family" in f:
        frame["family"] = _strings(f["strategies/family"])
    else:
        frame["family"] = [spec.get("family", "") for spec in specs]
    if "strategies/parameters" in f:
        group = f["strategies/parameters"]
        parameters = pd.DataFrame({key: group[key][()].astype(float) for key in group if key != "strategy"},
                                  index=range(len(names)))
    else:
        parameters = pd.DataFrame([_parameters_of_spec(spec) for spec in specs], index=range(len(specs)))
    return pd.concat([frame, parameters.astype(float)], axis=1)


def load(path):
    """Reads a dicesim results file into a Results of tidy DataFrames."""
    with h5py.File(path, "r") as f:
        meta = _read_meta(f)
        names = _strings(f["strategies/names"])
        strategies = _read_strategies(f, names)
        distributions, summary = _read_distributions(f)
        return Results(
            path=str(path), meta=meta, config=json.loads(meta["config"]), strategies=strategies,
            distributions=distributions, summary=summary, headtohead=_read_pairs(f, names), nway=_read_tables(f),
            checks=_read_checks(f), has_exact="exact" in f,
        )
