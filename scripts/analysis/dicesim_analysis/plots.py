"""Plots of dicesim results: each helper draws on an Axes and returns it."""

from statistics import NormalDist

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .load import Z95, wilson_interval
from .safe import plot_text as _t  # every name shown literally (a $ is no mathtext)

# The 95% interval columns of each estimated column of the frames of load().
INTERVALS = {"mean": ("ci_low", "ci_high"), "p_min": ("p_min_low", "p_min_high"), "win_rate": ("win_low", "win_high"), "tie_rate": ("tie_low", "tie_high"),
             "loss_rate": ("loss_low", "loss_high"), "seat_advantage": ("seat_advantage_low", "seat_advantage_high"),
             "strength": ("strength_low", "strength_high"), "margin": ("margin_low", "margin_high")}
# Above this many bins a histogram is a line with a band, below it points with bars.
MOST_BINS_AS_POINTS = 16


def _axes(ax, size=(7, 4.5)):
    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")  # room for long tick labels
    return ax


def _error_bars(successes, trials, scale=1.0):
    """matplotlib's yerr (below, above) of the Wilson 95% interval of successes / trials,
    times scale (1 for a fraction, the trials for a count)."""
    successes, trials = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    low, high = wilson_interval(successes, trials)
    fraction = successes / trials
    return np.array([fraction - low, high - fraction]) * scale


def plot_distributions(results, strategies=None, ax=None, exact=True, title=None):
    """Overlaid score distributions (the Sixers paper's Figs. 2-4), with the exact
    probabilities as markers where the file has them."""
    ax = _axes(ax)
    data = results.distributions
    names = strategies or list(data["strategy"].unique())
    width = 0.8 / len(names)
    for k, name in enumerate(names):
        d = data[data["strategy"] == name]
        offset = (k - (len(names) - 1) / 2) * width
        bars = ax.bar(d["score"] + offset, d["probability"], width=width, alpha=0.75, label=_t(f"{name} (Monte Carlo)"),
                      yerr=_error_bars(d["count"], d["count"].sum()), error_kw=dict(elinewidth=0.8, ecolor="0.3"))
        if exact and d["exact_probability"].notna().any():
            ax.plot(d["score"] + offset, d["exact_probability"], "_", markersize=7, mew=1.5,
                    color=bars.patches[0].get_facecolor(), alpha=1.0)
    if exact and data["exact_probability"].notna().any():
        ax.plot([], [], "_", color="black", label="exact")
    ax.set_xlabel("score")
    ax.set_ylabel("fraction of games (bars: 95% intervals)")
    ax.set_title(_t(title or "score distributions"))
    ax.legend(fontsize="small")
    return ax


def plot_normal_probability(results, strategy, ax=None):
    """Normal probability plot of one strategy's scores (the paper's Fig. 5):
    each score against the normal quantile of its mid-rank cumulative fraction."""
    ax = _axes(ax, (4.5, 4.5))
    d = results.distributions[results.distributions["strategy"] == strategy]
    d = d[d["count"] > 0]
    counts = d["count"].to_numpy(dtype=float)
    cumulative = (np.cumsum(counts) - counts / 2) / counts.sum()
    quantiles = [NormalDist().inv_cdf(p) for p in cumulative]
    ax.plot(quantiles, d["score"], "o", markersize=4)
    row = results.summary.set_index("strategy").loc[strategy]
    line = np.array([min(quantiles), max(quantiles)])
    ax.plot(line, row["mean"] + row["sd"] * line, "--", color="gray", label="normal with the same mean and sd")
    ax.set_xlabel("standard normal quantile")
    ax.set_ylabel("score")
    ax.set_title(_t(f"normal probability plot: {strategy}"))
    ax.legend(fontsize="small")
    return ax


def plot_win_counts(results, table=0, section="nway", pair=None, ax=None):
    """Win counts at one table (the paper's Fig. 6), or of one pair head to head
    (Fig. 7: pair=("a", "b")); shared wins as their own bar."""
    ax = _axes(ax, (6, 4))
    if pair is not None:
        h = results.headtohead
        row = h[(h["mode"] == "headtohead") & (h["strategy"] == pair[0]) & (h["opponent"] == pair[1])].iloc[0]
        labels, counts = [pair[0], pair[1], "ties"], [row["wins"], row["losses"], row["ties"]]
        games = row["games"]
        exact = [row.get("exact_win"), row.get("exact_loss"), row.get("exact_tie")]
    else:
        t = results.nway[(results.nway["section"] == section) & (results.nway["table"] == table)]
        # By seat: a strategy may sit in several seats of one table.
        labels = [f"{seat}: {name}" for seat, name in zip(t["seat"], t["strategy"])] + ["ties"]
        counts = list(t["wins"]) + [t["tie_games"].iloc[0]]
        games = t["games"].iloc[0]
        exact = list(t["exact_win"]) + [t["exact_tie"].iloc[0]]
    labels = [_t(label) for label in labels]
    ax.bar(labels, counts, color=["C0"] * (len(labels) - 1) + ["gray"], label="Monte Carlo",
           yerr=_error_bars(counts, games, scale=games), capsize=4)
    if all(e is not None and not np.isnan(e) for e in exact):
        ax.plot(labels, np.array(exact) * games, "k_", markersize=25, mew=2, label="exact")
        ax.legend(fontsize="small")
    ax.set_ylabel(f"games of {games:,} won (or tied), 95% bars")
    ax.set_title("head to head" if pair else f"{section} table {table}")
    return ax


def _cell_text(value, low, high):
    """A matrix cell: the estimate and, below it, its 95% half-width."""
    text = f"{value:.3f}"
    if np.isfinite(low) and np.isfinite(high) and high > low:
        text += f"\n±{(high - low) / 2:.3f}"
    return text


def _text_colour(rgba):
    """Black on light cells, white on dark ones (relative luminance)."""
    red, green, blue = rgba[:3]
    return "black" if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.45 else "white"


def plot_headtohead(results, mode="headtohead", value="win_rate", ax=None):
    """Heatmap of a pairwise matrix labelled with strategy names; row = first seat.
    Each cell shows the estimate and its 95% half-width, in a colour that reads
    on the cell."""
    h = results.headtohead[results.headtohead["mode"] == mode]
    names = list(results.strategies["strategy"])

    def matrix(column):
        return h.pivot(index="strategy", columns="opponent", values=column).reindex(index=names, columns=names)

    ax = _axes(ax, (2.5 + 1.1 * len(names), 1.5 + 0.75 * len(names)))
    values = matrix(value).to_numpy(dtype=float)
    low_column, high_column = INTERVALS.get(value, (None, None))
    lows = matrix(low_column).to_numpy(dtype=float) if low_column in h else np.full_like(values, np.nan)
    highs = matrix(high_column).to_numpy(dtype=float) if high_column in h else np.full_like(values, np.nan)
    if "rate" in value:
        limits = (0.0, 1.0)
    else:  # signed (seat advantage, z): a scale centred on 0
        reach = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
        limits = (-reach, reach)
    image = ax.imshow(values, cmap="RdBu", vmin=limits[0], vmax=limits[1], aspect="auto")
    ax.set_xticks(range(len(names)), [_t(n) for n in names], rotation=45, ha="right")
    ax.set_yticks(range(len(names)), [_t(n) for n in names])
    for i in range(len(names)):
        for j in range(len(names)):
            if np.isfinite(values[i, j]):
                ax.text(j, i, _cell_text(values[i, j], lows[i, j], highs[i, j]), ha="center", va="center",
                        fontsize=9, color=_text_colour(image.cmap(image.norm(values[i, j]))))
    seats = mode == "sequential"  # blind head to head has no seat order
    ax.set_xlabel("opponent (plays second)" if seats else "opponent")
    ax.set_ylabel("strategy (plays first)" if seats else "strategy")
    ax.set_title(_t(f"{mode}: {value} ± 95% half-width"))
    ax.figure.colorbar(image, ax=ax, fraction=0.046)
    return ax


# What plot_mc_minus_exact compares in each part of the results: the frame,
# the rows' part, the estimate, its exact value and how a row is labelled.
_COMPARED = {
    "distributions": ("summary", None, "mean", "exact_mean", lambda r: r["strategy"]),
    "headtohead": ("headtohead", "mode", "win_rate", "exact_win", lambda r: f"{r['strategy']} vs {r['opponent']}"),
    "sequential": ("headtohead", "mode", "win_rate", "exact_win", lambda r: f"{r['strategy']} vs {r['opponent']}"),
    "nway": ("nway", "section", "win_rate", "exact_win", lambda r: f"table {r['table']} seat {r['seat']}: {r['strategy']}"),
    "sequential_tables": ("nway", "section", "win_rate", "exact_win",
                          lambda r: f"table {r['table']} seat {r['seat']}: {r['strategy']}"),
}


def mc_minus_exact(results, section):
    """The rows of `section` (distributions, headtohead, sequential, nway,
    sequential_tables) whose estimate has an exact value: label, difference
    (Monte Carlo minus exact) and its 95% interval."""
    frame_name, part_column, value, exact, label = _COMPARED[section]
    frame = getattr(results, frame_name)
    if part_column is not None:
        frame = frame[frame[part_column] == section]
    frame = frame[frame[exact].notna()]
    low, high = INTERVALS[value]
    return pd.DataFrame({"label": [label(row) for _, row in frame.iterrows()],
                         "difference": frame[value] - frame[exact],
                         "low": frame[low] - frame[exact], "high": frame[high] - frame[exact]})


def plot_mc_minus_exact(results, section, ax=None):
    """Monte Carlo minus exact with its 95% interval, one row per number: where
    the two are too close to tell apart on one axis. A bar that crosses 0 agrees."""
    d = mc_minus_exact(results, section)
    ax = _axes(ax, (7, 1.2 + 0.25 * max(len(d), 1)))
    rows = np.arange(len(d))
    ax.errorbar(d["difference"], rows, xerr=[d["difference"] - d["low"], d["high"] - d["difference"]], fmt="o",
                markersize=4, capsize=3)
    ax.axvline(0, color="gray", linewidth=1)
    ax.set_yticks(rows, [_t(label) for label in d["label"]], fontsize="small")
    ax.invert_yaxis()
    what = "mean score" if section == "distributions" else "win rate"
    ax.set_xlabel(f"{what}: Monte Carlo minus exact (bars: 95% intervals)")
    ax.set_title(f"{section}: {what} against the exact solver")
    return ax


def measure_histograms(results, measure, section, table=None):
    """{label: DataFrame(value, count, exact_probability)} of one measure: each
    strategy of `distributions`, each seat of an nway or sequential table, or
    each strategy of a pair section pooled over its opponents and seats (no
    exact value then: it would need every pair's)."""
    m = results.measures
    m = m[(m["measure"] == measure) & (m["section"] == section)]
    if table is not None:
        m = m[m["table"] == table]
    if section in ("headtohead", "sequential"):
        pooled = m.groupby(["strategy", "value"], sort=False)["count"].sum().reset_index()
        return {name: rows.assign(exact_probability=np.nan) for name, rows in pooled.groupby("strategy", sort=False)}
    key = "strategy" if table is None else "seat"
    return {(name if table is None else f"seat {name}: {rows['strategy'].iloc[0]}"): rows
            for name, rows in m.groupby(key, sort=False)}


def _shown_range(histograms, tail=0.0005):
    """The values between the `tail` and 1 - `tail` quantiles of all the
    histograms' counts together: a rare long tail would squash the rest."""
    pooled = pd.concat(histograms.values()).groupby("value")["count"].sum().sort_index() if histograms else None
    if pooled is None or pooled.sum() == 0:
        return 0, 0
    cumulative = pooled.cumsum() / pooled.sum()
    return cumulative.index[cumulative.searchsorted(tail)], cumulative.index[cumulative.searchsorted(1 - tail)]


def plot_measure(results, measure, section, table=None, ax=None):
    """The histograms of one measure (turns, turn_score, first_turn, place, ...)
    as fractions with 95% intervals (Wilson, the values taken as independent
    draws): points with bars for a few values, else lines with bands; the exact
    distribution, where the file has it, as black marks or a dashed line."""
    ax = _axes(ax, (8, 4.5))
    histograms = measure_histograms(results, measure, section, table)
    first, last = _shown_range(histograms)
    width = 0.8 / max(len(histograms), 1)
    for k, (label, h) in enumerate(histograms.items()):
        h = h[(h["value"] >= first) & (h["value"] <= last)]
        total = h["count"].sum()
        if total == 0:
            continue
        fraction = h["count"].to_numpy(dtype=float) / total
        bars = _error_bars(h["count"], total)
        few = len(h) <= MOST_BINS_AS_POINTS
        x = h["value"].to_numpy(dtype=float) + ((k - (len(histograms) - 1) / 2) * width if few else 0.0)
        if few:
            line = ax.errorbar(x, fraction, yerr=bars, fmt="o", markersize=4, capsize=3, label=_t(label))[0]
        else:
            line = ax.plot(x, fraction, linewidth=1, label=_t(label))[0]
            ax.fill_between(x, fraction - bars[0], fraction + bars[1], color=line.get_color(), alpha=0.25, linewidth=0)
        if h["exact_probability"].notna().any():
            ax.plot(x, h["exact_probability"], "_" if few else "--", color="black", linewidth=0.8, markersize=10)
    if any(h["exact_probability"].notna().any() for h in histograms.values()):
        ax.plot([], [], "--", color="black", linewidth=0.8, label="exact")
    ax.set_xlabel(_t(measure))
    ax.set_ylabel("fraction of values (95% intervals)")
    where = section if table is None else f"{section} table {table}"
    pooled = " (each strategy pooled over opponents and seats)" if section in ("headtohead", "sequential") else ""
    ax.set_title(_t(f"{measure}: {where}{pooled}"))
    if histograms:
        ax.legend(fontsize="small")
    return ax


def plot_mc_vs_exact(results, ax=None):
    """Every Monte Carlo number's z-score against its exact counterpart, with the
    |z| limit that `dicesim check` applies."""
    ax = _axes(ax, (8, 4))
    checks = results.checks
    if checks.empty:
        ax.set_title("no exact comparison in this file (run `dicesim check`)")
        return ax
    for kind, group in checks.groupby("kind"):
        ax.plot(group.index, group["z"], "o", markersize=3, label=_t(kind))
    limit = checks.attrs["z_limit"]
    for y in (-limit, limit):
        ax.axhline(y, color="red", linestyle="--", linewidth=1)
    ax.set_xlabel("compared number")
    ax.set_ylabel("z (Monte Carlo against exact)")
    ax.set_title(f"{len(checks)} numbers against the exact solver, {int((~checks['passed']).sum())} beyond |z| > {limit:g}")
    ax.legend(fontsize="small", ncol=4)
    return ax


def _sweep_label(rows, opponent):
    """What a sweep's figure is, from sweep_values' rows."""
    if "seat" in rows:
        section = rows["section"].iloc[0]
        return f"outright win rate ({section}) against {_seated(rows['opponent'].iloc[0])}"
    if opponent is not None:
        return f"score rate against {opponent} (wins + ties/2)"
    return "mean score"


def _seated(others):
    """The other seats of a table, in seating order, as text."""
    return ", ".join(others)


def _lowest_is_best(results, rows, opponent):
    """Whether a sweep's best is its lowest value: the mean score where the
    lowest score wins (Sixers); never a rate (against an opponent, at tables)."""
    rates = opponent is not None or "seat" in rows
    return not rates and bool(int(results.meta.get("lowest_score_wins", 0)))


def _best_index(values, lowest):
    """Where the best value is: the lowest or the highest."""
    return int(np.nanargmin(values) if lowest else np.nanargmax(values))


def _lead(results, rows, opponent):
    """(runner-up, whether the best of sweep_values' `rows` leads it beyond
    chance): for rates (against an opponent, or at tables, per seat)
    sweep_best's test, the one of best_responses; for the mean score
    lowest_means' z of two means (or its mirror where the highest mean is best)."""
    from .ranking import sweep_best

    if opponent is not None or "seat" in rows:
        best = sweep_best(rows).iloc[0]
        return best["runner_up"], bool(best["beyond_chance"])
    lowest = _lowest_is_best(results, rows, opponent)
    ordered = rows.sort_values("value", ascending=lowest, kind="stable")
    if len(ordered) < 2:
        return None, True
    a, b = ordered.iloc[0], ordered.iloc[1]
    s = results.summary.set_index("strategy")
    spread = np.sqrt(s.at[a["strategy"], "sd"] ** 2 / a["games"] + s.at[b["strategy"], "sd"] ** 2 / b["games"])
    margin = abs(a["value"] - b["value"])
    return b["strategy"], bool(margin > Z95 * spread) if spread > 0 else bool(margin > 0)


def _sweep_rows(results, opponent, family, mode, seat, parameters, head_starts=None):
    """sweep_values' rows of `family` (if given) that have every parameter."""
    from .ranking import sweep_values

    rows = sweep_values(results, opponent, mode, seat, head_starts)
    if family is not None:
        rows = rows[rows["family"] == family]
    missing = [p for p in parameters if p not in rows]
    if missing or rows.empty:
        raise ValueError(f"no strategy has the parameter{'s' if len(parameters) > 1 else ''} "
                         f"{' and '.join(map(repr, parameters))}")
    return rows[rows[list(parameters)].notna().all(axis=1)]


def _draw_sweep_curve(ax, results, rows, parameter, opponent, name=""):
    """One curve of plot_sweep: the figure, its band, the exact curve and the
    best marked. name: what tells this curve from the others ("seat 1: ")."""
    rows = rows.sort_values(parameter, kind="stable")
    x = rows[parameter].to_numpy(float)
    value = rows["value"].to_numpy(float)
    line = ax.plot(x, value, "o-", markersize=3, linewidth=1, label=_t(f"{name}Monte Carlo"))[0]
    ax.fill_between(x, rows["low"], rows["high"], color=line.get_color(), alpha=0.25, linewidth=0,
                    label=_t(f"{name}95% interval"))
    if rows["exact"].notna().any():
        ax.plot(x, rows["exact"], "--", color="black" if not name else line.get_color(), linewidth=0.8,
                label=_t(f"{name}exact"))
    best = _best_index(value, _lowest_is_best(results, rows, opponent))
    runner_up, beyond = _lead(results, rows, opponent)
    if beyond:
        ax.plot([x[best]], [value[best]], "*", color="crimson", markersize=12,
                label=_t(f"{name}best: {rows['strategy'].iloc[best]}"))
    else:  # an open star: the lead over the runner-up could be chance
        ax.plot([x[best]], [value[best]], "*", markerfacecolor="none", markeredgecolor="crimson", markersize=12,
                label=_t(f"{name}best within chance of {runner_up}: {rows['strategy'].iloc[best]}"))


def plot_sweep(results, parameter, opponent=None, family=None, ax=None, mode=None, seat=None, head_starts=None):
    """A figure against one swept parameter: sweep_values' figure (the score
    rate against `opponent`; without one, the mean score; at tables of three
    or more, the outright win rate, one curve per swept seat) of each
    strategy that has the parameter (of `family` if given), with its 95%
    band, the exact curve where the file has it, and the best value marked:
    a filled star where its lead over the runner-up is beyond chance
    (best_responses' test, or lowest_means' for the mean), an open one
    labelled "within chance of" where it is not. opponent, mode and seat
    are sweep_values'."""
    rows = _sweep_rows(results, opponent, family, mode, seat, [parameter], head_starts)
    ax = _axes(ax, (8, 4.5))
    if "seat" in rows:
        seats = rows.groupby("seat", sort=True)
        for number, curve in seats:
            _draw_sweep_curve(ax, results, curve, parameter, opponent, f"seat {number}: " if len(seats) > 1 else "")
    else:
        _draw_sweep_curve(ax, results, rows, parameter, opponent)
    label = _sweep_label(rows, opponent)
    ax.set_xlabel(_t(parameter))
    ax.set_ylabel(_t(label if "seat" not in rows else "outright win rate"))
    swept = f", seat {rows['seat'].iloc[0]}" if "seat" in rows and rows["seat"].nunique() == 1 else ""
    ax.set_title(_t(f"{label}, by {parameter}{swept}"), fontsize="medium")
    ax.legend(fontsize="small")
    return ax


def plot_sweep_map(results, x, y, opponent=None, family=None, ax=None, mode=None, seat=None, head_starts=None):
    """A heat map over two swept parameters (x across, y down) of the score
    rate against `opponent` (or the mean score), each cell with its 95%
    half-width where the grid is small enough to read, the best cell boxed
    (a dashed box, and the title says so, where its lead over the runner-up
    is within chance, as in plot_sweep). opponent, mode and seat are
    sweep_values'; a sweep at tables with several swept seats needs seat=."""
    rows = _sweep_rows(results, opponent, family, mode, seat, [x, y], head_starts)
    if "seat" in rows and rows["seat"].nunique() > 1:
        raise ValueError(f"the sweep sits in seats {', '.join(map(str, sorted(set(rows['seat']))))}: "
                         "pass seat= to map one")
    grid = rows.pivot_table(index=y, columns=x, values="value", aggfunc="mean")
    half = rows.assign(half=(rows["high"] - rows["low"]) / 2).pivot_table(index=y, columns=x, values="half")
    values = grid.to_numpy(float)
    ax = _axes(ax, (2.5 + 0.6 * grid.shape[1], 1.5 + 0.45 * grid.shape[0]))
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    ax.set_xticks(range(grid.shape[1]), [f"{v:g}" for v in grid.columns], rotation=45, ha="right")
    ax.set_yticks(range(grid.shape[0]), [f"{v:g}" for v in grid.index])
    if values.size <= 144:  # beyond 12 x 12 the numbers no longer fit their cells
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                if np.isfinite(values[i, j]):
                    ax.text(j, i, f"{values[i, j]:.3g}\n±{half.to_numpy()[i, j]:.2g}", ha="center", va="center",
                            fontsize=7, color=_text_colour(image.cmap(image.norm(values[i, j]))))
    flat = _best_index(values.reshape(-1), _lowest_is_best(results, rows, opponent))
    i, j = divmod(flat, values.shape[1])
    runner_up, beyond = _lead(results, rows, opponent)
    ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="crimson", linewidth=2.5,
                               linestyle="-" if beyond else "--"))
    ax.set_xlabel(_t(x))
    ax.set_ylabel(_t(y))
    boxed = "boxed" if beyond else f"dashed box: within chance of {runner_up}"
    ax.set_title(_t(f"{_sweep_label(rows, opponent)}; best {x}={grid.columns[j]:g}, {y}={grid.index[i]:g} ({boxed})"))
    ax.figure.colorbar(image, ax=ax, fraction=0.046)
    return ax
