"""README.md's commands work as written, and the README stays short.

Convention: every block fenced ```sh is run with bash (-e -u -o pipefail),
and every block fenced ```python with /usr/bin/python3, in the order they
appear, all in one scratch directory (also HOME) that holds copies of
configs/ and scripts/ and build/dicesim (the binary under test, DICESIM_BINARY):
so a block may use the files an earlier block wrote, as a reader following
the README would. Other fences (```text, ```json, ...) are shown, not run.

Two commands are not run, by name: `bash scripts/run.sh` and
`bash scripts/test.sh` (setup, build and, for the second, this very test).
The test checks that they are in the README and that .ci/run calls the
README's test command. Everything else runs as written, so the README's
commands are kept cheap (--games 1e5 and the like).

Fails if a block exits non-zero, if a block prints NaN (the README promises
exact values beside the Monte Carlo: a missing one is a broken promise, as
when a plain run overwrote the file a check had written), or if README.md
exceeds MAX_LINES lines."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("DICESIM_ROOT", Path(__file__).resolve().parents[1]))
BINARY = Path(os.environ.get("DICESIM_BINARY", ROOT / "build" / "dicesim"))
MAX_LINES = 250
NOT_RUN = ("bash scripts/run.sh", "bash scripts/test.sh")
RUNNERS = {"sh": ["bash", "-euo", "pipefail"], "python": ["/usr/bin/python3"]}


def blocks(text):
    """(language, first line number, code) of every fenced block."""
    found = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        opening = re.match(r"^```(\w*)\s*$", lines[i])
        if opening:
            end = lines.index("```", i + 1)
            found.append((opening.group(1), i + 1, "\n".join(lines[i + 1:end])))
            i = end
        i += 1
    return found


def without_skipped(code):
    """The block with the NOT_RUN commands left out (each alone on its line)."""
    kept = []
    for line in code.split("\n"):
        command = line.split("#")[0].strip()
        if any(command == c or command.startswith(c + " ") for c in NOT_RUN):
            continue
        kept.append(line)
    return "\n".join(kept)


def scratch_directory(path):
    """A checkout as the README's reader has it after a build, whose files
    the blocks may change (a venv's editable install writes into scripts/)."""
    shutil.copytree(ROOT / "configs", path / "configs")
    shutil.copytree(ROOT / "scripts", path / "scripts",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "*.out.ipynb"))
    (path / "home").mkdir()
    (path / "build").mkdir()
    (path / "build" / "dicesim").symlink_to(BINARY)


def main():
    text = (ROOT / "README.md").read_text()
    failures = []
    line_count = text.count("\n")
    if line_count > MAX_LINES:
        failures.append(f"README.md has {line_count} lines, more than {MAX_LINES}")
    runnable = [b for b in blocks(text) if b[0] in RUNNERS]
    every_command = "\n".join(code for _, _, code in runnable)
    for command in NOT_RUN:
        if not re.search(r"^" + re.escape(command) + r"\b", every_command, re.M):
            failures.append(f"README.md has no ```sh line running {command}")
    if "bash scripts/test.sh" not in (ROOT / ".ci" / "run").read_text():
        failures.append(".ci/run does not call the README's test command, bash scripts/test.sh")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        scratch_directory(scratch)
        # HOME too: a block's ~/.venvs and Jupyter kernels land in the scratch directory.
        env = dict(os.environ, HOME=str(scratch / "home"), DICESIM_CACHE_DIR=str(scratch / "cache"),
                   MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
        for language, line, code in runnable:
            run = subprocess.run(RUNNERS[language] + ["-c", without_skipped(code)],
                                 cwd=scratch, env=env, capture_output=True, text=True)
            print(f"README.md:{line}: ```{language} block: exit {run.returncode}", flush=True)
            if run.returncode != 0:
                failures.append(f"README.md:{line}: ```{language} block exited {run.returncode}:\n{code}\n"
                                f"--- stdout\n{run.stdout[-3000:]}\n--- stderr\n{run.stderr[-3000:]}")
            elif re.search(r"\bNaN\b", run.stdout):
                failures.append(f"README.md:{line}: ```{language} block printed NaN (a value the README "
                                f"promises is missing):\n{run.stdout[-3000:]}")
    if len(runnable) < 5:
        failures.append(f"only {len(runnable)} runnable blocks found: is the fence convention still ```sh?")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
