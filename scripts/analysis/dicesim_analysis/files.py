"""A results file read as guardedly as dicesim reads it (sim/results/h5_reader.cpp):
a regular file only, every dataset and attribute checked against the layout
that `dicesim schema --results-layout` declares (results_layout.json: type
class, rank, bounds) and against what the file can hold before it is read,
and the content checksum verified before anything is used. Anything wrong
is a ResultsFileError: one line naming the file."""

import fcntl
import hashlib
import json
import os
import re
import stat
import struct
from pathlib import Path

import h5py
import numpy as np

from .errors import ResultsFileError, one_line

LAYOUT = json.loads((Path(__file__).parent / "results_layout.json").read_text())
BOUNDS = LAYOUT["bounds"]
CONTENT_CHECKSUM = "content_sha256"
# Attributes the HDF5 dimension-scale calls write for themselves: outside the checksum.
_SCALE_ATTRIBUTES = {"CLASS", "NAME", "DIMENSION_LIST", "REFERENCE_LIST"}
_SLAB_VALUES = 1 << 20
_INT64_MAX = np.uint64(2**63 - 1)
_TAGS = {"integer": b"i", "float": b"f", "string": b"s"}
# What h5py, numpy and the standard library raise on a damaged file: each becomes a ResultsFileError.
FILE_ERRORS = (OSError, KeyError, ValueError, TypeError, IndexError, UnicodeError, RecursionError, OverflowError,
               RuntimeError)


def _pattern(path):
    """A declared path as a regular expression: <table> an index, any other
    <name> one path segment (the same text where it comes twice)."""
    regex, seen = "", set()
    for part in re.split(r"(<[a-z]+>)", path):
        name = part[1:-1] if part.startswith("<") else None
        if name == "table":
            regex += "[0-9]+"
        elif name in seen:
            regex += f"(?P={name})"
        elif name:
            seen.add(name)
            regex += f"(?P<{name}>[^/]+)"
        else:
            regex += re.escape(part)
    return re.compile(regex + r"\Z", re.DOTALL)


_DATASETS = [(_pattern(d["path"]), d) for d in LAYOUT["datasets"]]
_ATTRIBUTES = [(_pattern(a["object"]), a) for a in LAYOUT["attributes"]]


def _declared(declarations, key):
    for pattern, declaration in declarations:
        if pattern.match(key):
            return declaration
    raise LookupError(f"{key} is not in results_layout.json")  # the package reading what it never declared


def _kind(refuse, dtype, what):
    """The checksum's tag of a stored type: i (integers), f (floats), s (fixed-length strings); anything else
    (a variable-length string above all, which HDF5 reads by following ids into the file) is refused before
    it is read."""
    string = h5py.check_string_dtype(dtype)
    if string is not None and string.length is None:
        refuse(f"{what} is a variable-length string, which files of format 3.0 on never hold")
    if dtype.kind in "iu" and dtype.itemsize <= 8:
        return b"i"
    if dtype.kind == "f" and dtype.itemsize <= 8:
        return b"f"
    if dtype.kind == "S" and 0 < dtype.itemsize <= BOUNDS["string_bytes"]:
        return b"s"
    refuse(f"{what} holds data of a type dicesim does not write")


def as_int64(values):
    """Integers as dicesim reads them: converted to int64 as libhdf5 converts,
    an unsigned value past the largest int64 saturating to it."""
    values = np.asarray(values)
    if values.dtype.kind == "u" and values.dtype.itemsize == 8:
        values = np.minimum(values, _INT64_MAX)
    return values.astype("<i8")


def _value_hash(tag, shape):
    h = hashlib.sha256(tag)
    h.update(struct.pack("<Q", len(shape)))
    for d in shape:
        h.update(struct.pack("<Q", d))
    return h


def _hash_values(h, tag, values):
    """Numbers as dicesim hashes them: each as the 8 bytes (little-endian) of the int64 or double it reads."""
    if tag == b"i":
        h.update(as_int64(values).tobytes())
    elif tag == b"f":
        h.update(np.asarray(values).astype("<f8").tobytes())
    else:
        for v in np.asarray(values).reshape(-1):
            v = bytes(v).rstrip(b"\0")
            h.update(struct.pack("<Q", len(v)))
            h.update(v)


def _text(raw, refuse, what):
    try:
        return bytes(raw).rstrip(b"\0").decode("utf-8") if isinstance(raw, (bytes, np.bytes_)) else str(raw)
    except UnicodeDecodeError:
        refuse(f"{what} is not UTF-8 text")


def parse_json(text, refuse, what):
    """JSON text parsed after its nesting is checked: deeper than dicesim
    accepts (json_depth) is refused before the recursive parser sees it."""
    depth, deepest, in_string = 0, 0, False
    for m in re.finditer(r'\\.|["\[\]{}]', text, re.DOTALL):
        c = m.group()
        if c == '"':
            in_string = not in_string
        elif in_string or c[0] == "\\":
            continue
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > BOUNDS["json_depth"]:
                refuse(f"{what} is JSON nested deeper than {BOUNDS['json_depth']} levels")
        else:
            depth -= 1
    try:
        return json.loads(text)
    except ValueError as error:
        refuse(f"{what} is not JSON ({one_line(error)})")


def open_regular(path):
    """(a raw binary file, its stat) of a regular file: opened without
    waiting (a FIFO would wait for a writer forever), checked on the opened
    descriptor (never a racy stat of the name), and not held for writing."""
    def refuse(why):
        raise ResultsFileError(path, why)

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        refuse(f"cannot read the results file ({error.strerror or one_line(error)})")
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            refuse("is a directory, not a results file")
        if not stat.S_ISREG(st.st_mode):
            refuse("is not a regular file (a device, FIFO or socket)")
        try:  # HDF5 holds an exclusive flock on a file it has open for writing
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            refuse("is held open for writing by another program (HDF5 file locking); "
                   "read it once that program has closed it")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", buffering=0), st
    except BaseException:
        os.close(fd)
        raise


class ResultsFile:
    """An open results file whose every read is guarded (see the module)."""

    def __init__(self, path):
        self.path = os.fsdecode(path)
        self.stream, st = open_regular(self.path)
        self.file_bytes = st.st_size
        self.identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        try:
            self.f = h5py.File(self.stream, "r")
        except BaseException as error:
            self.stream.close()
            if isinstance(error, FILE_ERRORS):
                self.refuse(f"unreadable or truncated results file ({one_line(error)})")
            raise

    def close(self):
        try:
            self.f.close()
        finally:
            self.stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def refuse(self, why):
        raise ResultsFileError(self.path, why)

    # What is there.
    def has(self, path):
        return path in self.f

    def members(self, group):
        """The names in a group (a table section: indexes), bounded as the layout says."""
        g = self.f[group]
        if not isinstance(g, h5py.Group):
            self.refuse(f"{group} is not a group")
        if len(g) > BOUNDS["tables"]:
            self.refuse(f"{group} holds more than {BOUNDS['tables']} members")
        return list(g)

    def table_keys(self, section):
        keys = self.members(section)
        if any(not k.isdigit() or len(k) > 12 for k in keys):
            self.refuse(f"{section} holds a member that is not a table index")
        return sorted(keys, key=int)

    # Datasets.
    def _dataset(self, path, declaration):
        obj = self.f.get(path)
        if not isinstance(obj, h5py.Dataset):
            self.refuse(f"{path} is missing" if obj is None else f"{path} is not a dataset")
        if _kind(self.refuse, obj.dtype, path) != _TAGS[declaration["type"]]:
            self.refuse(f"{path} is not {declaration['type']} data")
        shape = declaration["shape"]
        if obj.ndim != len(shape):
            self.refuse(f"{path} has the shape {list(obj.shape)}, expected {len(shape)} dimensions")
        for size, bound in zip(obj.shape, shape):
            most = bound if isinstance(bound, int) else BOUNDS[bound]
            if size > most or (isinstance(bound, int) and size != bound):
                self.refuse(f"{path} has the shape {list(obj.shape)}, more than the layout's {bound}")
        self._within_file(path, obj)
        return obj

    def _within_file(self, path, obj):
        count, stored = obj.size, obj.id.get_storage_size()
        if stored > self.file_bytes:
            self.refuse(f"{path} claims more bytes than the file has")
        if count and count * max(obj.dtype.itemsize, 8) > stored * BOUNDS["inflation"]:
            self.refuse(f"{path} declares {count} values but stores {stored} bytes")

    def read(self, path):
        """A declared dataset's values: int64 or float64 arrays, or a list of str."""
        declaration = _declared(_DATASETS, path)
        data = self._dataset(path, declaration)[()]
        if declaration["type"] == "integer":
            return as_int64(data)
        if declaration["type"] == "float":
            return np.asarray(data).astype(np.float64)
        return [_text(v, self.refuse, path) for v in np.asarray(data).reshape(-1)]

    def read_optional(self, path):
        return self.read(path) if self.has(path) else None

    # Attributes.
    def _attribute(self, obj, name, what):
        attr = h5py.h5a.open(obj.id, name.encode())
        tag = _kind(self.refuse, attr.dtype, what)
        count = int(np.prod(attr.shape)) if attr.shape else 1
        if count * max(attr.dtype.itemsize, 8) > self.file_bytes + 8:
            self.refuse(f"{what} declares more bytes than the file has")
        return tag, attr.shape or (), obj.attrs[name]

    def attribute(self, obj_path, name):
        """A declared attribute as a Python int, float or str; None when
        absent and not required."""
        declaration = next((a for p, a in _ATTRIBUTES if p.match(obj_path) and a["name"] == name), None)
        if declaration is None:  # the package reading what it never declared
            raise LookupError(f"attribute {name} of {obj_path} is not in results_layout.json")
        obj = self.f[obj_path]
        what = f"attribute {name} of {obj_path}"
        if name not in obj.attrs:
            if declaration["required"]:
                self.refuse(f"{what} is missing")
            return None
        tag, shape, value = self._attribute(obj, name, what)
        if tag != _TAGS[declaration["type"]]:
            found = {b"i": "integer", b"f": "float", b"s": "text"}[tag]
            self.refuse(f"{what} is {found}, not {declaration['type']} as dicesim writes it")
        if name == "format_version":
            if shape != (2,):
                self.refuse("format_version is not [major, minor]")
            return [int(v) for v in as_int64(value)]
        if int(np.prod(shape)) != 1:
            self.refuse(f"{what} is not a single value")
        value = np.asarray(value).reshape(-1)[0]
        if tag == b"i":
            return int(as_int64(value))
        if tag == b"f":
            return float(value)
        return _text(value, self.refuse, what)

    def root_attributes(self):
        """{name: value} of every root attribute: the declared ones checked as
        declared, any other a single number or text (else left out)."""
        declared = {a["name"] for p, a in _ATTRIBUTES if p.match("/")}
        out = {}
        for name in self.f.attrs.keys():
            if name in declared:
                out[name] = self.attribute("/", name)
                continue
            tag, shape, value = self._attribute(self.f, name, f"attribute {name} of /")
            if int(np.prod(shape)) == 1:
                value = np.asarray(value).reshape(-1)[0]
                out[name] = (int(as_int64(value)) if tag == b"i" else float(value) if tag == b"f"
                             else _text(value, self.refuse, f"attribute {name} of /"))
        return out

    # The content checksum.
    def content_checksum(self):
        """The content checksum of the file as it is (sim/results/README.md, Checksums and trust):
        SHA-256 over every dataset and attribute, each type and size checked before it is read."""
        links = []
        self.f.id.links.visit(lambda name, info: links.append((name, info.type)), info=True)
        if any(kind != h5py.h5l.TYPE_HARD for _, kind in links):
            self.refuse("the file holds a soft or external link, which dicesim never writes")
        entries = self._attribute_entries(b"/", self.f)
        for name, _ in links:
            obj = self.f[name]
            if isinstance(obj, h5py.Dataset):
                entries.append(self._dataset_entry(name, obj))
            elif not isinstance(obj, h5py.Group):
                self.refuse(f"{name.decode(errors='replace')} is an object dicesim does not write")
            entries += self._attribute_entries(b"/" + name, obj)
        return hashlib.sha256(b"".join(sorted(entries))).hexdigest()

    def _dataset_entry(self, name, dataset):
        what = name.decode(errors="replace")
        tag = _kind(self.refuse, dataset.dtype, what)
        self._within_file(what, dataset)
        h = _value_hash(tag, dataset.shape)
        if dataset.ndim == 0:
            _hash_values(h, tag, dataset[()])
        elif dataset.size:
            rows = max(1, _SLAB_VALUES // (dataset.size // dataset.shape[0]))
            for first in range(0, dataset.shape[0], rows):
                _hash_values(h, tag, dataset[first:first + rows])
        return b"D/" + name + b"\0" + h.digest()

    def _attribute_entries(self, path, obj):
        entries = []
        for name in obj.attrs.keys():
            if name in _SCALE_ATTRIBUTES or (path == b"/" and name == CONTENT_CHECKSUM):
                continue
            tag, shape, value = self._attribute(obj, name, f"attribute {name} of {path.decode(errors='replace')}")
            h = _value_hash(tag, shape)
            _hash_values(h, tag, value)
            entries.append(b"A" + path + b"\0" + name.encode() + b"\0" + h.digest())
        return entries

    def verify(self):
        """The format and version, then the content checksum, before anything else is read. Files before
        format 3.0 are refused on their version alone: their variable-length strings make libhdf5 follow ids
        into the file, where a damaged one can crash it."""
        if "format_version" not in self.f.attrs:
            self.refuse("not a dicesim results file")
        major, minor = self.attribute("/", "format_version")
        if major < LAYOUT["oldest_readable_major"]:
            self.refuse(f"written in results format {major}.{minor}, which this dicesim no longer reads; "
                        "rerun the config with this dicesim")
        if major > LAYOUT["format_version"][0]:
            self.refuse(f"format_version {major}.{minor} cannot be read by this package (majors "
                        f"{LAYOUT['oldest_readable_major']} to {LAYOUT['format_version'][0]})")
        if self.attribute("/", "format") != LAYOUT["format"]:
            self.refuse("not a dicesim results file")
        if self.attribute("/", CONTENT_CHECKSUM) != self.content_checksum():
            self.refuse("checksum mismatch: the file was altered or damaged")
        return [major, minor]


def content_checksum(f):
    """The content checksum of an h5py File as it is (tests forge files with it)."""
    reader = ResultsFile.__new__(ResultsFile)
    reader.path, reader.f = f.filename, f
    reader.file_bytes = 1 << 62  # a file open for writing: its size on disk may lag
    return reader.content_checksum()
