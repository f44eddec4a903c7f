"""Results files and paths from elsewhere (issue 40): load(), run() and
dicesim-report refuse forged, damaged or odd input with a one-line
DicesimError, never another exception, a hang or a huge allocation; and
every string and file they write out is safe where it goes."""

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path
from unittest import mock

import h5py
import numpy as np

import dicesim_analysis as da
from common import BINARY, CONFIG, ROOT, make_results
from dicesim_analysis.files import LAYOUT, content_checksum
from dicesim_analysis.report import main as report_main
from dicesim_analysis.safe import csv_cell, plot_text, write_atomically

SMALL = dict(CONFIG, games=2000)


def resealed(f):
    """The content checksum recomputed after an edit: the forged file counts as intact (where the
    checksum itself can be computed: it refuses a variable-length string, say)."""
    try:
        f.attrs["content_sha256"] = np.bytes_(content_checksum(f))
    except da.DicesimError:
        pass


def _replace(f, path, data, **options):
    del f[path]
    f.create_dataset(path, data=data, **options)


# Forged files: each an edit of a real small run, resealed.
FORGERIES = {
    "shorter_seat_list": lambda f: _replace(f, "nway/0/strategy", np.array([b"best"])),
    "shorter_pair_list": lambda f: _replace(f, "headtohead/opponent", f["headtohead/opponent"][:-1]),
    "deep_config": lambda f: f.attrs.__setitem__("config", np.bytes_("[" * 5000 + "]" * 5000)),
    "deep_spec": lambda f: _replace(f, "strategies/specs", np.array([b"[" * 5000] * 4)),
    "spec_not_an_object": lambda f: _replace(f, "strategies/specs", np.array([b"[1]"] * 4)),
    "config_not_json": lambda f: f.attrs.__setitem__("config", np.bytes_("{")),
    "text_wall_seconds": lambda f: f.attrs.__setitem__("wall_seconds", np.bytes_("soon")),
    "text_games": lambda f: f.attrs.__setitem__("games", np.bytes_("many")),
    # 2x10^7 bins of zeros: 0.2 MB deflated, within deflate's inflation, beyond the layout's bins.
    "huge_bins": lambda f: _replace(f, "distributions/best/counts", data=np.zeros(20_000_000, dtype="<i8"),
                                    chunks=(1 << 20,), compression="gzip", compression_opts=9),
    "huge_pairs": lambda f: _replace(f, "headtohead/games", shape=(1 << 31,), dtype="<i8", data=None,
                                     chunks=(1 << 16,), compression="gzip"),
    "negative_games": lambda f: f["distributions/best"].attrs.__setitem__("games", np.int64(-5)),
    "negative_wins": lambda f: _replace(f, "headtohead/wins", -np.abs(f["headtohead/wins"][()]) - 1),
    "overflowing_count": lambda f: _replace(f, "headtohead/games", np.full(f["headtohead/games"].shape, 2**64 - 1,
                                                                          dtype="<u8")),
    "missing_names": lambda f: f.__delitem__("strategies/names"),
    "missing_counts": lambda f: f.__delitem__("nway/0/wins"),
    "float_names": lambda f: _replace(f, "strategies/names", np.zeros(4)),
    "string_counts": lambda f: _replace(f, "headtohead/wins", np.array([b"x"] * len(f["headtohead/wins"]))),
    "rank_2_names": lambda f: _replace(f, "strategies/names", np.array([[b"a", b"b"], [b"c", b"d"]])),
    "not_utf8_name": lambda f: _replace(f, "strategies/names", np.array([b"\xff", b"b", b"c", b"d"])),
    "version_2": lambda f: f.attrs.__setitem__("format_version", np.array([2, 0], dtype="<i8")),
    "version_9": lambda f: f.attrs.__setitem__("format_version", np.array([9, 0], dtype="<i8")),
    "axis_longer": lambda f: _replace(f, "distributions/best/score", np.arange(1000)),
    "table_key_not_index": lambda f: f.move("nway/0", "nway/zero"),
    "exact_shape": lambda f: _replace(f, "exact/headtohead/score/probability", np.zeros((1, 2, 3))),
    "checks_shorter": lambda f: _replace(f, "checks/z", f["checks/z"][:-1]),
    "measure_list": lambda f: _replace(f, "measures/name", np.array([b"turns"])),
}


CHILD = r"""
import json, resource, sys
import dicesim_analysis as da
outcomes = {}
for path in sys.argv[1:]:
    try:
        r = da.load(path)
        r.measures
        repr(r)
        outcomes[path] = "loaded"
    except da.DicesimError as error:
        text = str(error)
        outcomes[path] = "refused" if "\n" not in text and text.startswith(path) else "bad message: " + text
    except BaseException as error:
        outcomes[path] = f"{type(error).__name__}: {error}"[:300]
print(json.dumps({"outcomes": outcomes, "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def load_all(paths, timeout=120):
    """Each path loaded in one child Python: ({path: outcome}, peak KiB), or a hang reported."""
    run = subprocess.run([sys.executable, "-c", CHILD, *map(str, paths)], capture_output=True, text=True,
                         timeout=timeout, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    if run.returncode != 0:
        raise AssertionError(run.stderr[-2000:])
    out = json.loads(run.stdout.splitlines()[-1])
    return out["outcomes"], out["peak_kib"]


class Hostile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.directory.name)
        cls.good = make_results(cls.dir / "good", config=SMALL)
        cls.bytes = cls.good.read_bytes()

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def forged(self, name, change=None):
        path = self.dir / f"{name}.h5"
        path.write_bytes(self.bytes)
        with h5py.File(path, "r+") as f:
            (change or FORGERIES[name])(f)
            resealed(f)
        return path

    def refused(self, path, what):
        with self.assertRaises(da.DicesimError) as caught:
            da.load(path).measures
        text = str(caught.exception)
        self.assertNotIn("\n", text)
        self.assertTrue(text.startswith(str(path)), text)
        self.assertIn(what, text)
        return text

    # 1. The layout, not only the checksum.
    def test_forged_layouts_are_refused_with_one_line(self):
        self.refused(self.forged("shorter_seat_list"), "/nway/0/wins holds 3 entries, not 1")
        self.refused(self.forged("deep_config"), "nested deeper than 256 levels")
        self.refused(self.forged("text_wall_seconds"), "wall_seconds of / is text, not float")

    def test_the_report_refuses_a_text_wall_seconds_with_exit_2(self):
        path = self.forged("text_wall_seconds")
        run = subprocess.run([sys.executable, "-m", "dicesim_analysis.report", str(path)], capture_output=True,
                             text=True)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertEqual(len(run.stderr.splitlines()), 1, run.stderr)
        self.assertIn("wall_seconds", run.stderr)

    # 2. Regular files only, checked on the opened descriptor.
    def test_a_fifo_is_refused_not_waited_on(self):
        fifo = self.dir / "fifo.h5"
        os.mkfifo(fifo)
        started = time.monotonic()
        self.refused(fifo, "is not a regular file")
        run = subprocess.run([sys.executable, "-m", "dicesim_analysis.report", str(fifo)], capture_output=True,
                             text=True, timeout=30)
        self.assertEqual(run.returncode, 2)
        self.assertLess(time.monotonic() - started, 20)

    # 3. Reads bounded by the file and the layout.
    def test_a_huge_declared_histogram_is_refused_within_memory(self):
        path = self.forged("huge_bins")
        self.assertLess(path.stat().st_size, 2 << 20)
        outcomes, peak = load_all([path])
        self.assertEqual(outcomes[str(path)], "refused")
        self.assertLess(peak, 200 << 10)
        self.refused(path, "more than the layout's bins")

    # 4. The same checksum as dicesim for an unsigned value past 2^63.
    def test_a_uint64_past_2_63_has_dicesims_checksum(self):
        def big(f):
            f.attrs.create("extra", np.uint64(2**63 + 5), dtype="<u8")

        path = self.forged("uint64", big)
        shown = subprocess.run([str(BINARY), "show", str(path)], capture_output=True, text=True)
        self.assertEqual(shown.returncode, 0, shown.stdout + shown.stderr)
        self.assertEqual(da.load(path).meta["extra"], 2**63 - 1)  # read as dicesim reads it: saturated
        with h5py.File(path, "r+") as f:  # the wrapped value's checksum is dicesim's mismatch, and ours
            f.attrs["content_sha256"] = np.bytes_(_wrapped_checksum(f))
        self.assertEqual(subprocess.run([str(BINARY), "show", str(path)], capture_output=True).returncode, 2)
        self.refused(path, "checksum mismatch")

    # 9. A file held open for writing says so.
    def test_a_file_held_open_for_writing_says_so(self):
        path = self.dir / "held.h5"
        shutil.copy(self.good, path)
        with h5py.File(path, "r+"):
            self.refused(path, "is held open for writing by another program (HDF5 file locking)")
        da.load(path)

    def test_a_variable_length_string_is_refused_before_it_is_read(self):
        def variable(f):
            del f.attrs["rules"]
            f.attrs.create("rules", "{}", dtype=h5py.string_dtype())

        self.refused(self.forged("variable", variable), "variable-length string")

    # The corpus: forged files, odd paths and seeded byte flips, each refused or loaded.
    def test_every_forged_damaged_or_odd_file_is_refused_or_loaded(self):
        corpus = [self.forged(name) for name in FORGERIES]
        odd = self.dir / "odd"
        odd.mkdir()
        (odd / "empty.h5").write_bytes(b"")
        (odd / "truncated.h5").write_bytes(self.bytes[: len(self.bytes) // 2])
        (odd / "directory.h5").mkdir()
        os.mkfifo(odd / "fifo.h5")
        (odd / "link.h5").symlink_to(odd / "fifo.h5")
        (odd / "dangling.h5").symlink_to(odd / "nowhere.h5")
        corpus += [odd / n for n in ("empty.h5", "truncated.h5", "directory.h5", "fifo.h5", "link.h5", "dangling.h5")]
        rng = random.Random(40)
        for k in range(300):
            flipped = bytearray(self.bytes)
            for _ in range(rng.choice((1, 1, 2, 4))):
                flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
            path = self.dir / "flips" / f"{k}.h5"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(bytes(flipped))
            corpus.append(path)
        started = time.monotonic()
        outcomes, peak = load_all(corpus, timeout=90)
        counts = {}
        for path, outcome in outcomes.items():
            kind = outcome if outcome in ("loaded", "refused") else "other"
            counts[kind] = counts.get(kind, 0) + 1
            self.assertIn(outcome, ("loaded", "refused"), path)
        for name in FORGERIES:  # a count past 2^63 reads as dicesim reads it: saturated, as a count
            if name != "overflowing_count":
                self.assertEqual(outcomes[str(self.dir / f"{name}.h5")], "refused", name)
        self.assertLess(peak, 200 << 10)
        print(f"\ncorpus of {len(corpus)}: {counts}, peak {peak >> 10} MiB, "
              f"{time.monotonic() - started:.1f} s", file=sys.stderr)


def _wrapped_checksum(f):
    """The checksum load() computed before 1.6: an unsigned value wrapped to a negative int64."""
    import dicesim_analysis.files as files

    with mock.patch.object(files, "as_int64", lambda v: np.asarray(v).astype("<i8")):
        return content_checksum(f)


class Running(unittest.TestCase):
    """5 and 6: run()'s output from its own -o, print-only options, $DICESIM."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.dir = Path(self.directory.name)
        self.environ = mock.patch.dict(os.environ, {"DICESIM": str(BINARY)})
        self.environ.start()

    def tearDown(self):
        self.environ.stop()
        self.directory.cleanup()

    def test_dry_run_and_print_output_return_what_dicesim_prints(self):
        plan = da.run(SMALL, extra=["--dry-run"], progress=False)
        self.assertIn("nothing played", plan)
        path = da.run(SMALL, output=self.dir / "x.h5", extra=["--print-output"], progress=False)
        self.assertEqual(path, str(self.dir / "x.h5"))
        self.assertFalse((self.dir / "x.h5").exists())

    def test_an_output_name_with_a_control_character_is_refused(self):
        for name in ("a.h5\n", "a\x1b[31m.h5"):
            with self.assertRaises(da.DicesimError):
                da.run(SMALL, output=self.dir / name, progress=False)
        self.assertEqual(os.listdir(self.dir), [])

    def test_the_default_output_is_passed_as_o_and_loaded(self):
        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            (self.dir / "results").mkdir()
            stale = self.dir / "results" / "a.h5"
            stale.write_bytes(b"older")
            r = da.run(dict(SMALL, name="fresh"), progress=False)
        finally:
            os.chdir(cwd)
        self.assertEqual(Path(r.path), Path("results") / "fresh.h5")
        self.assertEqual(stale.read_bytes(), b"older")


class Writing(unittest.TestCase):
    """7 and 8: the report never replaces what it reads; its temporaries are
    unpredictable and exclusive; every name shown is literal."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.directory.name)
        named = dict(SMALL, strategies=[dict(s) for s in SMALL["strategies"]])
        named["strategies"][0]["name"] = "$x^{$<b>"
        names = [s["name"] for s in named["strategies"]]
        named["contests"] = dict(SMALL["contests"], nway=[names[:3]], sequential_tables=[[names[2], names[0]]])
        cls.good = make_results(cls.dir / "named", config=named)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def report(self, *args):
        return subprocess.run([sys.executable, "-m", "dicesim_analysis.report", *map(str, args)], capture_output=True,
                              text=True, timeout=300)

    def test_the_report_never_overwrites_its_input(self):
        before = self.good.read_bytes()
        run = self.report(self.good, "-o", self.good)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn("would overwrite", run.stderr)
        html_named = self.dir / "results.html"
        shutil.copy(self.good, html_named)
        run = self.report(html_named)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertEqual(self.good.read_bytes(), before)
        self.assertEqual(html_named.read_bytes(), before)

    def test_the_report_of_odd_names_is_escaped_and_plots(self):
        out = self.dir / "named.html"
        run = self.report(self.good, "-o", out)
        self.assertEqual(run.returncode, 0, run.stderr)
        page = out.read_text()
        self.assertNotIn("$x^{$<b>", page)
        self.assertIn("$x^{$&lt;b&gt;", page)

    def test_a_symlink_planted_at_the_output_is_refused_not_followed(self):
        target = self.dir / "victim.txt"
        target.write_text("keep")
        link = self.dir / "planted.html"
        link.symlink_to(target)
        with self.assertRaises(da.DicesimError):
            write_atomically(link, "page")
        self.assertEqual(target.read_text(), "keep")
        self.assertTrue(link.is_symlink())
        self.assertEqual([p.name for p in self.dir.iterdir() if ".tmp" in p.name], [])

    def test_labels_are_literal_and_terminal_text_escaped(self):
        self.assertEqual(plot_text("$x^{$"), r"\$x^{\$")
        self.assertEqual([csv_cell(v) for v in ("=1+1", "-2", "\tx", "ok", -2, 1.5)],
                         ["'=1+1", "'-2", "'\tx", "ok", -2, 1.5])
        r = da.load(self.good)
        r.path = "evil\x1b[2J.h5"
        self.assertNotIn("\x1b", repr(r))


if __name__ == "__main__":
    unittest.main()
