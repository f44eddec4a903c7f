"""Writes a self-contained HTML report of a dicesim results file: tables and
plots, the plots embedded as PNG, nothing fetched from anywhere.

    dicesim-report results/sixers.h5 [-o results/sixers.html]
    python3 -m dicesim_analysis.report results/sixers.h5
"""

import argparse
import base64
import html
import io
import os
import sys

import matplotlib.pyplot as plt

from .errors import DicesimError, printable
from .load import load
from .plots import (
    INTERVALS,
    mc_minus_exact,
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
from .ranking import best_responses, rank, sweep_best, sweep_values, table_sweeps
from .safe import refuse_clashes, write_atomically

STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f0f0f0}img{max-width:100%}.bad{color:#b00;font-weight:bold}"""
PAIR_SECTIONS = ("headtohead", "sequential")
TABLE_SECTIONS = ("nway", "sequential_tables")
# Above this many tables in a section, its per-table plots fold into one
# table of numbers (a sweep's curve says the rest): 40 tables drew 240 images.
MOST_TABLES_DRAWN = 12
# The most opponents (pairs) or table sweeps drawn per swept family.
MOST_SWEEP_PLOTS = 6


def figure_html(ax, caption):
    """An Axes that a plot drew on a figure of its own size, as an embedded PNG."""
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=90)
    plt.close(ax.figure)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}"><figcaption>{html.escape(caption)}</figcaption></figure>'


def with_intervals(frame, columns, digits=4):
    """The estimated columns as text, "0.5081 [0.5071, 0.5091]": each estimate with
    its 95% interval."""
    frame = frame.copy()
    for column in columns:
        low, high = INTERVALS[column]
        frame[column] = [f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
                         for v, lo, hi in zip(frame[column], frame[low], frame[high])]
    return frame


def table_html(frame, columns, digits=4):
    estimates = [c for c in columns if c in INTERVALS]
    return with_intervals(frame, estimates, digits)[columns].to_html(
        index=False, float_format=lambda v: f"{v:.{digits}f}", border=0)


def difference_html(results, section):
    """Monte Carlo minus exact of a section's estimates, where the file has exact values."""
    if results.has_exact and not mc_minus_exact(results, section).empty:
        return [figure_html(plot_mc_minus_exact(results, section), f"{section}: Monte Carlo minus exact")]
    return []


def facts_html(results):
    meta = results.meta
    status = "complete" if results.complete else '<span class="bad">INCOMPLETE (interrupted)</span>'
    facts = [("game", meta.get("game")), ("config file", meta.get("config_file")), ("seed", meta.get("seed_text")),
             ("games per table", f"{meta['games']:,}"), ("wall time", f"{meta['wall_seconds']:.2f} s"),
             ("threads", meta.get("threads")), ("dicesim", f"{meta.get('program_version')} ({meta.get('git_revision')})")]
    rows = [f"<tr><th>{k}</th><td>{html.escape(str(v))}</td></tr>" for k, v in facts]
    rows.insert(4, f"<tr><th>status</th><td>{status}</td></tr>")  # already HTML
    return [f"<h1>dicesim report: {html.escape(str(meta.get('name', '')))}</h1>", "<table>" + "".join(rows) + "</table>"]


def distributions_html(results):
    if results.summary.empty:
        return []
    parts = ["<h2>Score distributions</h2>"]
    columns = [c for c in ("strategy", "games", "mean", "sd", "p_min") if c in results.summary]
    if results.has_exact:
        columns += ["exact_mean", "exact_sd", "z_mean"]
    parts.append(table_html(results.summary, columns))
    parts += difference_html(results, "distributions")
    names = list(results.summary["strategy"])
    for start in range(0, len(names), 4):
        group = names[start:start + 4]
        parts.append(figure_html(plot_distributions(results, group), "score distributions: " + ", ".join(group)))
    parts.append(figure_html(plot_normal_probability(results, names[0]), f"normal probability plot: {names[0]}"))
    return parts


def pairs_html(results):
    parts = []
    for mode in PAIR_SECTIONS:
        pairs = results.headtohead[results.headtohead["mode"] == mode]
        if pairs.empty:
            continue
        parts.append(f"<h2>{'Head to head' if mode == 'headtohead' else 'Sequential (row plays first)'}</h2>")
        parts.append(figure_html(plot_headtohead(results, mode=mode), f"{mode}: win rate of the row"))
        columns = ["strategy", "opponent", "games", "win_rate", "tie_rate"]
        columns += ["seat_advantage"] if mode == "sequential" else []
        if results.has_exact:
            columns += ["exact_win", "z_win"]
        parts.append(table_html(pairs, columns))
        parts += difference_html(results, mode)
    return parts


def swept_parameters(results):
    """{family: [parameters]}: the parameters that take three values or more
    among a family's strategies, the ones a sweep varies."""
    swept = {}
    parameters = results.strategies.drop(columns=["strategy", "spec", "family"])
    for family, rows in results.strategies.groupby("family", sort=False):
        varied = [p for p in parameters if rows[p].nunique() >= 3]
        if varied:
            swept[family] = varied
    return swept


def ranking_html(results):
    """Bradley-Terry strengths and best responses of the pairs, where more than
    two strategies met."""
    if results.headtohead.empty:
        return ranking_at_tables_html(results)
    try:
        ranked = rank(results)
    except ValueError as error:  # strategies in groups that never meet
        return [f"<h2>Ranking</h2><p>{html.escape(str(error))}</p>"]
    if len(ranked) <= 2:
        return []
    parts = ["<h2>Ranking</h2>", "<p>Bradley-Terry strengths (log-odds of winning, centred; a tie counts half), "
             "strongest first, with 95% intervals; the 30 strongest shown.</p>",
             table_html(ranked.head(30), ["rank", "strategy", "strength", "games", "score_rate"], digits=3)]
    best = best_responses(results)
    parts += ["<h3>Best response to each opponent</h3>",
              "<p>The strategy that scores most against it (wins + ties/2, both seats in sequential play), "
              "its lead over the runner-up with a 95% interval, and whether that lead is beyond chance.</p>",
              table_html(best.head(50), ["opponent", "best", "best_rate", "runner_up", "runner_up_rate", "margin",
                                         "z", "beyond_chance"])]
    return parts


def ranking_at_tables_html(results):
    """A file of tables only: the strategies by their outright win rate over
    every seat they played (rank_at_tables), with the equal player's rate."""
    if results.nway.empty or results.nway["strategy"].nunique() <= 2:
        return []
    ranked = rank(results)
    return ["<h2>Ranking</h2>", "<p>Outright win rate over every seat each strategy played (a shared win counts "
            "nothing), best first, with 95% intervals, beside the rate an equal player would win at the same "
            "tables; the 30 best shown. Strategies at other tables are not compared on equal terms: the sweeps "
            "above compare like with like.</p>",
            table_html(ranked.head(30), ["rank", "strategy", "win_rate", "fair_rate", "shared_rate", "games",
                                         "tables"], digits=3)]


def sweeps_html(results):
    """Per swept family: its figure against each parameter (one swept) or a
    heat map (two), against each strategy outside the family that met it, and
    the mean score where the file has distributions."""
    parts = []
    for family, parameters in swept_parameters(results).items():
        members = set(results.strategies.loc[results.strategies["family"] == family, "strategy"])
        pairs = results.headtohead
        met = pairs[pairs["strategy"].isin(members) & ~pairs["opponent"].isin(members)]
        opponents = list(dict.fromkeys(met["opponent"]))[:MOST_SWEEP_PLOTS]
        if met.empty and not pairs.empty:  # a round robin of the family: against its strongest
            opponents = [rank(results)["strategy"].iloc[0]]
        targets = ([None] if not results.summary.empty else []) + opponents
        for opponent in targets:
            against = "mean score" if opponent is None else f"against {opponent}"
            if len(parameters) == 1:
                parts.append(figure_html(plot_sweep(results, parameters[0], opponent, family),
                                         f"{family} by {parameters[0]}: {against}"))
            else:
                x, y = parameters[:2]
                parts.append(figure_html(plot_sweep_map(results, x, y, opponent, family),
                                         f"{family} by {x} and {y}: {against}"))
        parts += table_sweeps_html(results, family, parameters)
    return (["<h2>Sweeps</h2>"] + parts) if parts else []


def _family_table_sweeps(results, family):
    """The sweeps at tables (table_sweeps' rows) whose swept seats hold the
    family's strategies."""
    if results.nway.empty:
        return []
    found = []
    for sweep in table_sweeps(results).itertuples(index=False):
        rows = sweep_values(results, sweep.opponent, sweep.section, head_starts=sweep.head_starts)
        if (rows["family"] == family).sum() >= 2:
            found.append((sweep, rows[rows["family"] == family]))
    return found[:MOST_SWEEP_PLOTS]


def table_sweeps_html(results, family, parameters):
    """Per sweep of the family at tables of three or more: the outright win
    rate by the swept parameter, one curve per swept seat (a heat map per
    seat for two parameters), and each seat's best with its interval."""
    found = _family_table_sweeps(results, family)
    parts = [f"<p>{html.escape(family)} at tables: each swept seat's outright win rate (a shared win counts "
             "nothing) with its 95% band, the exact curve where the file has it, and the best starred (an open "
             "star where its lead over the runner-up is within chance).</p>"] if found else []
    for sweep, rows in found:
        against = f"{sweep.section} against {', '.join(sweep.opponent)}"
        if any(sweep.head_starts):
            against += f", head starts {', '.join(map(str, sweep.head_starts))}"
        if len(parameters) == 1:
            parts.append(figure_html(plot_sweep(results, parameters[0], sweep.opponent, family, mode=sweep.section,
                                                head_starts=sweep.head_starts),
                                     f"{family} by {parameters[0]}: {against}"))
        else:
            x, y = parameters[:2]
            for seat in sweep.seats:
                parts.append(figure_html(plot_sweep_map(results, x, y, sweep.opponent, family, mode=sweep.section,
                                                        seat=seat, head_starts=sweep.head_starts),
                                         f"{family} by {x} and {y}: {against}, seat {seat}"))
        best = sweep_best(rows).rename(columns={"value": "win_rate", "low": "win_low", "high": "win_high",
                                                "exact": "exact_win"}).astype({"seat": "int64"})
        exact = ["exact_win", "exact_best"] if rows["exact"].notna().any() else []
        parts.append(table_html(best, ["seat", "best", "win_rate", *exact[:1], "runner_up", "margin",
                                       "beyond_chance", *exact[1:]]))
    return parts


def _many_tables(results, section):
    """Whether a table section has too many tables to draw one by one."""
    tables = results.nway[results.nway["section"] == section]
    return tables["table"].nunique() > MOST_TABLES_DRAWN


def folded(summary, inner):
    """HTML collapsed under a one-line summary (no images inside: the page stays small)."""
    return f"<details><summary>{html.escape(summary)}</summary>{inner}</details>"


def tables_html(results):
    """Each table's wins, a plot and its rows; a section of more than
    MOST_TABLES_DRAWN tables as one table of every seat, folded."""
    if results.nway.empty:
        return []
    parts = ["<h2>Tables</h2>"]
    columns = ["seat", "strategy", "games", "wins", "win_rate", "tied", "tie_rate"]
    columns += ["head_start"] if results.nway["head_start"].any() else []
    columns += ["exact_win", "z_win"] if results.has_exact else []
    for section in TABLE_SECTIONS:
        tables = results.nway[results.nway["section"] == section]
        if tables.empty:
            continue
        if _many_tables(results, section):
            count = tables["table"].nunique()
            parts.append(folded(f"{section}: {count} tables, one row per seat (not drawn: more than "
                                f"{MOST_TABLES_DRAWN}; plot_win_counts(results, table, {section!r}) draws one)",
                                table_html(tables, ["table"] + columns)))
            continue
        for table, rows in tables.groupby("table"):
            parts.append(figure_html(plot_win_counts(results, table, section), f"{section} table {table}: wins"))
            parts.append(table_html(rows, columns))
        parts += difference_html(results, section)
    return parts


def measures_html(results):
    """Every histogram the file records but the score distributions (shown
    above): turns, turn score, first turn, place, ... per section and table."""
    m = results.measures
    shown = m[~((m["measure"] == "score") & (m["section"] == "distributions"))]
    # The measures in the file's order; in each, the sections in the page's.
    order = {"measure": {name: k for k, name in enumerate(m["measure"].unique())},
             "section": {name: k for k, name in enumerate(("distributions",) + PAIR_SECTIONS + TABLE_SECTIONS)}}
    many = [section for section in TABLE_SECTIONS if _many_tables(results, section)]
    shown = shown[~shown["section"].isin(many)]
    groups = shown[["measure", "section", "table"]].drop_duplicates()
    groups = groups.sort_values(["measure", "section", "table"], key=lambda c: c.astype(object).map(order[c.name]) if c.name in order else c)
    if groups.empty and not many:
        return []
    parts = ["<h2>Histograms</h2>"]
    for measure, section, table in groups.itertuples(index=False):
        where = section if table < 0 else f"{section} table {table}"
        parts.append(figure_html(plot_measure(results, measure, section, None if table < 0 else table),
                                 f"{measure}: {where}"))
    for section in many:
        parts.append(folded(f"{section}: each seat's mean of every measure (histograms not drawn: more than "
                            f"{MOST_TABLES_DRAWN} tables; plot_measure(results, measure, {section!r}, table) "
                            "draws one)",
                            seat_means(m[m["section"] == section]).to_html(
                                index=False, float_format=lambda v: f"{v:.3f}", border=0)))
    return parts


def seat_means(measures):
    """Per table and seat of the measures' long form: the strategy and the
    mean of each measure, a column per measure."""
    weighted = measures.assign(total=measures["value"] * measures["count"])
    keys = ["table", "seat", "strategy", "measure"]
    sums = weighted.groupby(keys, observed=True, sort=True)[["total", "count"]].sum()
    means = (sums["total"] / sums["count"]).unstack("measure")
    return means.reset_index().rename(columns=lambda c: c if c in ("table", "seat", "strategy") else f"mean {c}")


def checks_html(results):
    parts = ["<h2>Monte Carlo against exact</h2>"]
    if results.checks.empty:
        parts.append("<p>This file holds no exact comparison; <code>dicesim check</code> writes one.</p>")
        return parts
    failed = results.checks[~results.checks["passed"]]
    parts.append(f"<p>{len(results.checks)} numbers compared, "
                 + (f'<span class="bad">{len(failed)} beyond the limit</span>' if len(failed) else "none beyond the limit")
                 + f"; largest |z| {results.checks['z'].abs().max():.2f}.</p>")
    parts.append(figure_html(plot_mc_vs_exact(results), "z-scores of every compared number"))
    if len(failed):
        parts.append(table_html(failed, ["name", "kind", "observed", "expected", "z"]))
    return parts


def build(results):
    parts = (facts_html(results) + distributions_html(results) + sweeps_html(results) + ranking_html(results)
             + pairs_html(results) + tables_html(results) + measures_html(results) + checks_html(results))
    body = "\n".join(parts)
    return f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>dicesim report</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n'


def main(argv=None):
    """The command `dicesim-report` (and `python3 -m dicesim_analysis.report`): an exit code."""
    # Drawn to files only: no display needed, whatever backend the environment asks for.
    plt.switch_backend("Agg")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a dicesim results file (.h5)")
    parser.add_argument("-o", "--output", help="HTML file to write (default: the results file with .html)")
    args = parser.parse_args(argv)
    output = args.output or os.path.splitext(args.results)[0] + ".html"
    try:
        refuse_clashes([output], [args.results])  # before any work: never the results replaced by HTML
        results = load(args.results)
    except DicesimError as error:
        print(printable(error), file=sys.stderr)
        return 2
    page = build(results)
    try:  # the final name only ever holds a whole page
        write_atomically(output, page)
    except DicesimError as error:
        print(printable(error), file=sys.stderr)
        return 3
    print(printable(f"wrote {output}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
