import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import h5py
import nbformat

from common import BINARY, ROOT, pair_index

NOTEBOOKS = ROOT / "scripts" / "notebooks"


class NotebookTest(unittest.TestCase):
    def execute(self, name, directory):
        # The notebook keeps Jupyter's inline backend: MPLBACKEND would stop plt.show() from emitting images.
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
        env.update(DICESIM_GAMES="4000", DICESIM_ROOT=str(ROOT), DICESIM=str(BINARY), DICESIM_OUT=directory,
                   PYDEVD_DISABLE_FILE_VALIDATION="1")
        out = Path(directory) / "executed.ipynb"
        run = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                              "--ExecutePreprocessor.timeout=300", str(NOTEBOOKS / name), "--output", str(out)],
                             capture_output=True, text=True, env=env, cwd=NOTEBOOKS)
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        return nbformat.read(out, as_version=4)

    def execute_and_count_figures(self, name, directory, figure_count):
        """Runs the notebook; asserts `figure_count` figure cells with one image each and no
        error; returns every printed output as one text."""
        notebook = self.execute(name, directory)
        code = [c for c in notebook.cells if c.cell_type == "code"]
        figures = [c for c in code if "figure" in c.metadata.get("tags", [])]
        self.assertEqual(len(figures), figure_count)
        for cell in figures:
            images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
            self.assertEqual(len(images), 1, cell.source[:80])
        errors = [o for c in code for o in c.outputs if o.output_type == "error"]
        self.assertEqual(errors, [])
        return "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for c in code for o in c.outputs)

    def test_the_notebooks_run_dicesim_through_the_package(self):
        for name in ("sixers_paper.ipynb", "race_games.ipynb"):
            notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
            code = "".join(c.source for c in notebook.cells if c.cell_type == "code")
            self.assertNotIn("subprocess", code, name)
            self.assertIn("da.run(", code, name)

    def test_sixers_paper_produces_every_figure(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        # Figs. 2, 3, 4, 5, 6, 7, the matrix and the z-scores
        text = self.execute_and_count_figures("sixers_paper.ipynb", directory.name, 8)
        self.assertIn("paper (100,000 games)", text)  # Table I, three versions side by side
        with h5py.File(Path(directory.name) / "sixers_paper_notebook.h5") as f:
            p = f["exact/distributions/dv(2,2)/probability"][()]
        self.assertIn(f"exact mean {(p * range(len(p))).sum():.6f}", text)

    def test_race_games_checks_every_config_and_draws_every_figure(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        text = self.execute_and_count_figures("race_games.ipynb", directory.name, 8)  # Pig x2, Dice Battle x2, 10,000 x4
        for config in ("pig_one_die", "pig_two_dice", "battle_sequential", "battle_simultaneous", "tenk_seed000"):
            self.assertRegex(text, config + r": check: \d+ numbers compared with the exact solver, 0 beyond")
        # The exact first-turn distribution reached the file, so the figure has its exact ticks.
        with h5py.File(Path(directory.name) / "tenk_seed000_notebook.h5") as f:
            self.assertIn("first_turn", f["exact/sequential"])
            names = f["strategies/names"].asstr()[()]
            k = pair_index(f, "exact/sequential", names[0], names[1])
            self.assertGreater(f["exact/sequential/win"][k], 0)  # the exact odds of whole games
        for rules in ("seed000", "seed003"):  # what each strategy gives away against optimal play
            self.assertRegex(text, rules + r": first seat wins 0\.\d+, second seat wins 0\.\d+")


if __name__ == "__main__":
    unittest.main()
