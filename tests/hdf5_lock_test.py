"""A results file that h5py holds open for writing is refused as such.

HDF5 locks a file it opens for writing (flock); dicesim used to report such
a file as "unreadable or truncated". Run by ctest (`hdf5_lock`) with
DICESIM_BINARY set, with Debian's Python (h5py).
"""
import os
import pathlib
import subprocess
import tempfile
import unittest

import h5py

DICESIM = os.environ["DICESIM_BINARY"]
CONFIG = """{"game": "battle", "rules": {"max_dice": 2, "goal": 8, "turns": "simultaneous"}, "seed": 1,
  "games": 100, "strategies": [{"name": "blind", "family": "blind"}], "contests": {"distributions": true}}"""


class HeldForWriting(unittest.TestCase):
    def test_a_file_h5py_holds_open_for_writing_is_said_so(self):
        with tempfile.TemporaryDirectory() as directory:
            config = pathlib.Path(directory, "small.json")
            config.write_text(CONFIG)
            results = str(pathlib.Path(directory, "small.h5"))
            subprocess.run([DICESIM, "run", str(config), "-o", results, "--quiet"], check=True)
            with h5py.File(results, "a"):
                shown = subprocess.run([DICESIM, "show", results], capture_output=True, text=True)
            self.assertEqual(shown.returncode, 2, shown.stderr)
            self.assertEqual(shown.stderr, results + ": is open for writing by another program (HDF5 file lock): "
                             "close it there first\n")
            self.assertEqual(subprocess.run([DICESIM, "show", results], capture_output=True).returncode, 0)


if __name__ == "__main__":
    unittest.main()
