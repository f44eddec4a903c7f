"""Shared by the Python tests: make a results file with the real dicesim binary."""

import json
import os
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("DICESIM_ROOT", Path(__file__).resolve().parents[3]))
BINARY = Path(os.environ.get("DICESIM_BINARY", ROOT / "build" / "dicesim"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

CONFIG = {
    "game": "sixers",
    "seed": 11,
    "games": 20000,
    "strategies": [
        {"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
        {"name": "ts(5,5)", "family": "turn_score_threshold", "per_roll": [5, 5]},
        {"name": "best", "family": "optimal_mean"},
        {"name": "aware", "family": "target_aware"},
    ],
    "contests": {"headtohead": True, "sequential": True, "nway": [["dv(2,2)", "ts(5,5)", "best"]],
                 "sequential_tables": [["best", "dv(2,2)", "aware"]]},
}


def make_results(directory, command="check", config=CONFIG):
    """Runs `dicesim COMMAND` on config in directory; returns the results path."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    config_path = Path(directory) / "config.json"
    config_path.write_text(json.dumps(config))
    out = Path(directory) / "results.h5"
    run = subprocess.run([str(BINARY), command, str(config_path), "-o", str(out), "--quiet"], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stdout + run.stderr)
    return out


class ResultsFile:
    """One results file per test class, made once."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.path = make_results(cls.directory.name)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()


def pair_index(f, section, strategy, opponent):
    """Where the pair (strategy in seat 0, opponent in seat 1) is in a pair
    section of the open file f."""
    pairs = zip(f[f"{section}/strategy"].asstr()[()], f[f"{section}/opponent"].asstr()[()])
    return list(pairs).index((strategy, opponent))
