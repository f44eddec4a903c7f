#!/usr/bin/python3
"""The shape of the C++ code, for reviews of a change that moves code around:
folders holding C++, include edges between the project's own files, files over
600 lines and functions over 60 lines (a function: a brace block opened by a
line that ends a parameter list, outside another function; a heuristic that
the tests keep honest on this code base, not a C++ parser).

    /usr/bin/python3 scripts/code_metrics.py [--list]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LONG_FILE, LONG_FUNCTION = 600, 60
CONTROL = re.compile(r"^\s*(\}?\s*else\b|if\b|for\b|while\b|switch\b|catch\b|do\b|try\b)")
# A line that opens a function body: ends in "{" after a ")" (parameters, maybe
# followed by const/noexcept/override/-> type/initialisers), or a constructor's
# initialiser list.
OPENER = re.compile(r"\)[^;(){}]*\{\s*(//.*)?$")


def cpp_files():
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", "*.cpp", "*.h", "*.cu", "*.cuh"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [f for f in listed if os.path.exists(os.path.join(ROOT, f))]


def long_functions(lines):
    found, depth, start, start_depth = [], 0, None, 0
    for number, line in enumerate(lines, 1):
        code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
        if start is None and OPENER.search(line) and not CONTROL.match(code.strip()) and "=" not in code.split("(")[0]:
            start, start_depth = number, depth
        depth += code.count("{") - code.count("}")
        if start is not None and depth <= start_depth:
            if number - start + 1 > LONG_FUNCTION:
                found.append((start, number - start + 1, lines[start - 1].strip()[:80]))
            start = None
    return found


def main():
    files = cpp_files()
    folders = sorted({os.path.dirname(f) for f in files})
    edges, long_files, functions = set(), [], []
    for f in files:
        with open(os.path.join(ROOT, f), encoding="utf-8") as source:
            lines = source.read().splitlines()
        for line in lines:
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                edges.add((f, m.group(1)))
        if len(lines) > LONG_FILE:
            long_files.append((f, len(lines)))
        functions += [(f, *found) for found in long_functions(lines)]
    print(f"folders holding C++: {len(folders)}")
    print(f"include edges (project headers): {len(edges)}")
    print(f"files over {LONG_FILE} lines: {len(long_files)}")
    print(f"functions over {LONG_FUNCTION} lines: {len(functions)}")
    if "--list" in sys.argv:
        print("\nfolders: " + " ".join(folders))
        for f, n in sorted(long_files, key=lambda x: -x[1]):
            print(f"  {n:5d} lines  {f}")
        for f, line, n, text in sorted(functions, key=lambda x: -x[2]):
            print(f"  {n:5d} lines  {f}:{line}  {text}")


if __name__ == "__main__":
    main()
