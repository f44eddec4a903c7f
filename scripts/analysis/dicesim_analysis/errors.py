"""The package's one exception, and the text it prints made safe for a terminal."""


def printable(text):
    """text with every control or format character (a newline, an escape
    sequence, a bidi override) written as its Python escape: safe to print."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


class DicesimError(RuntimeError):
    """What the package raises. For dicesim ending with a non-zero exit code:
    `message` is its last line on standard error (dicesim's one-line reason),
    `exit_code` the code (1: a check beyond chance, 2: bad input, 3: a failed
    write, 130: interrupted), `stdout` what it printed, and `results` the
    results file when it wrote one (a failed check, an interrupted run), else
    None. str() of it is one line, its control characters escaped."""

    def __init__(self, command, exit_code, message, stdout="", results=None):
        self.command, self.exit_code, self.message, self.stdout, self.results = command, exit_code, message, stdout, results
        super().__init__(printable(f"dicesim {command} failed (exit code {exit_code}): {message}"))


class ResultsFileError(DicesimError, ValueError):
    """A results file (or a path the package would write) that the package
    refuses: `path`, and `message`, one line naming it and saying what is
    wrong. Also a ValueError, as load() raised before 1.6."""

    def __init__(self, path, why):
        self.path = str(path)
        line = printable(f"{self.path}: {why}")
        super().__init__("load", 2, line)
        self.args = (line,)

    def __str__(self):
        return self.message


def one_line(error):
    """An exception of another library as one short line."""
    text = " ".join(str(error).split()) or type(error).__name__
    return printable(text[:300])
