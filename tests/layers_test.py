"""The folders of sim/ include each other one way only.

Each folder's main header says, in a line `// may include: a, b, c` (or
`// may include: nothing else`), which other folders its files may include;
this test holds every `#include "..."` of the folder to that line, refuses a
game folder that includes another game, and refuses a cycle among the
declared lines themselves. Run with Debian's Python:
/usr/bin/python3 tests/layers_test.py
"""
import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
MAY_INCLUDE = re.compile(r"^// may include: (.*)$", re.M)
GENERATED = {"git_revision.h"}  # written into the build tree by CMake


def folder_of(path):
    """The layer a source file belongs to: its folder sim/<folder>/..., but a
    game's solve command (sim/games/<game>/<game>_solve.cpp) is part of the
    command line: it sits in app/'s layer, inside its game's folder."""
    parts = path.relative_to(ROOT).parts
    if parts[:2] == ("sim", "games") and path.name.endswith("_solve.cpp"):
        return "app"
    return parts[1]


def folder_of_include(spelling):
    return spelling.split("/")[0]


def sources():
    for path in sorted((ROOT / "sim").rglob("*")):
        if path.suffix in (".h", ".cpp") and not path.name.endswith("_test.cpp"):
            yield path


def declared_layers():
    """{folder: set of folders it may include}, from the main headers."""
    declared = {}
    for path in sources():
        if path.suffix != ".h":
            continue
        for line in MAY_INCLUDE.findall(path.read_text()):
            folder = folder_of(path)
            if folder in declared:
                raise AssertionError(f"{path.relative_to(ROOT)}: a second `may include` line for {folder}/")
            names = {n.strip() for n in line.split(",")}
            declared[folder] = set() if names == {"nothing else"} else names
    return declared


def include_errors(declared):
    errors = []
    for path in sources():
        folder = folder_of(path)
        rel = path.relative_to(ROOT)
        for spelling in INCLUDE.findall(path.read_text()):
            if spelling in GENERATED:
                continue
            target = folder_of_include(spelling)
            if target not in declared:
                errors.append(f"{rel}: #include \"{spelling}\" names no folder of sim/")
            elif target != folder and target not in declared[folder]:
                errors.append(f"{rel}: {folder}/ may not include {target}/ (\"{spelling}\"); "
                              f"its main header allows: {', '.join(sorted(declared[folder])) or 'nothing else'}")
            elif rel.parts[:2] == ("sim", "games") and len(rel.parts) > 3:  # sim/games/<game>/file
                game = rel.parts[2]
                parts = spelling.split("/")
                if len(parts) > 2 and parts[1] != game:
                    errors.append(f"{rel}: the game {game} includes another game's header \"{spelling}\"")
    return errors


def cycle(declared):
    """A cycle among the declared folders, as a list, or None."""
    state = {}

    def visit(folder, trail):
        state[folder] = "open"
        for other in sorted(declared.get(folder, ())):
            if state.get(other) == "open":
                return trail[trail.index(other):] + [other] if other in trail else [folder, other]
            if other not in state:
                found = visit(other, trail + [other])
                if found:
                    return found
        state[folder] = "done"
        return None

    for folder in sorted(declared):
        if folder not in state:
            found = visit(folder, [folder])
            if found:
                return found
    return None


class Layers(unittest.TestCase):
    def test_every_folder_declares_what_it_may_include(self):
        folders = {folder_of(p) for p in sources()}
        self.assertEqual(sorted(folders - set(declared_layers())), [],
                         "a folder's main header needs a `// may include: ...` line")

    def test_the_declared_layers_have_no_cycle(self):
        declared = declared_layers()
        unknown = {n for names in declared.values() for n in names} - set(declared)
        self.assertEqual(sorted(unknown), [], "a `may include` line names no folder")
        self.assertIsNone(cycle(declared))

    def test_every_include_keeps_to_its_folders_line(self):
        self.assertEqual(include_errors(declared_layers()), [])

    def test_a_cycle_and_a_wrong_include_are_caught(self):
        self.assertEqual(cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        self.assertIsNone(cycle({"a": {"b"}, "b": set()}))


if __name__ == "__main__":
    unittest.main()
