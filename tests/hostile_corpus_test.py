"""The hostile corpus of issue 40, against dicesim's own readers and sinks
(the package's readers have theirs: scripts/analysis/tests/test_hostile.py).

Categories, each printed with its size and outcomes:
- forged: results files edited where dicesim looks (the engine state, the
  stored config, names and facts), with /engine's checksum and the content
  checksum recomputed so that they count as intact, each read by show,
  show --json, show --csv, merge and --resume;
- flips: seeded random byte flips of a real file, read by show and merge;
- names: hostile names (escapes, newlines, formulas, mathtext, bidi
  controls) in configs, strategies and paths, through run, validate, show,
  show --json and show --csv;
- memory: plans at and past the bounds (tables, strategies, --memory-limit);
- faults: outputs that are devices, directories, FIFOs, links or inputs.

Every command must end with exit 0, 1 (a check beyond chance) or 2 (one
line naming the file), within its time, never print a raw control
character but newlines, and leave every CSV parseable with no field a
spreadsheet formula."""

import csv
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import h5py
import numpy as np

from dicesim_analysis.files import content_checksum

BINARY = os.environ["DICESIM_BINARY"]
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
SMALL = {
    "game": "pig", "rules": {"dice": 1, "goal": 30}, "seed": 5, "games": 3000,
    "strategies": [{"name": "hold10", "family": "hold_at", "at": 10},
                   {"name": "hold15", "family": "hold_at", "at": 15},
                   {"name": "hold20", "family": "hold_at", "at": 20}],
    "contests": {"distributions": True, "sequential": True},
}


def dicesim(*args, timeout=60, cwd=None):
    """(exit code, stdout + stderr as bytes) of dicesim ARGS."""
    run = subprocess.run([BINARY, *map(str, args)], capture_output=True, timeout=timeout, cwd=cwd)
    return run.returncode, run.stdout + run.stderr


def fnv1a(data, h=0xcbf29ce484222325):
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def reseal(path):
    """/engine's checksum (sim/results/run_state.cpp, EngineChecksum) and the
    content checksum recomputed: a forger's file that counts as intact."""
    with h5py.File(path, "r+") as f:
        try:
            document = json.loads(f.attrs["config"])
            text = json.dumps(document, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        except (ValueError, TypeError, RecursionError):
            text = ""
        head = "|".join([text, f.attrs["seed_text"].decode(), str(int(f.attrs["games"])),
                         f["engine"].attrs["shard"].decode()])
        words = b"".join(np.asarray(f[name][()], dtype="<i8").tobytes()
                         for name in ("engine/counters", "engine/done", "engine/planned"))
        h = fnv1a(words, fnv1a(head.encode()))
        f["engine"].attrs["checksum"] = np.bytes_(format(h, "x"))
        f.attrs["content_sha256"] = np.bytes_(content_checksum(f))


def replace(f, path, data):
    del f[path]
    f.create_dataset(path, data=data)


def set_text(f, name, value, where="/"):
    f[where].attrs[name] = np.bytes_(value.encode("utf-8", "surrogateescape"))


FORGERIES = {
    "negative_counter": lambda f: replace(f, "engine/counters", np.where(np.arange(len(f["engine/counters"])) == 3, -1,
                                                                         f["engine/counters"][()])),
    "huge_counter": lambda f: replace(f, "engine/counters", np.where(np.arange(len(f["engine/counters"])) == 0,
                                                                     2**62, f["engine/counters"][()])),
    "short_counters": lambda f: replace(f, "engine/counters", f["engine/counters"][:-1]),
    "done_past_total": lambda f: replace(f, "engine/done", np.array([[0, 1 << 40]], dtype="<i8")),
    "planned_overlaps": lambda f: replace(f, "engine/planned", np.array([[0, 2], [1, 3]], dtype="<i8")),
    "deep_config": lambda f: set_text(f, "config", "[" * 5000 + "]" * 5000),
    "heavy_config": lambda f: set_text(f, "config", json.dumps(dict(SMALL, strategies=[
        {"name": "b{total}", "family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}}], game="tenk",
        rules={}, contests={"distributions": False, "sequential": True}))),
    "pairs_past_cap": lambda f: set_text(f, "config", json.dumps(dict(SMALL, game="tenk", rules={}, strategies=[
        {"name": f"{c}{{total}}", "family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}}
        for c in "abcdef"], contests={"distributions": False, "sequential": True}))),
    "huge_key": lambda f: set_text(f, "config", json.dumps(dict(SMALL, **{"k" * 300000: 1}))),
    "escape_name": lambda f: set_text(f, "name", "x\x1b]0;owned\x07\n\x1b[31mred"),
    "escape_version": lambda f: set_text(f, "program_version", "0.8.0\x1b[2J\nforged line"),
    "escape_command": lambda f: set_text(f, "command", "run\r\x1b[1Acheck"),
    "strategy_formula": lambda f: set_text(f, "config", json.dumps(dict(SMALL, strategies=[
        dict(s, name=n) for s, n in zip(SMALL["strategies"], ["=HYPERLINK(\"x\")", "+1", "@a\x1b[5m"])]))),
    "shard_7_of_3": lambda f: set_text(f, "shard", "7/3", "/engine"),
    "seed_text_garbage": lambda f: set_text(f, "seed_text", "12x"),
    "games_zero": lambda f: f.attrs.__setitem__("games", np.int64(0)),
    "wall_text": lambda f: set_text(f, "wall_seconds", "soon"),
    "threads_negative": lambda f: f.attrs.__setitem__("threads", np.int64(-4)),
    "version_2": lambda f: f.attrs.__setitem__("format_version", np.array([2, 0], dtype="<i8")),
    "not_utf8_name": lambda f: set_text(f, "name", "a\udcff\udcfe"),
}

NAMES = ["x\x1b]0;owned\x07", "two\nlines", "=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "-2+3",
         "@SUM(A1)", "$x^{$", "\u202eevil", "tab\there", "\u0085next"]


class Outcomes:
    """Counts per category, printed at the end: what the corpus found."""

    def __init__(self):
        self.counts = {}

    def add(self, category, outcome):
        self.counts.setdefault(category, {}).setdefault(outcome, 0)
        self.counts[category][outcome] += 1


OUTCOMES = Outcomes()


class HostileCorpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.temp.name)
        cls.config = cls.dir / "small.json"
        cls.config.write_text(json.dumps(SMALL))
        cls.good = cls.dir / "good.h5"
        code, out = dicesim("check", cls.config, "-o", cls.good, "--quiet")
        assert code == 0, out

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()
        for category, counts in sorted(OUTCOMES.counts.items()):
            print(f"hostile corpus: {category}: {sum(counts.values())} commands: {counts}", file=sys.stderr)

    def judge(self, category, code, out, what):
        """Exit 0, 1 or 2; a refusal is one line; nothing raw reaches the terminal."""
        self.assertIn(code, (0, 1, 2), f"{what}: exit {code}: {out[-2000:]!r}")
        self.assertIsNone(CONTROL.search(out), f"{what}: a raw control character: {out[-2000:]!r}")
        if code == 2:  # validate: a line per error, each naming the file; else one line
            lines = out.splitlines()
            self.assertTrue(lines and (len(lines) == 1 or what.endswith("validate")), f"{what}: {out!r}")
            self.assertTrue(all(len(line) < 2000 for line in lines), what)
        OUTCOMES.add(category, {0: "read", 1: "check failed", 2: "refused"}[code])

    def judge_csv(self, directory, what):
        for path in Path(directory).glob("*.csv"):
            with open(path, newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
            self.assertTrue(rows, path)
            self.assertTrue(all(len(r) == len(rows[0]) for r in rows), f"{what}: {path.name}: ragged rows")
            for row in rows:
                for field in row:
                    self.assertFalse(field[:1] in ("=", "+", "@") or (field[:1] == "-" and not _number(field)),
                                     f"{what}: {path.name}: a formula {field!r}")

    def read_every_way(self, category, path, what):
        out_dir = self.dir / "out"
        shutil.rmtree(out_dir, ignore_errors=True)
        out_dir.mkdir()
        for args in (["show", path], ["show", "--json", path], ["show", path, "--csv", out_dir / "csv"],
                     ["merge", path, self.good, "-o", out_dir / "merged.h5"],
                     ["run", self.config, "--resume", path, "-o", out_dir / "resumed.h5"]):
            code, out = dicesim(*args, timeout=60)
            self.judge(category, code, out, f"{what}: {' '.join(map(str, args[:2]))}")
        if (out_dir / "csv").is_dir():
            self.judge_csv(out_dir / "csv", what)

    def test_forged_files_against_every_reader(self):
        for name, forge in FORGERIES.items():
            path = self.dir / f"{name}.h5"
            shutil.copyfile(self.good, path)
            with h5py.File(path, "r+") as f:
                forge(f)
            reseal(path)
            self.read_every_way("forged", path, name)

    def test_byte_flips_against_show_and_merge(self):
        data = self.good.read_bytes()
        rng = random.Random(40)
        for k in range(60):
            flipped = bytearray(data)
            for _ in range(rng.choice((1, 2, 4))):
                flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
            path = self.dir / f"flip{k}.h5"
            path.write_bytes(bytes(flipped))
            for args in (["show", path], ["merge", path, self.good, "-o", self.dir / "m.h5"]):
                code, out = dicesim(*args)
                self.judge("flips", code, out, f"flip {k}: {args[0]}")

    def test_names_into_every_sink(self):
        for k, name in enumerate(NAMES):
            config = dict(SMALL, name=f"n{k}", strategies=[dict(s, name=n) for s, n in
                                                           zip(SMALL["strategies"], [name, name + "2", "plain"])])
            path = self.dir / f"names{k}.json"
            path.write_text(json.dumps(config))
            out = self.dir / f"names{k}.h5"
            for args in (["validate", path], ["run", path, "-o", out, "--games", "500"], ["show", out],
                         ["show", "--json", out], ["show", out, "--csv", self.dir / f"csv{k}"],
                         ["run", path, "--dry-run"]):
                code, text = dicesim(*args)
                self.judge("names", code, text, f"name {name!r}: {args[0]}")
            self.judge_csv(self.dir / f"csv{k}", f"name {name!r}")
            # The same name as a config's file name (its stem names the results file) and as -o.
            stem = self.dir / "stems" / f"{name.replace('/', '_')}.json"
            stem.parent.mkdir(exist_ok=True)
            stem.write_text(json.dumps(SMALL))
            code, text = dicesim("run", stem, "--games", "500", "--quiet", cwd=self.dir / "stems")
            self.judge("names", code, text, f"stem {name!r}")
            code, text = dicesim("run", self.config, "--games", "500", "-o", self.dir / f"{name}.h5", "--quiet")
            self.judge("names", code, text, f"-o {name!r}")
        for made in (self.dir / "stems" / "results").glob("*"):
            self.assertIsNone(CONTROL.search(os.fsencode(made.name)), made)
            self.assertFalse(made.name.startswith((".", "-")), made)

    def test_memory_at_and_past_every_bound(self):
        tenk = {"game": "tenk", "games": 1000, "contests": {"distributions": False}}
        cases = {
            "pairs past the cap": dict(tenk, strategies=[
                {"name": f"{c}{{total}}", "family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}}
                for c in "abcdef"], contests={"distributions": False, "sequential": True}),
            "eight seats": dict(tenk, strategies=[
                {"family": "bank_at", "total": {"from": 300, "to": 700, "step": 50}, "set": "b"}],
                contests={"distributions": False, "nway": [["b"] * 8]}),
            "a sweep at its maximum": dict(tenk, strategies=[
                {"family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}}],
                contests={"distributions": False, "headtohead": True}),
        }
        for what, config in cases.items():
            path = self.dir / "memory.json"
            path.write_text(json.dumps(config))
            for limit in ("64M", "2G"):
                code, out = dicesim("validate", path, "--memory-limit", limit, timeout=120)
                self.judge("memory", code, out, f"{what} under {limit}")
                code, out = dicesim("run", "--dry-run", path, "--memory-limit", limit, timeout=120)
                self.judge("memory", code, out, f"{what} under {limit} (dry run)")
        code, out = dicesim("validate", path, "--memory-limit", "1K")
        self.judge("memory", code, out, "a limit below the process")
        self.assertEqual(code, 2)

    def test_faults_outputs_that_cannot_be_written(self):
        fifo = self.dir / "fifo"
        os.mkfifo(fifo)
        link = self.dir / "link.h5"
        link.symlink_to(self.dir / "target.h5")
        readonly = self.dir / "readonly"
        readonly.mkdir()
        readonly.chmod(0o555)
        for what, args in {
            "a device": ["-o", "/dev/full"], "a directory": ["-o", self.dir], "a FIFO": ["-o", fifo],
            "a link": ["-o", link], "the config": ["-o", self.config], "json on a device": ["--json", "/dev/full"],
            "json is the lock": ["-o", self.dir / "r.h5", "--json", self.dir / "r.h5.lock"],
            "read-only folder": ["-o", readonly / "r.h5"],
        }.items():
            if os.geteuid() == 0 and what == "read-only folder":
                continue  # root writes there anyway (and 1e14 games would not end)
            code, out = dicesim("run", self.config, "--games", "1e14", *args, timeout=30)
            self.judge("faults", code, out, what)
            self.assertEqual(code, 2, f"{what}: {out!r}")
        self.assertFalse((self.dir / "target.h5").exists())


def _number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


if __name__ == "__main__":
    unittest.main()
