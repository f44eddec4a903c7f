#!/usr/bin/python3
"""Writes a self-contained HTML report of a dicesim results file: tables and
plots, the plots embedded as PNG, nothing fetched from anywhere.

    /usr/bin/python3 scripts/report.py results/sixers.h5 [-o results/sixers.html]
"""

import argparse
import base64
import html
import io
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from dicesim_analysis import (  # noqa: E402
    load,
    plot_distributions,
    plot_headtohead,
    plot_mc_vs_exact,
    plot_normal_probability,
    plot_win_counts,
)

STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f0f0f0}img{max-width:100%}.bad{color:#b00;font-weight:bold}"""


def figure_html(draw, caption):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    draw(ax)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}"><figcaption>{html.escape(caption)}</figcaption></figure>'


def table_html(frame, columns, digits=4):
    return frame[columns].to_html(index=False, float_format=lambda v: f"{v:.{digits}f}", border=0)


def build(results):
    meta = results.meta
    parts = [f"<h1>dicesim report: {html.escape(str(meta.get('name', '')))}</h1>"]
    status = "complete" if results.complete else '<span class="bad">INCOMPLETE (interrupted)</span>'
    facts = [("game", meta.get("game")), ("config file", meta.get("config_file")), ("seed", meta.get("seed_text")),
             ("games per table", f"{meta['games']:,}"), ("wall time", f"{meta['wall_seconds']:.2f} s"),
             ("threads", meta.get("threads")), ("dicesim", f"{meta.get('program_version')} ({meta.get('git_revision')})")]
    rows = [f"<tr><th>{k}</th><td>{html.escape(str(v))}</td></tr>" for k, v in facts]
    rows.insert(4, f"<tr><th>status</th><td>{status}</td></tr>")  # already HTML
    parts.append("<table>" + "".join(rows) + "</table>")

    if not results.summary.empty:
        parts.append("<h2>Score distributions</h2>")
        columns = [c for c in ["strategy", "games", "mean", "sd", "ci_low", "ci_high", "p_min"] if c in results.summary]
        if results.has_exact:
            columns += ["exact_mean", "exact_sd", "z_mean"]
        parts.append(table_html(results.summary, columns))
        names = list(results.summary["strategy"])
        for start in range(0, len(names), 4):
            group = names[start:start + 4]
            parts.append(figure_html(lambda ax, g=group: plot_distributions(results, g, ax=ax),
                                     "score distributions: " + ", ".join(group)))
        parts.append(figure_html(lambda ax: plot_normal_probability(results, names[0], ax=ax),
                                 f"normal probability plot: {names[0]}"))

    if not results.headtohead.empty:
        for mode in results.headtohead["mode"].unique():
            parts.append(f"<h2>{'Head to head' if mode == 'headtohead' else 'Sequential (row plays first)'}</h2>")
            parts.append(figure_html(lambda ax, m=mode: plot_headtohead(results, mode=m, ax=ax), f"{mode}: win rate of the row"))
            columns = ["strategy", "opponent", "games", "win_rate", "win_low", "win_high", "tie_rate", "seat_advantage"]
            if results.has_exact:
                columns += ["exact_win", "z_win"]
            parts.append(table_html(results.headtohead[results.headtohead["mode"] == mode], columns))

    if not results.nway.empty:
        parts.append("<h2>Tables</h2>")
        for (section, table), rows in results.nway.groupby(["section", "table"]):
            parts.append(figure_html(lambda ax, s=section, t=table: plot_win_counts(results, t, s, ax=ax), f"{section} table {table}: wins"))
            columns = ["seat", "strategy", "games", "wins", "win_rate", "win_low", "win_high", "tied", "tie_rate"]
            if results.has_exact:
                columns += ["exact_win", "z_win"]
            parts.append(table_html(rows, columns))

    parts.append("<h2>Monte Carlo against exact</h2>")
    if results.checks.empty:
        parts.append("<p>This file holds no exact comparison; <code>dicesim check</code> writes one.</p>")
    else:
        failed = results.checks[~results.checks["passed"]]
        parts.append(f"<p>{len(results.checks)} numbers compared, "
                     + (f'<span class="bad">{len(failed)} beyond the limit</span>' if len(failed) else "none beyond the limit")
                     + f"; largest |z| {results.checks['z'].abs().max():.2f}.</p>")
        parts.append(figure_html(lambda ax: plot_mc_vs_exact(results, ax=ax), "z-scores of every compared number"))
        if len(failed):
            parts.append(table_html(failed, ["name", "kind", "observed", "expected", "z"]))

    body = "\n".join(parts)
    return f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>dicesim report</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a dicesim results file (.h5)")
    parser.add_argument("-o", "--output", help="HTML file to write (default: the results file with .html)")
    args = parser.parse_args(argv)
    output = args.output or os.path.splitext(args.results)[0] + ".html"
    try:
        results = load(args.results)
    except (OSError, ValueError, KeyError) as error:
        print(f"{args.results}: cannot read: {error}", file=sys.stderr)
        return 2
    temporary = output + f".tmp.{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(build(results))
    os.replace(temporary, output)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
