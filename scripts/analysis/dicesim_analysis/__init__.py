"""Run dicesim, load its results files into pandas and xarray, and plot them.

    import dicesim_analysis as da
    results = da.run("configs/sixers.json", games=10_000, check=True)  # plays it, returns load()'s Results
    results = da.load("results/sixers.h5")
    results.summary          # per strategy: mean, sd, 95% interval, exact mean, z
    results.headtohead       # per pair: rates, Wilson intervals, seat advantage, exact
    results.nway             # per table and seat: wins, Wilson intervals, exact
    results.distributions    # long form: strategy, score, count, probability, exact
    results.measures         # long form of every histogram the game records (score, turns, ...)
                             # per distribution and per seat of n-way / sequential tables
    results.checks           # Monte Carlo against exact: z-scores
    results.strategies       # per strategy: spec, family and a column per parameter
    results.to_xarray()      # every section and histogram as xarray Datasets, dims strategy, opponent, table, seat, ...
    rank(results)            # Bradley-Terry strengths with 95% intervals
    best_responses(results)  # per opponent: the best strategy, its margin, beyond chance?
    sweep_values(results)    # a sweep's figure per strategy (and per swept seat at tables of 3+)

Built on numpy, h5py, pandas and matplotlib (Debian's python3-* packages);
to_xarray needs xarray. The reference: scripts/analysis/README.md.
"""

# The package's own version (pyproject.toml reads it from here).
# 1.7: sweeps at tables of three or more (sweep_values, plot_sweep, table_sweeps, sweep_best,
#      rank_at_tables), the report's
#      curve per swept seat with many tables folded; results.nway keyed by seat with head_start
# 1.6: reads as guardedly as dicesim (results_layout.json, `dicesim schema --results-layout`); format 3 only;
#      every error a one-line DicesimError; writes through one safe writer; run() always passes -o
# 1.5: run() and solve() call dicesim, Results.to_xarray, the dicesim-report command, summary_schema()
# 1.4: reads results format 3.0 (fixed-length strings), checking its content checksum
__version__ = "1.7.0"

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
from .ranking import (best_responses, lowest_means, rank, rank_at_tables, rate_lead, scores_against, sweep_best,
                      sweep_values, table_sweeps)
from .errors import DicesimError, ResultsFileError
from .runner import find_binary, run, solve
from .xarray_view import open_xarray


def summary_schema():
    """The JSON Schema (draft 2020-12) of `dicesim show --json` and `dicesim run --json FILE`,
    as shipped with the package (the same as `dicesim schema --summary` prints)."""
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parent / "summary_schema.json").read_text())


__all__ = [
    "__version__",
    "DicesimError",
    "ResultsFileError",
    "Results",
    "find_binary",
    "open_xarray",
    "run",
    "solve",
    "summary_schema",
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
    "rank_at_tables",
    "rate_lead",
    "table_sweeps",
    "sweep_best",
    "best_responses",
    "lowest_means",
    "scores_against",
    "sweep_values",
]
