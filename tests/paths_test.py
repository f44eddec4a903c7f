"""Every repository path that a README or a code comment names exists.

Scans the tracked .md files (all of their text) and the comments of the
tracked .cpp, .h, .py, .sh and CMakeLists.txt files (// and /* */ in C++;
# and docstrings in Python; # in shell and CMake) for tokens that look like
repository paths:

- starting with sim/, tests/, configs/, scripts/, strategies/ or .ci/;
- in a file under sim/, also an include-style path starting with a folder
  of sim/ (engine/, math/, config/, strategies/, games/, plan/, results/,
  app/), as `#include "engine/dice.h"` names them;

and ending in a file name with one of the extensions below, or in a slash
(a folder). `x.h/.cpp` stands for x.h and x.cpp. A token is resolved against
the repository's root, then sim/, then the folder of the file that names it.
Skipped: placeholders (a token holding <, *, { or an upper-case segment such
as NAME), paths inside URLs, and paths under build/ or results/ (what a
build or a run writes).

Also checks that every relative link between the .md files, [text](path#anchor),
names an existing file and, where it gives one, a heading of that file.

Fails listing each offender as `file:line: path`.
Run with Debian's Python: /usr/bin/python3 tests/paths_test.py
"""
import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(os.environ.get("DICESIM_ROOT", Path(__file__).resolve().parents[1]))

EXTENSIONS = (".h", ".cpp", ".py", ".json", ".md", ".sh", ".sbatch", ".cmake")
TOP_FOLDERS = ("sim/", "tests/", "configs/", "scripts/", "strategies/", ".ci/")
SIM_FOLDERS = ("engine/", "math/", "config/", "strategies/", "games/", "plan/", "results/", "app/")
SKIPPED_PREFIXES = ("build/", "results/")

# A path: word characters, dots, dashes, slashes, and placeholders (<game>,
# *, {h,cpp}); not preceded by a character that would make it part of a
# longer path (build/tests/x, /usr/share/dicesim/configs/x, ./configs/x).
TOKEN = re.compile(r"(?<![\w./\-<>{}*])((?:[\w.\-<>*]|\{[^}\s]*\})+/(?:[\w.\-/<>*]|\{[^}\s]*\})*)")
URL = re.compile(r"\b[a-z][a-z0-9+.\-]*://\S+")
UPPER_PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$")


def tracked_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name]


def scanned(name):
    """'md', 'cpp', 'py', 'hash' (shell, CMake) or None."""
    if name.endswith(".md"):
        return "md"
    if name.endswith((".cpp", ".h")):
        return "cpp"
    if name.endswith(".py"):
        return "py"
    if name.endswith(".sh") or Path(name).name == "CMakeLists.txt":
        return "hash"
    return None


STRING_LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"')


def cpp_comments(text):
    """(line number, comment text) of every // and /* */ comment."""
    out = []
    in_block = False
    for number, line in enumerate(text.split("\n"), 1):
        if in_block:
            end = line.find("*/")
            out.append((number, line if end < 0 else line[:end]))
            if end < 0:
                continue
            in_block = False
            line = line[end + 2:]
        code = STRING_LITERAL.sub(lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', line)
        line_comment = code.find("//")
        block = code.find("/*")
        if line_comment >= 0 and (block < 0 or line_comment < block):
            out.append((number, line[line_comment + 2:]))
        elif block >= 0:
            end = code.find("*/", block + 2)
            out.append((number, line[block + 2:] if end < 0 else line[block + 2:end]))
            in_block = end < 0
    return out


def hash_comments(text, docstrings=False):
    """(line number, comment text) of every # comment (and, for Python,
    every line of a triple-quoted string that opens a line: docstrings)."""
    out = []
    in_doc = None
    for number, line in enumerate(text.split("\n"), 1):
        if in_doc:
            out.append((number, line))
            if in_doc in line:
                in_doc = None
            continue
        stripped = line.strip()
        if docstrings:
            opening = re.match(r'^[rbuRBU]?("""|\'\'\')', stripped)
            if opening:
                out.append((number, stripped))
                quote = opening.group(1)
                if stripped.count(quote) == 1:
                    in_doc = quote
                continue
        code = STRING_LITERAL.sub(lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', line)
        code = re.sub(r"'(?:\\.|[^'\\\n])*'", lambda m: "'" + " " * (len(m.group(0)) - 2) + "'", code)
        at = code.find("#")
        if at >= 0:
            out.append((number, line[at + 1:]))
    return out


def texts(name, kind, text):
    if kind == "md":
        return list(enumerate(text.split("\n"), 1))
    if kind == "cpp":
        return cpp_comments(text)
    return hash_comments(text, docstrings=(kind == "py"))


def is_placeholder(token):
    if any(c in token for c in "<*{"):
        return True
    for segment in token.split("/"):
        stem = segment.split(".")[0]
        if UPPER_PLACEHOLDER.match(stem) and stem not in ("README", "LICENSE", "CMakeLists"):
            return True
    return False


def candidates(token):
    """The paths a token stands for: x.h/.cpp is x.h and x.cpp."""
    token = token.rstrip(".,:;-")
    split = re.match(r"^(.*?)((?:\.\w+)(?:/\.\w+)+)$", token)
    if split:
        base, extensions = split.groups()
        return [base + e.lstrip("/") for e in extensions.split("/")]
    return [token]


def looks_like_path(path, in_sim):
    prefixes = TOP_FOLDERS + (SIM_FOLDERS if in_sim else ())
    if not path.startswith(prefixes):
        return False
    return path.endswith("/") or path.endswith(EXTENSIONS)


def exists(path, name):
    for base in (ROOT, ROOT / "sim", (ROOT / name).parent):
        if (base / path).exists():
            return True
    return False


def offenders():
    found = []
    for name in tracked_files():
        kind = scanned(name)
        if kind is None or not (ROOT / name).is_file():
            continue
        in_sim = name.startswith("sim/")
        text = (ROOT / name).read_text(errors="replace")
        for number, line in texts(name, kind, text):
            line = URL.sub(" ", line)
            for match in TOKEN.finditer(line):
                token = match.group(1)
                if token.startswith(SKIPPED_PREFIXES) or is_placeholder(token):
                    continue
                for path in candidates(token):
                    if looks_like_path(path, in_sim) and not exists(path, name):
                        found.append(f"{name}:{number}: {path}")
    return found


# [text](target) with a relative target, in a .md file.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(markdown):
    """GitHub's anchors of a file's headings."""
    out = set()
    for line in markdown.split("\n"):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            slug = heading.group(1).strip().lower()
            slug = re.sub(r"[^\w\- ]", "", slug).replace(" ", "-")
            base, n = slug, 1
            while slug in out:
                slug, n = f"{base}-{n}", n + 1
            out.add(slug)
    return out


def broken_links():
    found = []
    for name in tracked_files():
        if not name.endswith(".md") or not (ROOT / name).is_file():
            continue
        text = (ROOT / name).read_text(errors="replace")
        in_fence = False
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith("```"):
                in_fence = not in_fence
            if in_fence:
                continue
            for match in LINK.finditer(line):
                target = match.group(1)
                if re.match(r"^[a-z][a-z0-9+.\-]*:", target):
                    continue  # a URL, mailto:
                path, _, anchor = target.partition("#")
                file = (ROOT / name).parent / path if path else ROOT / name
                if not file.exists():
                    found.append(f"{name}:{number}: {target} (no such file)")
                elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(errors="replace")):
                    found.append(f"{name}:{number}: {target} (no such heading)")
    return found


class Paths(unittest.TestCase):
    def test_every_named_path_exists(self):
        found = offenders()
        for offender in found:
            print(offender, file=sys.stderr)
        self.assertEqual(found, [], f"{len(found)} paths named in comments and READMEs do not exist "
                                    "(listed above, file:line: path)")

    def test_every_link_between_docs_resolves(self):
        found = broken_links()
        for offender in found:
            print(offender, file=sys.stderr)
        self.assertEqual(found, [], f"{len(found)} links between the docs lead nowhere (listed above)")

    def test_the_scanner_finds_what_it_should(self):
        self.assertEqual(candidates("engine/dice.h/.cpp"), ["engine/dice.h", "engine/dice.cpp"])
        self.assertTrue(is_placeholder("sim/games/<game>/README.md"))
        self.assertTrue(is_placeholder("configs/NAME.json"))
        self.assertFalse(is_placeholder("configs/README.md"))
        self.assertTrue(looks_like_path("engine/rng.h", in_sim=True))
        self.assertFalse(looks_like_path("engine/rng.h", in_sim=False))
        self.assertFalse(looks_like_path("sim/games", in_sim=False))
        self.assertEqual(cpp_comments('x = "a // b"; // sim/x.h\n/* tests/y.cpp\n z */'),
                         [(1, " sim/x.h"), (2, " tests/y.cpp"), (3, " z ")])
        tokens = [m.group(1) for m in TOKEN.finditer("see build/tests/x.cpp, /usr/share/configs/a.json and sim/a.h.")]
        self.assertEqual(tokens, ["build/tests/x.cpp", "sim/a.h."])  # build/: skipped later
        self.assertIn("command-line", anchors("## Command line\n"))
        self.assertIn("results-file-format_version-3-0", anchors("## Results file, format_version [3, 0]\n"))


if __name__ == "__main__":
    unittest.main()
