"""Results as xarray Datasets (Results.to_xarray): each section's frame
indexed by its dimensions, one name for each dimension in every Dataset."""

import json

import numpy as np

# The dimensions of each section's Dataset: the columns that label its rows.
PAIR_DIMENSIONS = ("strategy", "opponent")
TABLE_DIMENSIONS = ("table", "seat")


def _attrs(results):
    """The file's facts that netCDF attributes can hold (numbers and text)."""
    attrs = {"file": results.path}
    for key, value in results.meta.items():
        if key == "config":
            continue
        if isinstance(value, (str, int, float, np.integer, np.floating)):
            attrs[key] = value
        elif isinstance(value, (list, np.ndarray)) and np.asarray(value).dtype.kind in "iuf":
            attrs[key] = np.asarray(value)
    return attrs


def _dataset(frame, dimensions, attrs, drop=(), order=None):
    """frame indexed by `dimensions`; the strategy axes (strategy, opponent) in
    the file's order of the strategies (`order`), not sorted by name."""
    # A strategy against itself head to head is one pair stored from both sides: one row of it.
    frame = frame.drop(columns=[c for c in drop if c in frame]).drop_duplicates(list(dimensions))
    dataset = frame.set_index(list(dimensions)).to_xarray()
    if order is not None:
        for axis in ("strategy", "opponent"):
            if axis in dataset.dims:
                present = set(dataset[axis].values)
                dataset = dataset.reindex({axis: [name for name in order if name in present]})
    dataset.attrs.update(attrs)
    return dataset


def _strategies(results, attrs):
    """Family and parameters per strategy; the spec (a dict) as its JSON text."""
    frame = results.strategies.assign(spec=[json.dumps(s) for s in results.strategies["spec"]])
    return _dataset(frame, ["strategy"], attrs, order=list(frame["strategy"]))


# The labels of each histogram section's bins, before the measure's own value axis.
MEASURE_DIMENSIONS = {"distributions": ("strategy",), "headtohead": PAIR_DIMENSIONS + ("seat",),
                      "sequential": PAIR_DIMENSIONS + ("seat",), "nway": TABLE_DIMENSIONS,
                      "sequential_tables": TABLE_DIMENSIONS}


def _measures(results, attrs, order):
    """Every histogram of the file as Datasets of (count, probability,
    exact_probability): `measure_<name>` over (strategy, <name>) for each
    strategy alone, `<section>_<name>` over (strategy, opponent, seat, <name>)
    for the pair sections and over (table, seat, <name>) for the seated
    tables (whose strategies are in the nway Datasets)."""
    out = {}
    for (section, measure), rows in results.measures.groupby(["section", "measure"], observed=True, sort=False):
        labels = list(MEASURE_DIMENSIONS[section])
        rows = rows[labels + ["value", "count", "probability", "exact_probability"]]
        rows = rows.astype({label: object for label in labels if label in ("strategy", "opponent")})
        name = f"measure_{measure}" if section == "distributions" else f"{section}_{measure}"
        out[name] = _dataset(rows.rename(columns={"value": measure}), labels + [measure], attrs,
                             order=order if "strategy" in labels else None)
    return out


def results_to_xarray(results):
    """See Results.to_xarray."""
    attrs = _attrs(results)
    order = list(results.strategies["strategy"])
    out = {"strategies": _strategies(results, attrs),
           "summary": _dataset(results.summary, ["strategy"], attrs, order=order)}
    if not results.distributions.empty:
        out["distributions"] = _dataset(results.distributions, ["strategy", "score"], attrs, order=order)
    pairs = results.headtohead
    for mode in ("headtohead", "sequential"):
        rows = pairs[pairs["mode"] == mode]
        if not rows.empty:
            out[mode] = _dataset(rows, PAIR_DIMENSIONS, attrs, drop=["mode"], order=order)
    tables = results.nway
    for section in ("nway", "sequential_tables"):
        rows = tables[tables["section"] == section]
        if not rows.empty:
            out[section] = _dataset(rows, TABLE_DIMENSIONS, attrs, drop=["section"])
    if not results.checks.empty:
        checks = results.checks.rename(columns={"name": "check"})
        out["checks"] = _dataset(checks, ["check"], {**attrs, "z_limit": results.checks.attrs["z_limit"]})
    out.update(_measures(results, attrs, order))
    return out


def open_xarray(path):
    """Every section of a results file as xarray Datasets: load(path).to_xarray()."""
    from .load import load

    return load(path).to_xarray()


__all__ = ["results_to_xarray", "open_xarray"]
