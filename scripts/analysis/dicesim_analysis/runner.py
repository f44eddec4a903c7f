"""Running dicesim from Python: `run` plays a config and returns its results,
as `load` would; `solve` prints a game's exact numbers. Both find the binary
the same way (`find_binary`)."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

from .load import load

# Where a checkout's build puts the binary, from this package (scripts/analysis/dicesim_analysis).
_CHECKOUT_BINARY = Path(__file__).resolve().parents[3] / "build" / "dicesim"


class DicesimError(RuntimeError):
    """dicesim ended with a non-zero exit code. `message` is its last line on
    standard error (dicesim's one-line reason), `exit_code` the code (1: a
    check beyond chance, 2: bad input, 3: a failed write, 130: interrupted),
    `stdout` what it printed, and `results` the results file when it wrote
    one (a failed check, an interrupted run), else None."""

    def __init__(self, command, exit_code, message, stdout="", results=None):
        self.command, self.exit_code, self.message, self.stdout, self.results = command, exit_code, message, stdout, results
        super().__init__(f"dicesim {command} failed (exit code {exit_code}): {message}")


def find_binary():
    """The dicesim to run: $DICESIM, then `dicesim` on PATH, then the one
    installed beside this Python's scripts, then this checkout's build/dicesim."""
    candidates = [os.environ.get("DICESIM"), shutil.which("dicesim"),
                  str(Path(sysconfig.get_path("scripts")) / "dicesim"), str(_CHECKOUT_BINARY)]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("no dicesim binary found: set DICESIM to its path, put it on PATH, "
                            "or build this checkout (bash scripts/build.sh)")


def _stream(process, echo):
    """Standard error line by line as it comes (dicesim's progress lines), to
    sys.stderr when echo; returns every line."""
    lines = []
    for line in process.stderr:
        lines.append(line)
        if echo:
            sys.stderr.write(line)
            sys.stderr.flush()
    return lines


def _call(arguments, echo):
    """Runs dicesim with `arguments`; returns (exit code, stdout, stderr lines)."""
    command = [find_binary(), *arguments]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        # Standard output is read by a thread of its own, so that neither pipe fills while the other is read.
        out = []
        reader = threading.Thread(target=lambda: out.append(process.stdout.read()))
        reader.start()
        errors = _stream(process, echo)
        reader.join()
        code = process.wait()
    return code, out[0] if out else "", errors


def _message(errors, code, stdout=""):
    """dicesim's one-line reason: its last line on standard error, or for a
    failed check (which says nothing there) the summary line of the checks."""
    lines = [line.strip() for line in errors if line.strip() and not line.startswith("[")]  # not progress lines
    if lines:
        return lines[-1]
    checks = [line for line in stdout.splitlines() if line.startswith("check: ")]
    return checks[-1] if checks else f"no message (exit code {code})"


def _config_path(config, directory):
    """A path to the config: as given, or a dict written to a temporary file."""
    if isinstance(config, dict):
        path = Path(directory) / "config.json"
        path.write_text(json.dumps(config))
        return str(path)
    return os.fspath(config)


def run(config, games=None, seed=None, threads=None, output=None, check=False, precision=None, progress=True,
        progress_every=5, json_summary=None, extra=()):
    """Plays `config` (a path, or a dict written to a temporary config file)
    with `dicesim run` (or `dicesim check` with check=True), and returns the
    results file loaded (the Results that `load` returns).

    games, seed, threads, precision: override the config's (dicesim's --games,
    --seed, --threads, --precision). output: the results file (default
    dicesim's: results/<name>.h5 under the current directory). progress:
    dicesim's progress lines go to sys.stderr as they come (a notebook shows
    them under the cell), a line every `progress_every` seconds; False runs
    quietly. json_summary: also write the summary JSON there (--json). extra:
    more command-line arguments.

    A non-zero exit raises DicesimError with dicesim's one-line message; a
    check beyond chance (exit code 1) raises it too, its `results` the file."""
    with tempfile.TemporaryDirectory(prefix="dicesim-") as directory:
        arguments = ["check" if check else "run", _config_path(config, directory)]
        options = {"--games": games, "--seed": seed, "--threads": threads, "-o": output, "--precision": precision,
                   "--json": json_summary}
        for name, value in options.items():
            if value is not None:
                arguments += [name, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
        arguments += ["--progress-every", str(progress_every)] if progress else ["--quiet"]
        arguments += list(extra)
        code, stdout, errors = _call(arguments, progress)
    written = _written_file(stdout)
    if code != 0:
        raise DicesimError(arguments[0], code, _message(errors, code, stdout), stdout, written)
    results = load(written)
    results.log = stdout
    return results


def _written_file(stdout):
    """The results file a run names in its last line: "wrote PATH (...)"."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("wrote "):
            return line[len("wrote "):].rsplit(" (", 1)[0]
    return None


def solve(game, *arguments):
    """`dicesim solve GAME ARGUMENTS...`: the exact numbers as the text it
    prints. Raises DicesimError on a non-zero exit."""
    code, stdout, errors = _call(["solve", game, *map(str, arguments)], echo=False)
    if code != 0:
        raise DicesimError("solve " + game, code, _message(errors, code), stdout)
    return stdout
