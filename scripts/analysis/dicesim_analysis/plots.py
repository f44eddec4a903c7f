"""Plots of dicesim results: each helper draws on an Axes and returns it."""

from statistics import NormalDist

import matplotlib.pyplot as plt
import numpy as np


def _axes(ax, size=(7, 4.5)):
    if ax is None:
        _, ax = plt.subplots(figsize=size)
    return ax


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
        bars = ax.bar(d["score"] + offset, d["probability"], width=width, alpha=0.75, label=f"{name} (Monte Carlo)")
        if exact and d["exact_probability"].notna().any():
            ax.plot(d["score"] + offset, d["exact_probability"], "_", markersize=7, mew=1.5,
                    color=bars.patches[0].get_facecolor(), alpha=1.0)
    if exact and data["exact_probability"].notna().any():
        ax.plot([], [], "_", color="black", label="exact")
    ax.set_xlabel("score")
    ax.set_ylabel("fraction of games")
    ax.set_title(title or "score distributions")
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
    ax.set_title(f"normal probability plot: {strategy}")
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
        labels = list(t["strategy"]) + ["ties"]
        counts = list(t["wins"]) + [t["tie_games"].iloc[0]]
        games = t["games"].iloc[0]
        exact = list(t["exact_win"]) + [t["exact_tie"].iloc[0]]
    ax.bar(labels, counts, color=["C0"] * (len(labels) - 1) + ["gray"], label="Monte Carlo")
    if all(e is not None and not np.isnan(e) for e in exact):
        ax.plot(labels, np.array(exact) * games, "k_", markersize=25, mew=2, label="exact")
        ax.legend(fontsize="small")
    ax.set_ylabel(f"games of {games:,} won (or tied)")
    ax.set_title("head to head" if pair else f"{section} table {table}")
    return ax


def plot_headtohead(results, mode="headtohead", value="win_rate", ax=None):
    """Heatmap of a pairwise matrix labelled with strategy names; row = first seat."""
    h = results.headtohead[results.headtohead["mode"] == mode]
    names = list(results.strategies["strategy"])
    matrix = h.pivot(index="strategy", columns="opponent", values=value).reindex(index=names, columns=names)
    ax = _axes(ax, (1.2 + 0.7 * len(names), 0.8 + 0.6 * len(names)))
    values = matrix.to_numpy(dtype=float)
    if "rate" in value:
        limits = (0.0, 1.0)
    else:  # signed (seat advantage, z): a scale centred on 0
        reach = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
        limits = (-reach, reach)
    image = ax.imshow(values, cmap="RdBu", vmin=limits[0], vmax=limits[1])
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            v = matrix.iat[i, j]
            if not np.isnan(v):
                ax.text(j, i, f"{v:.3f}", ha="center", va="center", fontsize=7)
    seats = mode == "sequential"  # blind head to head has no seat order
    ax.set_xlabel("opponent (plays second)" if seats else "opponent")
    ax.set_ylabel("strategy (plays first)" if seats else "strategy")
    ax.set_title(f"{mode}: {value}")
    ax.figure.colorbar(image, ax=ax, fraction=0.046)
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
        ax.plot(group.index, group["z"], "o", markersize=3, label=kind)
    limit = checks.attrs["z_limit"]
    for y in (-limit, limit):
        ax.axhline(y, color="red", linestyle="--", linewidth=1)
    ax.set_xlabel("compared number")
    ax.set_ylabel("z (Monte Carlo against exact)")
    ax.set_title(f"{len(checks)} numbers against the exact solver, {int((~checks['passed']).sum())} beyond |z| > {limit:g}")
    ax.legend(fontsize="small", ncol=4)
    return ax
