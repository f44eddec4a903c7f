"""The package installs with pip, offline, from Debian's own packages: a
regular and an editable install into a fresh virtual environment (with the
system's site packages, where numpy & co live) both import it and install
the dicesim-report command."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from common import ROOT

PACKAGE = ROOT / "scripts" / "analysis"


# The venv's own import path: without the checkout that ctest puts on PYTHONPATH.
CLEAN_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _python(venv):
    return str(Path(venv) / "bin" / "python")


class Install(unittest.TestCase):
    def _install_and_import(self, editable):
        with tempfile.TemporaryDirectory() as scratch:
            # A copy, so that a build leaves nothing in the checkout.
            source = Path(scratch) / "analysis"
            shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            venv = Path(scratch) / "venv"
            subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
            command = [_python(venv), "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation", "--no-deps"]
            command += ["-e", str(source)] if editable else [str(source)]
            subprocess.run(command, check=True, capture_output=True, text=True, env=CLEAN_ENV)
            shown = subprocess.run(
                [_python(venv), "-c", "import dicesim_analysis as d; print(d.__version__); print(d.__file__); d.summary_schema()"],
                check=True, capture_output=True, text=True, cwd=scratch, env=CLEAN_ENV,
            ).stdout.split("\n")
            expected_home = source if editable else venv
            self.assertTrue(shown[0])
            self.assertTrue(Path(shown[1]).resolve().is_relative_to(expected_home.resolve()), shown)
            # The report's console script, on a file that is not results: its own exit code and message.
            bogus = Path(scratch) / "bogus.h5"
            bogus.write_bytes(b"not hdf5")
            report = subprocess.run([str(venv / "bin" / "dicesim-report"), str(bogus)], capture_output=True,
                                    text=True, env=CLEAN_ENV)
            self.assertEqual(report.returncode, 2, report.stderr)
            self.assertIn(f"{bogus}: unreadable or truncated results file", report.stderr)
            return shown[0]

    def test_a_regular_install_imports(self):
        self._install_and_import(editable=False)

    def test_an_editable_install_imports(self):
        self._install_and_import(editable=True)

    def test_the_version_is_the_packages(self):
        import dicesim_analysis

        self.assertEqual(self._install_and_import(editable=False), dicesim_analysis.__version__)


if __name__ == "__main__":
    unittest.main()
