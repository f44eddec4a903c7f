"""Where the package's strings and files go out: every file written through
one function (write_atomically) after every path written has been compared
with every path read (refuse_clashes); names made literal for plots
(plot_text) and for CSV (csv_cell)."""

import os
import secrets
import stat

from .errors import ResultsFileError


def _identities(path):
    """What makes two paths the same file: its normalised name, and its
    (device, inode) where it exists."""
    keys = {("name", os.path.normcase(os.path.realpath(path)))}
    try:
        st = os.stat(path)
        keys.add(("file", st.st_dev, st.st_ino))
    except OSError:
        pass
    return keys


def refuse_clashes(writes, reads=()):
    """A ResultsFileError, before any work, where a path to be written is a
    path read or another path written (the same file, or the same name)."""
    writes = [os.fspath(p) for p in writes if p is not None]
    reads = [os.fspath(p) for p in reads if p is not None]
    seen = [(p, _identities(p), "read") for p in reads]
    for path in writes:
        keys = _identities(path)
        for other, other_keys, role in seen:
            if keys & other_keys:
                raise ResultsFileError(path, f"would overwrite {other}, which is also {role}; "
                                       "choose another output name")
        seen.append((path, keys, "written"))


def has_control_characters(name):
    return any(ord(c) < 0x20 or ord(c) == 0x7F for c in os.fsdecode(os.fspath(name)))


def write_atomically(path, data):
    """Writes data (bytes or str, as UTF-8) to path whole or not at all: to
    an unpredictable temporary beside it (created exclusively, never
    through a symbolic link), fsynced, then renamed over path. Anything at
    path that is not a regular file (a symbolic link, a directory, a FIFO) is
    refused, not replaced. Raises ResultsFileError naming path."""
    path = os.fspath(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as error:
        raise ResultsFileError(path, f"cannot write here ({error.strerror})") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise ResultsFileError(path, "is not a regular file (a symbolic link, directory, device or FIFO): "
                               "not replaced")
    directory, name = os.path.split(os.path.abspath(path))
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(8)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise ResultsFileError(path, f"cannot write here ({error.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise ResultsFileError(path, f"cannot write here ({error.strerror or error})") from None


def plot_text(text):
    """A name as literal text in a plot's label, title, legend or tick: every
    $ escaped, so that matplotlib never reads it as mathtext."""
    return str(text).replace("$", r"\$")


def csv_cell(value):
    """A CSV field that a spreadsheet shows and never runs: text starting with
    = + - @, a tab or a carriage return gets a leading '; numbers stay numbers.
    (Write with csv.QUOTE_NONNUMERIC so that every text field is quoted.)"""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
