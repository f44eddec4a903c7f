"""The results format on files of every game: documented, labelled, read back right.

One `dicesim check` file per game (Sixers, 10,000, Pig, Dice Battle both
ways), each with every contest the game allows, so that every measure
subgroup, exact or not, known at every seat or at some, is in some file.
"""

import json
import re
import tempfile
import unittest
from pathlib import Path

import h5py
import numpy as np
import pandas as pd

from common import CONFIG, ROOT, make_results, pair_index
from dicesim_analysis import DicesimError, load


def _game_config(file, contests, strategies=3):
    config = json.loads((ROOT / "configs" / file).read_text())
    config.pop("description", None)
    config["strategies"] = config["strategies"][:strategies]
    names = [s["name"] for s in config["strategies"]]
    config["contests"] = {key: value(names) if callable(value) else value for key, value in contests.items()}
    config["games"] = 20000
    return config


def _configs():
    return {
        "sixers": CONFIG,
        # 10,000: no one-player tables; head starts (a race) in both table sections.
        "tenk": _game_config("tenk_seed000.json", {
            "distributions": False, "headtohead": True, "sequential": True,
            "nway": lambda n: [n, [{"strategy": n[0], "head_start": 100}, *n[1:]]],
            "sequential_tables": lambda n: [n, n[:2], [n[0], {"strategy": n[1], "head_start": 50}]]}),
        # Pig: no blind tables.
        "pig": _game_config("pig_two_dice.json", {
            "distributions": True, "sequential": True, "sequential_tables": lambda n: [n[:2]]}),
        # Dice Battle: two seats at most.
        "battle": _game_config("battle_simultaneous.json", {
            "distributions": True, "headtohead": True, "sequential": True, "nway": lambda n: [n[:2]],
            "sequential_tables": lambda n: [n[:2]]}),
        "battle_sequential": _game_config("battle_sequential.json", {
            "distributions": True, "sequential": True, "sequential_tables": lambda n: [n[:2]]}),
        # A precision target (the /precision group), on the rates and a mean.
        "pig_precision": dict(_game_config("pig_precision.json", {"distributions": True, "sequential": True}),
                              precision={"rate": 0.01, "score": 1.0}),
    }


def _sim_docs():
    """The READMEs of sim/ (the results file's layout is in sim/results/README.md;
    a game's README may name what it adds), as one text."""
    return "\n".join(p.read_text() for p in sorted((ROOT / "sim").rglob("README.md")))


def _documented_paths():
    """Regular expressions of the paths sim/results/README.md names (in backticks)."""
    text = _sim_docs()
    patterns = []
    for token in re.findall(r"`(/[^`\s]*)`", text):
        alternatives = [token]
        while any("{" in a for a in alternatives):  # expand {a,b,c}
            expanded = []
            for a in alternatives:
                m = re.search(r"\{([^}]*)\}", a)
                if not m:
                    expanded.append(a)
                    continue
                expanded += [a[:m.start()] + choice + a[m.end():] for choice in m.group(1).split(",")]
            alternatives = expanded
        for a in alternatives:
            if a.endswith("/..."):
                continue  # "the same as ...": every path it stands for is listed elsewhere
            regex = re.escape(a.lstrip("/"))
            regex = re.sub(r"<[^>]*>", "[^/]+", regex.replace(r"\<", "<").replace(r"\>", ">"))
            patterns.append((a, re.compile(regex + "$")))
    return patterns


class FilesOfEveryGame(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.paths = {}
        for game, config in _configs().items():
            directory = Path(cls.directory.name) / game
            directory.mkdir()
            cls.paths[game] = make_results(directory, config=config)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def objects(self, game):
        """[(name, object)] of every group and dataset but /engine's."""
        out = []
        with h5py.File(self.paths[game]) as f:
            f.visititems(lambda name, obj: out.append((name, obj)) if not name.startswith("engine") else None)
            yield f, out

    def test_every_group_opens_in_xarray_with_named_axes(self):
        import xarray as xr
        for game, path in self.paths.items():
            groups = []
            with h5py.File(path) as f:
                f.visititems(lambda name, obj: groups.append(name) if isinstance(obj, h5py.Group) and any(
                    isinstance(v, h5py.Dataset) for v in obj.values()) and not name.startswith("engine") else None)
            for group in groups:
                with self.subTest(game=game, group=group):
                    ds = xr.open_dataset(path, group=group, engine="h5netcdf")
                    for name, variable in ds.data_vars.items():
                        for dim in variable.dims:
                            self.assertFalse(dim.startswith("phony"), f"{group}/{name}")
                            self.assertIn(dim, ds.coords, f"{group}/{name}")

    def test_measure_subgroups_open_with_their_axes(self):
        import xarray as xr
        path = self.paths["tenk"]
        table = xr.open_dataset(path, group="sequential_tables/0/turn_score", engine="h5netcdf")
        self.assertEqual(table["counts"].dims, ("seat", "turn_score"))
        self.assertEqual(table["turn_score"].attrs["units"], "points")
        # The strategy in each seat is a coordinate along the seat axis.
        self.assertEqual(table["counts"].coords["strategy"].dims, ("seat",))
        self.assertEqual(list(table["seat"].values), list(range(table.sizes["seat"])))
        pairs = xr.open_dataset(path, group="sequential/turns", engine="h5netcdf")
        self.assertEqual(pairs["counts"].dims, ("pair", "seat", "turns"))
        self.assertEqual(pairs["counts"].coords["opponent"].dims, ("pair",))
        scores = xr.open_dataset(path, group="headtohead/score", engine="h5netcdf")
        self.assertEqual(scores["counts"].dims, ("pair", "seat", "score"))
        exact = xr.open_dataset(path, group="exact/nway/0/first_turn", engine="h5netcdf")
        self.assertEqual(exact["probability"].dims, ("seat", "first_turn"))
        # Known at every seat of a table of seven (tenk_table.h): each row a distribution.
        np.testing.assert_allclose(exact["probability"].values.sum(axis=1), 1, atol=1e-9)
        distribution = xr.open_dataset(self.paths["pig"], group="exact/distributions/optimal_win/turns",
                                       engine="h5netcdf")
        self.assertEqual(distribution["probability"].dims, ("turns",))

    def test_every_axis_is_named_after_what_it_holds(self):
        """A histogram's value axis after its measure, a table's seats `seat`,
        a pair's rows and columns `strategy` and `opponent`."""
        for game in self.paths:
            for f, objects in self.objects(game):
                measures = [m.decode() for m in f["measures/name"][()]]
                for name, obj in objects:
                    if not (isinstance(obj, h5py.Dataset) and name.rsplit("/", 1)[-1] in ("counts", "probability")):
                        continue
                    group = name.rsplit("/", 2)
                    measure = group[-2] if group[-2] in measures and len(group) == 3 else "score"
                    axes = [list(dim.keys()) for dim in obj.dims]
                    expected = {1: [[measure]], 2: [["seat"], [measure]], 3: [["pair"], ["seat"], [measure]]}[obj.ndim]
                    with self.subTest(game=game, dataset=name):
                        self.assertEqual(axes, expected)

    def test_histograms_and_matrices_are_compressed(self):
        """Every numeric data set of 4 KiB or more is chunked, shuffled and
        deflated; at least the pairs' histograms and /engine/counters are."""
        for game, path in self.paths.items():
            compressed = []
            with h5py.File(path) as f:
                def visit(name, obj):
                    if isinstance(obj, h5py.Dataset) and obj.dtype.kind in "iuf" and obj.nbytes >= 4096:
                        with self.subTest(game=game, dataset=name):
                            self.assertEqual((obj.compression, obj.compression_opts, obj.shuffle), ("gzip", 4, True))
                        compressed.append(name)
                f.visititems(visit)
            with self.subTest(game=game):
                self.assertIn("engine/counters", compressed)
                self.assertTrue(any(name.endswith("/counts") for name in compressed), compressed)

    def test_every_data_set_has_a_description_and_units(self):
        for game in self.paths:
            for _, objects in self.objects(game):
                for name, obj in objects:
                    if not isinstance(obj, h5py.Dataset):
                        continue
                    with self.subTest(game=game, dataset=name):
                        self.assertIn("description", obj.attrs)
                        if obj.dtype.kind in "iuf":
                            self.assertIn("units", obj.attrs)

    def test_score_counts_are_games_as_in_format_1_0(self):
        for game in self.paths:
            for f, objects in self.objects(game):
                measures = [m.decode() for m in f["measures/name"][()]]
                for name, obj in objects:
                    if not (isinstance(obj, h5py.Dataset) and name.endswith("/counts")):
                        continue
                    parent = name.rsplit("/", 2)
                    measure = parent[-2] if parent[-2] in measures[1:] or parent[-2] == "score" else "score"
                    with self.subTest(game=game, dataset=name):
                        self.assertEqual(obj.attrs["units"].decode(), "games" if measure == "score" else "count")

    def test_min_and_step_sit_beside_every_scale(self):
        for game in self.paths:
            for f, objects in self.objects(game):
                for name, obj in objects:
                    if not isinstance(obj, h5py.Group):
                        continue
                    with self.subTest(game=game, group=name):
                        values = None
                        measure = name.rsplit("/", 1)[-1]
                        if isinstance(obj.get(measure), h5py.Dataset):  # a measure's subgroup
                            self.assertNotIn("min_score", obj.attrs)
                            values, first, step = obj[measure][()], obj.attrs["min"], obj.attrs["step"]
                        elif "score" in obj and isinstance(obj["score"], h5py.Dataset):
                            values, first, step = obj["score"][()], obj.attrs["min_score"], obj.attrs["score_step"]
                        if values is not None:
                            self.assertEqual(list(values), list(first + step * np.arange(len(values))))

    def test_every_path_is_documented_and_every_documented_path_exists(self):
        patterns = _documented_paths()
        seen = set()
        undocumented = []
        for game in self.paths:
            for _, objects in self.objects(game):
                for name, obj in objects:
                    matches = [token for token, regex in patterns if regex.match(name)]
                    seen.update(matches)
                    if not matches and isinstance(obj, h5py.Dataset):
                        undocumented.append(f"{game}: {name}")
        self.assertEqual(undocumented, [])
        # /engine is documented but not visited above.
        never = {token for token, _ in patterns if not token.startswith("/engine")} - seen
        self.assertEqual(sorted(never), [])

    def test_every_attribute_is_documented(self):
        text = _sim_docs()
        documented = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)`", text))
        hdf5_own = {"CLASS", "NAME", "DIMENSION_LIST", "REFERENCE_LIST", "_Netcdf4Dimid", "_Netcdf4Coordinates"}
        missing = set()
        for game, path in self.paths.items():
            with h5py.File(path) as f:
                objects = [("/", f)]
                f.visititems(lambda name, obj: objects.append((name, obj)))
                for name, obj in objects:
                    for attribute in obj.attrs:
                        if attribute not in hdf5_own and attribute not in documented:
                            missing.add(f"{attribute} (on {name})")
        self.assertEqual(sorted(missing), [])

    def test_load_measures_matches_the_raw_histograms(self):
        for game, path in self.paths.items():
            r = load(path)
            with h5py.File(path) as f:
                measures = [m.decode() for m in f["measures/name"][()]]
                first, step = f["measures/min"][()], f["measures/step"][()]
                self.assertEqual(set(r.measures["measure"]), set(measures))
                for row in r.measures.sample(n=400, random_state=1).itertuples():
                    m = measures.index(row.measure)
                    b = (row.value - first[m]) // step[m]
                    sub = "" if m == 0 else f"/{row.measure}"
                    if row.section == "distributions":
                        path_, index = f"distributions/{row.strategy}{sub}", (b,)
                    elif row.section in ("nway", "sequential_tables"):
                        path_ = f"{row.section}/{row.table}"
                        self.assertEqual(f[path_ + "/strategy"][row.seat].decode(), row.strategy)
                        path_, index = path_ + sub, (row.seat, b)
                    else:
                        seats = (row.strategy, row.opponent) if row.seat == 0 else (row.opponent, row.strategy)
                        k = pair_index(f, row.section, *seats)
                        path_, index = f"{row.section}/{row.measure}", (k, row.seat, b)
                    with self.subTest(game=game, row=row):
                        self.assertEqual(f[path_ + "/counts"][index], row.count)
                        exact = f"exact/{path_}/probability"
                        expected = f[exact][index] if exact in f else np.nan
                        if np.isnan(expected):
                            self.assertTrue(np.isnan(row.exact_probability))
                        else:
                            self.assertEqual(expected, row.exact_probability)


class FilesOfFormat1_1And2_0(unittest.TestCase):
    """tests/format_1_1: files of formats 1.1 and 2.0 hold variable-length
    strings, on which a damaged file crashes libhdf5 (H5HG_read): load()
    refuses them on their version, before any string is read, with the way
    out, as dicesim show does."""

    def test_load_refuses_them_saying_how_to_rerun(self):
        for name, version in (("check.h5", "1.1"), ("same_run_0_2_0.h5", "2.0")):
            path = ROOT / "tests" / "format_1_1" / name
            with self.subTest(name=name), self.assertRaises(DicesimError) as caught:
                load(path)
            self.assertEqual(str(caught.exception), f"{path}: written in results format {version}, which this "
                             "dicesim no longer reads; rerun the config with this dicesim")

    def test_a_flipped_byte_in_a_format_2_0_file_is_refused_not_a_crash(self):
        data = (ROOT / "tests" / "format_1_1" / "same_run_0_2_0.h5").read_bytes()
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "flipped.h5"
            for at in range(0, len(data), 97):
                flipped = bytearray(data)
                flipped[at] ^= 0x5A
                path.write_bytes(bytes(flipped))
                with self.subTest(at=at), self.assertRaises(DicesimError):
                    load(path)


class DamagedFiles(unittest.TestCase):
    """A results file from elsewhere (issue 27): load() verifies the content
    checksum of a file of format 3 before it reads anything it reports, and
    reads or refuses every damaged file, never crashing."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.good = make_results(cls.directory.name)
        cls.bytes = cls.good.read_bytes()

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def altered(self, name, change):
        path = Path(self.directory.name) / name
        path.write_bytes(self.bytes)
        with h5py.File(path, "r+") as f:
            change(f)
        return path

    def test_strings_are_fixed_length_and_the_checksum_is_stored(self):
        with h5py.File(self.good) as f:
            self.assertEqual(f["strategies/names"].dtype.kind, "S")
            self.assertEqual(h5py.check_string_dtype(f["strategies/names"].dtype).length,
                             f["strategies/names"].dtype.itemsize)
            self.assertEqual(len(f.attrs["content_sha256"]), 64)
        r = load(self.good)
        self.assertEqual(list(r.strategies["strategy"]), [s["name"] for s in CONFIG["strategies"]])
        self.assertIsInstance(r.meta["program_version"], str)

    def test_a_changed_number_that_merge_never_reads_is_a_checksum_mismatch(self):
        def fewer_losses(f):
            f["headtohead/losses"][0] -= 54

        def huge_z(f):
            f["checks/z"][0] = 9.7e62

        def another_name(f):
            f.attrs["name"] = np.bytes_("other")

        for change in (fewer_losses, huge_z, another_name):
            with self.subTest(change=change.__name__):
                path = self.altered(change.__name__ + ".h5", change)
                with self.assertRaisesRegex(ValueError, "checksum mismatch"):
                    load(path)

    def test_a_variable_length_string_in_format_3_is_refused_before_it_is_read(self):
        def variable(f):
            del f.attrs["rules"]
            f.attrs.create("rules", "{}", dtype=h5py.string_dtype())

        with self.assertRaisesRegex(ValueError, "variable-length string"):
            load(self.altered("variable.h5", variable))

    def test_every_flipped_byte_is_read_or_refused(self):
        path = Path(self.directory.name) / "flipped.h5"
        refused = 0
        positions = range(0, len(self.bytes), max(1, len(self.bytes) // 150))
        for at in positions:
            flipped = bytearray(self.bytes)
            flipped[at] ^= 0x5A
            path.write_bytes(bytes(flipped))
            try:
                load(path).measures
            except (ValueError, OSError, KeyError, RuntimeError):
                refused += 1
        self.assertGreater(refused, len(positions) // 4)


if __name__ == "__main__":
    unittest.main()
