"""The tests and the notebooks import this checkout's package, even where an
earlier scripts/setup.sh left another checkout's editable install in the
system Python: ctest puts scripts/analysis first on PYTHONPATH."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import nbformat

import dicesim_analysis
from common import ROOT

PACKAGE = (ROOT / "scripts" / "analysis").resolve()
WHERE = "import dicesim_analysis; print(dicesim_analysis.__file__)"


class ThisCheckout(unittest.TestCase):
    def test_the_tests_import_this_checkouts_package(self):
        self.assertTrue(Path(dicesim_analysis.__file__).resolve().is_relative_to(PACKAGE), dicesim_analysis.__file__)

    def test_a_notebooks_kernel_imports_this_checkouts_package(self):
        with tempfile.TemporaryDirectory() as scratch:
            notebook = Path(scratch) / "where.ipynb"
            nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(WHERE)]), notebook)
            env = dict(os.environ, PYDEVD_DISABLE_FILE_VALIDATION="1")
            run = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", str(notebook),
                                  "--output", str(notebook)], capture_output=True, text=True, env=env, cwd=scratch)
            self.assertEqual(run.returncode, 0, run.stderr[-2000:])
            printed = nbformat.read(notebook, as_version=4).cells[0].outputs[0]["text"].strip()
        self.assertTrue(Path(printed).resolve().is_relative_to(PACKAGE), printed)


if __name__ == "__main__":
    unittest.main()
