"""Load dicesim results files into pandas and plot them.

    from dicesim_analysis import load
    results = load("results/sixers.h5")
    results.summary          # per strategy: mean, sd, 95% interval, exact mean, z
    results.headtohead       # per pair: rates, Wilson intervals, seat advantage, exact
    results.nway             # per table and seat: wins, Wilson intervals, exact
    results.distributions    # long form: strategy, score, count, probability, exact
    results.measures         # long form of every histogram the game records (score, turns, ...)
                             # per distribution and per seat of n-way / sequential tables
    results.checks           # Monte Carlo against exact: z-scores
    results.strategies       # per strategy: spec, family and a column per parameter
    rank(results)            # Bradley-Terry strengths with 95% intervals
    best_responses(results)  # per opponent: the best strategy, its margin, beyond chance?

Built on numpy, h5py, pandas and matplotlib only (Debian's python3-* packages).
"""

# The package's own version (pyproject.toml reads it from here).
__version__ = "1.4.0"  # 1.4: reads results format 3.0 (fixed-length strings), checking its content checksum

from .load import Results, load, wilson_interval, mean_difference_z
from .plots import (
    plot_distributions,
    plot_headtohead,
    plot_mc_minus_exact,
    plot_mc_vs_exact,
    plot_measure,
    plot_normal_probability,
    plot_sweep,
    plot_sweep_map,
    plot_win_counts,
)
from .ranking import best_responses, lowest_means, rank, scores_against, sweep_values

__all__ = [
    "__version__",
    "Results",
    "load",
    "wilson_interval",
    "mean_difference_z",
    "plot_distributions",
    "plot_headtohead",
    "plot_mc_minus_exact",
    "plot_mc_vs_exact",
    "plot_measure",
    "plot_normal_probability",
    "plot_sweep",
    "plot_sweep_map",
    "plot_win_counts",
    "rank",
    "best_responses",
    "lowest_means",
    "scores_against",
    "sweep_values",
]
