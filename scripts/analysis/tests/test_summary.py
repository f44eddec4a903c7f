"""The summary JSON of `dicesim show --json` and `dicesim run --json FILE`
against its JSON Schema (draft 2020-12), and its columns against the
package's frames: one layout, one set of names."""

import json
import subprocess
import tempfile
import unittest
from pathlib import Path

import jsonschema

import dicesim_analysis
from dicesim_analysis.load import PAIR_COLUMNS, SUMMARY_COLUMNS, TABLE_COLUMNS, CHECK_COLUMNS
from common import BINARY, CONFIG

PRECISION_CONFIG = {"game": "pig", "seed": 2, "games": 4000, "precision": {"rate": 0.05},
                    "strategies": [{"name": "hold20", "family": "hold_at", "at": 20},
                                   {"name": "hold25", "family": "hold_at", "at": 25}],
                    "contests": {"distributions": True, "sequential": True}}


def dicesim(*arguments):
    run = subprocess.run([str(BINARY), *map(str, arguments)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stdout + run.stderr)
    return run.stdout


def summaries(directory, command, config, *extra):
    """(run --json's document, show --json's) of one run of config."""
    config_path = Path(directory) / f"{command}.json"
    config_path.write_text(json.dumps(config))
    results, written = Path(directory) / f"{command}.h5", Path(directory) / f"{command}.summary.json"
    dicesim(command, config_path, "-o", results, "--json", written, "--quiet", *extra)
    return json.loads(written.read_text()), json.loads(dicesim("show", "--json", results))


class SummarySchema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.schema = json.loads(dicesim("schema", "--summary"))
        jsonschema.Draft202012Validator.check_schema(cls.schema)
        cls.validator = jsonschema.Draft202012Validator(cls.schema)
        d = cls.directory.name
        cls.documents = {
            "check": summaries(d, "check", CONFIG),
            "run": summaries(d, "run", CONFIG, "--games", "500"),
            "precision": summaries(d, "run", PRECISION_CONFIG),
            # Shard 1 of 1000 of a run of a few blocks plays nothing: its blocks are [0, blocks/1000).
            "empty shard": summaries(d, "run", CONFIG, "--games", "10", "--shard", "1/1000"),
        }

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_every_summary_is_valid(self):
        for what, (written, shown) in self.documents.items():
            with self.subTest(what):
                self.validator.validate(written)
                self.validator.validate(shown)
                self.assertEqual(written, shown)  # run --json and show --json: one layout

    def test_the_package_ships_the_schema_dicesim_prints(self):
        self.assertEqual(dicesim_analysis.summary_schema(), self.schema)

    def test_the_schema_refuses_prose_where_numbers_belong(self):
        written, _ = self.documents["check"]
        for path, bad in ((("run", "blocks_done"), "36 of 36 planned"), (("run", "wall_seconds"), "1.2"),
                          (("summary_format",), "0.9"), (("checks",), "78 numbers, largest |z| 2.41"),
                          (("tables", "nway", "rows", 0, "seat"), "ties")):
            document = json.loads(json.dumps(written))
            target = document
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = bad
            with self.subTest(path=path):
                with self.assertRaises(jsonschema.ValidationError):
                    self.validator.validate(document)

    def test_the_empty_shard_has_null_estimates(self):
        written, _ = self.documents["empty shard"]
        row = written["tables"]["strategies"]["rows"][0]
        self.assertIsNone(row["mean"])
        self.assertIsNone(row["sd"])
        self.assertEqual(written["run"]["blocks_done"], 0)

    def test_the_precision_table_has_its_targets(self):
        written, _ = self.documents["precision"]
        self.assertEqual(written["tables"]["precision"]["targets"], {"win_rate_half_width": 0.05})
        self.assertIsInstance(written["tables"]["precision"]["rows"][0]["met"], bool)

    def test_the_columns_are_the_frames(self):
        """Every key of a table's rows is a column of the package's frame for it
        (an estimate's half-width, and the other measures' means, aside)."""
        written, _ = self.documents["check"]
        frames = {"strategies": SUMMARY_COLUMNS, "headtohead": PAIR_COLUMNS, "sequential": PAIR_COLUMNS,
                  "nway": TABLE_COLUMNS, "sequential_tables": TABLE_COLUMNS}
        for name, columns in frames.items():
            keys = {k for k in written["tables"][name]["columns"] if not k.endswith("_half_width")}
            with self.subTest(name):
                self.assertLessEqual(keys, set(columns) | {"mean_" + m for m in ("turns",)})
        self.assertLessEqual(set(written["checks"][0]), set(CHECK_COLUMNS))

    def test_the_numbers_are_the_frames(self):
        written, _ = self.documents["check"]
        results = dicesim_analysis.load(written["run"]["file"])
        frame = results.headtohead.set_index(["mode", "strategy", "opponent"])
        for mode in ("headtohead", "sequential"):
            for row in written["tables"][mode]["rows"]:
                mine = frame.loc[(mode, row["strategy"], row["opponent"])]
                for column in ("games", "wins", "ties", "losses", "win_rate"):
                    self.assertEqual(row[column], mine[column], (mode, row, column))
        checks = results.checks
        self.assertEqual([c["name"] for c in written["checks"]], list(checks["name"]))
        self.assertEqual([c["z"] for c in written["checks"]], list(checks["z"]))


if __name__ == "__main__":
    unittest.main()
