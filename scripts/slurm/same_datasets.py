#!/usr/bin/python3
"""Compares every dataset of results files with a reference file's.

usage: same_datasets.py REFERENCE FILE...

Datasets only: root attributes such as wall_seconds, threads and command
differ between runs by design. Prints one line per file, and each dataset
that differs; exits 1 if any does.
"""
import sys

import h5py
import numpy as np


def datasets(path):
    found = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: found.__setitem__(name, obj[()]) if isinstance(obj, h5py.Dataset) else None)
    return found


def equal(a, b):
    # A strategy's missing parameter is NaN, equal to itself here.
    floats = np.asarray(a).dtype.kind == "f" and np.asarray(b).dtype.kind == "f"
    return np.array_equal(a, b, equal_nan=floats)


def differences(reference, other):
    missing = sorted(set(reference) ^ set(other))
    unequal = [n for n in sorted(set(reference) & set(other)) if not equal(reference[n], other[n])]
    return missing, unequal


def main(reference_path, paths):
    reference = datasets(reference_path)
    failed = False
    for path in paths:
        missing, unequal = differences(reference, datasets(path))
        same = len(reference) - len(unequal) - len([n for n in missing if n in reference])
        print(f"{path}: {same} of {len(reference)} datasets identical to {reference_path}")
        for name in missing:
            print(f"  only in one file: {name}")
        for name in unequal:
            print(f"  differs: {name}")
        failed = failed or bool(missing or unequal)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    sys.exit(main(sys.argv[1], sys.argv[2:]))
