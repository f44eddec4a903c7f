"""The GPU engine (sim/engine/gpu.h) as users run it: `run --device gpu`.

Two ctest tests run this file:
  gpu_refused (everywhere): where no GPU can play, `--device gpu` is refused
    in one line, exit 2, with nothing written; where one can, a game without
    GPU play is refused so.
  gpu (label gpu): needs a GPU, and exits 77 (ctest: skipped, saying so)
    without one. Every Sixers config played on the GPU writes the same
    datasets, bit for bit, as on the CPU (scripts/slurm/same_datasets.py),
    so do the stages of a precision target, shards split between the
    devices merge into the same file, and `check` passes on the GPU.
Usage: DICESIM_BINARY=build/dicesim /usr/bin/python3 tests/gpu_test.py refused|gpu
"""
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DICESIM = os.environ.get("DICESIM_BINARY", str(ROOT / "build" / "dicesim"))
SAME = [sys.executable, str(ROOT / "scripts" / "slurm" / "same_datasets.py")]
# Each shipped Sixers config, and its games: 46 blocks, the last one short
# (the grid's 1,457 tables 4 blocks each).
SIXERS = {"sixers.json": "3e6", "sixers_grid.json": "2e5", "sixers_optimal_win.json": "3e6",
          "sixers_paper.json": "3e6", "threes.json": "3e6"}
GAMES = "3e6"  # the shards'
SKIPPED = 77


def dicesim(*args, expect=0):
    done = subprocess.run([DICESIM, *args], capture_output=True, text=True)
    if done.returncode != expect:
        sys.exit(f"dicesim {' '.join(args)}: exit {done.returncode}, expected {expect}\n{done.stderr}")
    return done


def gpu_refusal(directory):
    """Where no GPU can play: None, else the refusal's one line."""
    out = pathlib.Path(directory, "probe.h5")
    done = subprocess.run([DICESIM, "run", str(ROOT / "configs" / "sixers.json"), "--games", "1000", "--device",
                           "gpu", "-o", str(out), "--quiet"], capture_output=True, text=True)
    if done.returncode == 0:
        return None
    if done.returncode != 2 or done.stderr.count("\n") != 1 or "--device gpu: " not in done.stderr:
        sys.exit(f"--device gpu: expected exit 0, or exit 2 and one line; got {done.returncode}:\n{done.stderr}")
    if out.exists():
        sys.exit("--device gpu: refused, yet the results file was written")
    return done.stderr


def refused(directory):
    why = gpu_refusal(directory)
    if why is not None:
        print("no GPU here, refused in one line, nothing written:", why.strip())
        return 0
    out = pathlib.Path(directory, "pig.h5")
    done = dicesim("run", str(ROOT / "configs" / "pig_one_die.json"), "--games", "1000", "--device", "gpu", "-o",
                   str(out), expect=2)
    if done.stderr.count("\n") != 1 or "has no GPU play yet" not in done.stderr or out.exists():
        sys.exit(f"a game without GPU play: expected one line and nothing written, got:\n{done.stderr}")
    print("a game without GPU play is refused in one line:", done.stderr.strip())
    return 0


def same_on_both(directory):
    why = gpu_refusal(directory)
    if why is not None:
        print("skipped: no GPU can play here:", why.strip())
        return SKIPPED
    d = pathlib.Path(directory)
    for name, games in SIXERS.items():
        config = str(ROOT / "configs" / name)
        cpu, gpu = str(d / f"cpu-{name}.h5"), str(d / f"gpu-{name}.h5")
        dicesim("run", config, "--games", games, "-o", cpu, "--quiet")
        dicesim("run", config, "--games", games, "-o", gpu, "--quiet", "--device", "gpu")
        subprocess.run([*SAME, cpu, gpu], check=True)
    # A precision target plays in stages, each continuing the tables' streams
    # where the last stopped (a table's first stream is not 0).
    config = str(ROOT / "configs" / "sixers.json")
    for device in ("cpu", "gpu"):
        dicesim("run", config, "--games", "1e7", "--precision", "0.003", "-o", str(d / f"precise-{device}.h5"),
                "--quiet", "--device", device)
    subprocess.run([*SAME, str(d / "precise-cpu.h5"), str(d / "precise-gpu.h5")], check=True)
    # Shards of one run on either device merge into the CPU's file.
    config = str(ROOT / "configs" / "sixers.json")
    dicesim("run", config, "--games", GAMES, "--shard", "1/2", "-o", str(d / "half-1.h5"), "--quiet", "--device", "gpu")
    dicesim("run", config, "--games", GAMES, "--shard", "2/2", "-o", str(d / "half-2.h5"), "--quiet")
    dicesim("merge", str(d / "half-1.h5"), str(d / "half-2.h5"), "-o", str(d / "merged.h5"), "--quiet")
    subprocess.run([*SAME, str(d / "cpu-sixers.json.h5"), str(d / "merged.h5")], check=True)
    for name in SIXERS:  # 10^7 games a table (the grid's 1,457 tables 10^6)
        dicesim("check", str(ROOT / "configs" / name), "--games", "1e6" if name == "sixers_grid.json" else "1e7",
                "-o", str(d / f"check-{name}.h5"), "--quiet", "--device", "gpu")
    print(f"{len(SIXERS)} Sixers configs: the same datasets on the GPU as on the CPU; shards merge; check passes")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("refused", "gpu"):
        sys.exit(__doc__.strip())
    with tempfile.TemporaryDirectory() as scratch:
        sys.exit((refused if sys.argv[1] == "refused" else same_on_both)(scratch))
