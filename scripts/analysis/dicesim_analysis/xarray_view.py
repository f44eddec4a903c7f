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


def _measures(results, attrs, order):
    """{measure_<name>: Dataset(count, probability, exact_probability)} over
    (strategy, <name>) of the distributions section."""
    m = results.measures
    m = m[m["section"] == "distributions"]
    out = {}
    for measure, rows in m.groupby("measure", observed=True, sort=False):
        rows = rows[["strategy", "value", "count", "probability", "exact_probability"]].astype({"strategy": object})
        out[f"measure_{measure}"] = _dataset(rows.rename(columns={"value": measure}), ["strategy", measure], attrs, order=order)
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
