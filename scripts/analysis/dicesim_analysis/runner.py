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

from .errors import DicesimError, ResultsFileError
from .load import load
from .safe import has_control_characters, refuse_clashes, write_atomically

# Where a checkout's build puts the binary, from this package (scripts/analysis/dicesim_analysis).
_CHECKOUT_BINARY = Path(__file__).resolve().parents[3] / "build" / "dicesim"


def find_binary():
    """The dicesim to run: $DICESIM, then `dicesim` on PATH, then the one
    installed beside this Python's scripts, then this checkout's build/dicesim.
    $DICESIM set but naming no executable file is a DicesimError (never
    silently another dicesim)."""
    named = os.environ.get("DICESIM")
    if named:
        if not (os.path.isfile(named) and os.access(named, os.X_OK)):
            raise DicesimError("(finding the binary)", 2, f"$DICESIM names {named!r}, which is not an executable file")
        return named
    candidates = [shutil.which("dicesim"),
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
        write_atomically(path, json.dumps(config))
        return str(path)
    return os.fspath(config)


# Options of `dicesim run` after which it plays nothing: run() returns what dicesim printed.
_PRINT_ONLY = {"--dry-run": "the plan", "--print-output": "the path"}


def _checked_name(value, what):
    if value is not None and has_control_characters(value):
        raise ResultsFileError(os.fsdecode(os.fspath(value)).encode("unicode_escape").decode(),
                               f"{what}: a name with control characters is refused")
    return value


def _options(games, seed, threads, precision, json_summary, progress, progress_every, extra, total_games=None,
             device=None):
    arguments = []
    for name, value in {"--games": games, "--total-games": total_games, "--seed": seed, "--threads": threads,
                        "--device": device, "--precision": precision, "--json": json_summary}.items():
        if value is not None:
            arguments += [name, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    arguments += ["--progress-every", str(progress_every)] if progress else ["--quiet"]
    return arguments + list(extra)


def _default_output(command, config_path, options):
    """The path dicesim would write (`--print-output`): its own last line, whole."""
    code, stdout, errors = _call([command, config_path, *options, "--print-output"], False)
    if code != 0:
        raise DicesimError(command, code, _message(errors, code, stdout), stdout)
    if not stdout.endswith("\n") or "\n" in stdout[:-1] or has_control_characters(stdout[:-1]) or not stdout[:-1]:
        raise DicesimError(command, 2, "--print-output printed no single path: " + repr(stdout))
    return stdout[:-1]


def run(config, games=None, seed=None, threads=None, output=None, check=False, precision=None, progress=True,
        progress_every=5, json_summary=None, extra=(), total_games=None, device=None):
    """Plays `config` (a path, or a dict written to a temporary config file)
    with `dicesim run` (or `dicesim check` with check=True), and returns the
    results file loaded (the Results that `load` returns).

    games, seed, threads, precision: override the config's (dicesim's --games,
    --seed, --threads, --precision); games counts games per table, and
    total_games (--total-games) games in all, split evenly over the tables. device: "gpu" plays on the GPU
    (--device gpu: the same results, bit for bit; Sixers only so far). output: the results file (default
    dicesim's: results/<name>.h5 under the current directory, which run()
    asks dicesim for with --print-output and then passes as -o). A name with
    control characters is refused (DicesimError). progress:
    dicesim's progress lines go to sys.stderr as they come (a notebook shows
    them under the cell), a line every `progress_every` seconds; False runs
    quietly. json_summary: also write the summary JSON there (--json). extra:
    more command-line arguments (not -o: use output). With "--dry-run" in
    extra nothing is played and run() returns the plan dicesim prints (a
    str); with "--print-output", the path it would write (a str).

    A non-zero exit raises DicesimError with dicesim's one-line message; a
    check beyond chance (exit code 1) raises it too, its `results` the file."""
    extra = [str(e) for e in extra]
    if any(e in ("-o", "--output") or e.startswith("--output=") for e in extra):
        raise DicesimError("run", 2, "pass the results file as output=, not -o in extra")
    _checked_name(output, "output")
    _checked_name(json_summary, "json_summary")
    if not isinstance(config, dict):
        _checked_name(config, "config")
    command = "check" if check else "run"
    options = _options(games, seed, threads, precision, json_summary, progress, progress_every, extra, total_games,
                       device)
    with tempfile.TemporaryDirectory(prefix="dicesim-") as directory:
        config_path = _config_path(config, directory)
        printing = next((e for e in extra if e in _PRINT_ONLY), None)
        if printing:
            arguments = [command, config_path, *options] + (["-o", os.fspath(output)] if output is not None else [])
            code, stdout, errors = _call(arguments, progress)
            if code != 0:
                raise DicesimError(command, code, _message(errors, code, stdout), stdout)
            return stdout[:-1] if printing == "--print-output" and stdout.endswith("\n") else stdout
        written = os.fspath(output) if output is not None else _default_output(command, config_path, options)
        refuse_clashes([written, json_summary], [config_path])
        if output is None and os.path.dirname(written):
            os.makedirs(os.path.dirname(written), exist_ok=True)  # results/, as dicesim makes it
        arguments = [command, config_path, "-o", written, *options]
        code, stdout, errors = _call(arguments, progress)
    if code != 0:
        results = written if os.path.isfile(written) and code in (1, 130) else None
        raise DicesimError(command, code, _message(errors, code, stdout), stdout, results)
    results = load(written)
    results.log = stdout
    return results


def solve(game, *arguments):
    """`dicesim solve GAME ARGUMENTS...`: the exact numbers as the text it
    prints. Raises DicesimError on a non-zero exit."""
    code, stdout, errors = _call(["solve", game, *map(str, arguments)], echo=False)
    if code != 0:
        raise DicesimError("solve " + game, code, _message(errors, code), stdout)
    return stdout
