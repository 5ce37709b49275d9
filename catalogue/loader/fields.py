"""Reading untrusted JSON into staged rows: typed fields, rows, and what gives way when one is bad.

A field, a row and a document each fail on their own. An optional field that is not what
it should be is *left out* (as if the source did not state it) with a warning naming the
file, the JSON path of the field and what was expected; a URL with text around it gives
the URL. Text the databases cannot store (U+0000, an unpaired surrogate) is made storable,
visibly: replaced by U+FFFD, with a warning naming file and field. A row of a list (a
result, a code link, a sample) whose required field is bad is *skipped* with such a
warning, and the rest of its paper loads (:meth:`Parsed.row`). Only what leaves a document
without an identity it can be stored under (no URL, no entry name, a slug longer than the
database holds, not JSON) refuses the whole document, with a :class:`SnapshotError`.

Every length rule is one declaration: the model field a staged column ends in (``schema``),
read here when a field is read (so the warning names the document's field) and checked
again on every staged row (:meth:`Parsed.add`: values the validator works out, such as a slug
made from a name). So the database never sees a value it would refuse, and SQLite, which
would store an over-long value, gives the same outcome as PostgreSQL, which would not.
"""

from __future__ import annotations

import builtins
import datetime as dt
import decimal
import functools
import json
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal, NoReturn, cast, overload

from catalogue import identities
from catalogue.loader import columns, schema
from catalogue.loader.documents import SnapshotError
from catalogue.loader.warnings import LoadWarning

# Pure functions of a name, met again and again in one load (a few thousand tasks, methods,
# datasets and repositories under 1.4 million staged rows): worked out once while they recur.
# The bound is small on purpose: a reading worker that kept 65,536 of each grew from 98 to
# 166 MB over 150,000 files of the 500,000-paper snapshot (most repositories and entries come
# once); with 4,096 it stays at 107 MB and reads no slower (bench/README.md, issue 16).
MEMO_SIZE = 4096
memo_name_slug = functools.lru_cache(maxsize=MEMO_SIZE)(identities.name_slug)
memo_entry_slug = functools.lru_cache(maxsize=MEMO_SIZE)(identities.entry_slug)
memo_parse_repo = identities.parse_repo  # memoised where it is defined, with the same bound

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
_HTTP_URL = re.compile(r"^https?://[^\s/]+", re.IGNORECASE)
# Whitespace as str.isspace() means it (re's \s on str is the same Unicode class), found in C.
_SPACE = re.compile(r"\s")
MAX_INT = 2**31 - 1
NO_READ_AT = "0000-00-00T00:00:00.000000Z"  # below every real instant (years 1..9999)
# A stamp that sorts below every other: a paper only *named* by a row of another kind (a code
# link, a leaderboard row) gives its title only where nothing else does.
MENTION_RANK = "!"


@dataclass
class Parsed:
    """The staged rows and warnings of one document, or of one batch of a dump's records."""

    url: str
    kind: str
    stamp: str
    rows: dict[str, list[tuple]] = field(default_factory=lambda: defaultdict(list))
    warnings: list[LoadWarning] = field(default_factory=list)
    file: str = ""  # what errors call the file
    at: str = ""  # the JSON path of the record or row being read (``row``), for errors
    records: int = 0  # a dump's batch: how many of its records it read

    def add(self, table: str, **values) -> None:
        """A row of staging table ``table`` (an unknown column is an error, a missing one NULL).

        A text or JSON value longer than its column can hold fails, naming the record and the
        stored field: most are checked as their document field is read; this is the net for
        what the validator works out (a slug made from a name, a repository's key).
        """
        spec = schema.TABLES[table]
        # ``Table.row``, inlined: this runs for every staged row.
        row = (
            tuple(map(values.get, spec.names))
            if values.keys() <= spec.columns_by_name
            else spec.row(**values)
        )
        for i, name, limit in spec.limits:
            value = row[i]
            if isinstance(value, str) and len(value) > limit:
                where = f"{self.at}: {table}.{name}" if self.at else f"{table}.{name}"
                raise SnapshotError(self.file, where, f"longer than {limit} characters ({len(value)})")
        self.rows[table].append(row)

    def row(self, what: str = "row", at: str = ""):
        """Rows added inside are kept only if nothing in them fails; a failure skips them, warning.
        ``at``: the row's JSON path, which errors about values worked out from it name."""
        return _RowScope(self, what, at)


class _RowScope:
    """``Parsed.row``: a class, not a generator, as it is entered for every row of every document."""

    __slots__ = ("at", "marks", "outer", "parsed", "what")

    def __init__(self, parsed: Parsed, what: str, at: str):
        self.parsed, self.what, self.at = parsed, what, at

    def __enter__(self):
        parsed = self.parsed
        self.marks = {name: len(rows) for name, rows in parsed.rows.items()}
        self.outer, parsed.at = parsed.at, self.at or parsed.at

    def __exit__(self, kind, exc, tb):
        parsed = self.parsed
        parsed.at = self.outer
        if kind is None or not issubclass(kind, SnapshotError):
            return False
        for name, rows in parsed.rows.items():
            del rows[self.marks.get(name, 0) :]
        parsed.warnings.append(LoadWarning.from_error("row_skipped", exc, f"{self.what} skipped"))
        return True


class Fields:
    """Typed access to a JSON object, with errors that carry the field's JSON path.

    ``warnings`` (a list) makes optional fields lenient: a bad one is left out, warning there.
    Without it (``None``) every bad field raises.
    """

    def __init__(self, file: str, value: object, path: str = "", check_chars: bool = True, warnings=None):
        self.file, self.path, self.check_chars, self.warnings = file, path, check_chars, warnings
        if not isinstance(value, dict):
            self.fail("", f"expected an object, got {_type(value)}")
        self.value: dict = value

    def at(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        key = _BAD_CHARS.sub("\ufffd", key)  # a message must be storable too (a metric's name)
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key, message) -> NoReturn:
        raise SnapshotError(self.file, self.at(key) if key != "" else self.path, message)

    def child(self, value, path: str) -> Fields:
        return Fields(self.file, value, path, self.check_chars, self.warnings)

    def leave_out(self, key, message: str) -> None:
        """An optional field found bad after reading: warn and go on (or raise, when strict)."""
        self._optional(False, lambda: self.fail(key, message))

    def _optional(self, required: bool, read):
        """``read()``, or None with a warning when it fails for a field that is not required."""
        if required or self.warnings is None:
            return read()
        try:
            return read()
        except SnapshotError as exc:
            self.warnings.append(LoadWarning.from_error("left_out", exc, "left out"))
            return None

    def obj(self, key, required=False) -> Fields | None:
        value = self._container(key, required, dict)
        if value is None:
            return None
        if not isinstance(value, dict):
            return self._optional(required, lambda: self.fail(key, f"expected an object, got {_type(value)}"))
        return self.child(value, self.at(key))

    def objects(self, key) -> list[Fields]:
        """The items of a list of objects; an item that is no object fails when it is read as one."""
        base = self.at(key)
        return [
            self.child(item, f"{base}[{i}]")
            if isinstance(item, dict)
            # stands in for the Fields it should have been: its first read raises the error
            else cast(Fields, _NotAnObject(self, f"{base}[{i}]", item))
            for i, item in enumerate(self.list(key))
        ]

    def list(self, key, required=False) -> list:
        """A list: one that is no list refuses what holds it (the rows it would hold are unknown)."""
        value = self._container(key, required, list)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(key, f"expected a list, got {_type(value)}")
        return value

    # A required text is a text: reading it raises or gives one (the type checker is told so).
    @overload
    def str(self, key, required: Literal[True], max_length=None, blank=True) -> builtins.str: ...
    @overload
    def str(self, key, required: bool = False, max_length=None, blank=True) -> builtins.str | None: ...
    def str(self, key, required: bool = False, max_length=None, blank=True) -> builtins.str | None:
        """A text; ``max_length`` defaults to the cap on free text (``columns.MAX_TEXT_CHARS``)."""
        # The common case, a fitting text (or nothing) with nothing to replace, answered here:
        # the most called reader of a load. Anything else takes the full path, as ever.
        value = self.value.get(key)
        if value is None:
            if not required:
                return None
        elif (
            value.__class__ is str
            and len(value) <= (max_length or columns.MAX_TEXT_CHARS)
            and (blank or value.strip())
            and not (self.check_chars and _BAD_CHARS.search(value))
        ):
            return value
        return self._optional(required, lambda: self._str(key, required, max_length, blank))

    def _str(self, key, required, max_length, blank) -> builtins.str | None:
        value = self._get(key, required)
        if value is None:
            return None
        if not isinstance(value, str):
            self.fail(key, f"expected a string, got {_type(value)}")
        max_length = max_length or columns.MAX_TEXT_CHARS
        if len(value) > max_length:
            self.fail(key, f"longer than {max_length} characters ({len(value)})")
        if self.check_chars:
            value = clean_text(self, key, value)
        if not blank and not value.strip():
            self.fail(key, "must not be empty")
        return value

    @overload
    def choice(self, key, choices, required: Literal[True]) -> builtins.str: ...
    @overload
    def choice(self, key, choices, required: bool = False) -> builtins.str | None: ...
    def choice(self, key, choices, required: bool = False) -> builtins.str | None:
        def read():
            value = self._str(key, required, None, True)
            allowed = _choice_values(choices)
            if value is not None and value not in allowed:
                self.fail(key, f"{value!r} is not one of {', '.join(allowed)}")
            return value

        return self._optional(required, read)

    def flag(self, key) -> bool | None:
        """A flag as the archive writes them: true/false, 0/1, or null."""

        def read():
            value = self._get(key, False)
            if value is None or isinstance(value, bool):
                return value
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            self.fail(key, f"expected true, false, 0, 1 or null, got {value!r}")

        return self._optional(False, read)

    def int(self, key, required=False) -> int | None:
        def read():
            value = self._get(key, required)
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int):
                self.fail(key, f"expected a whole number, got {_type(value)}")
            if not 0 <= value <= MAX_INT:
                self.fail(key, f"expected a whole number from 0 to {MAX_INT}, got {value}")
            return value

        return self._optional(required, read)

    def date(self, key) -> dt.date | None:
        def read():
            value = self._str(key, False, 100, True)
            if value is None or value == "":
                return None
            try:
                return dt.date.fromisoformat(value[:10]) if len(value) >= 10 else _bad()
            except ValueError:
                self.fail(key, f"expected an ISO date (YYYY-MM-DD), got {value!r}")

        return self._optional(False, read)

    def datetime(self, key) -> dt.datetime | None:
        """An ISO date-time, as UTC (one without an offset is UTC): PostgreSQL's timestamptz and
        Python both hold years 1 to 9999 in UTC, so an instant outside them fails here."""

        def read():
            value = self._str(key, False, 100, True)
            if value is None or value == "":
                return None
            try:
                parsed = dt.datetime.fromisoformat(value)
            except ValueError:
                self.fail(key, f"expected an ISO date-time, got {value[:80]!r}")
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=dt.UTC)
            try:
                return parsed.astimezone(dt.UTC)
            except OverflowError:
                self.fail(key, f"{value!r} is outside years 1 to 9999 in UTC")

        return self._optional(False, read)

    @overload
    def url(self, key, required: Literal[True], max_length=1000) -> builtins.str: ...
    @overload
    def url(self, key, required: bool = False, max_length=1000) -> builtins.str | None: ...
    def url(self, key, required: bool = False, max_length=1000) -> builtins.str | None:
        def read():
            value = self._str(key, required, max_length, True)
            if value is None or value == "":
                return value
            # Text around the URL ("… (These scores reported in [x](https://…))"): a URL holds no space.
            if not _HTTP_URL.match(value) or _SPACE.search(value.strip()):
                found = identities.url_in(value) if self.warnings is not None else None
                if found and found != value:
                    self.warnings.append(
                        LoadWarning(
                            "url_taken_out", self.file, f"{self.at(key)}: took the URL out of {value[:80]!r}"
                        )
                    )
                    return found
                self.fail(key, f"expected an http(s) URL, got {value[:80]!r}")
            return value

        return self._optional(required, read)

    def json(self, key, max_length=None):
        """A JSON value as text (:func:`as_json`); one PostgreSQL's JSON cannot hold is left out, warning."""

        def read():
            value = self._get(key, False)
            if value is None:
                return None
            try:
                text = as_json(value)
            except ValueError as exc:
                self.fail(key, str(exc))
            limit = max_length or columns.MAX_TEXT_CHARS
            if len(text) > limit:
                self.fail(key, f"longer than {limit} characters as JSON ({len(text)})")
            return text

        return self._optional(False, read)

    def _get(self, key, required):
        if key not in self.value or self.value[key] is None:
            if required:
                self.fail(key, "is required")
            return None
        return self.value[key]

    def _container(self, key, required, kind: type):
        """A list or object, also when a Parquet export holds it as JSON text (its shape varied)."""
        value = self._get(key, required)
        if kind is dict and value == []:  # an empty Parquet map reads as an empty list
            return {}
        if isinstance(value, str) and value[:1] in "[{":
            try:
                decoded = json.loads(value)
            except ValueError:
                return value
            return decoded if isinstance(decoded, kind) else value
        return value


class _NotAnObject:
    """A list item that should be an object and is not: fails as soon as anything reads it."""

    def __init__(self, parent: Fields, path: str, item):
        self.path = path  # what a row of it is called, in the warning that skips it
        self._error = SnapshotError(parent.file, path, f"expected an object, got {_type(item)}")

    def __getattr__(self, name):
        raise self._error


@functools.cache
def _choice_values(choices) -> tuple[str, ...]:
    return tuple(choices.values)


def _bad():
    raise ValueError


def _type(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else f"a {type(value).__name__}"
    )


def as_json(value) -> str:
    """A JSON value as the text staged for a JSON column, or ValueError saying why it cannot be.

    PostgreSQL's JSON holds no U+0000 and no unpaired surrogate (in a key neither) and no
    number that is not finite (``1e400`` reads as infinity); SQLite would store them, so
    both refuse them here. A number is staged as jsonb keeps it (:func:`_as_jsonb_keeps`).
    Unlike text (:func:`clean_text`) no character is replaced: two keys could become one.
    Walked without recursion: a deeply nested value is no stack overflow.
    """
    try:
        text = json.dumps(value, allow_nan=False)
    except ValueError:
        raise ValueError("holds a number that is not finite") from None
    if "e+" in text or "-0.0" in text:  # only then can a number read back otherwise (_as_jsonb_keeps)
        text = json.dumps(json.loads(text, parse_float=_as_jsonb_keeps))
    # Only escapes can carry them: the walk is for text that has some.
    if "\\u0000" in text or "\\ud" in text:
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                if _BAD_CHARS.search(item):
                    raise ValueError("holds a NUL character or an unpaired surrogate")
            elif isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return text


def _as_jsonb_keeps(literal: str) -> float | int:
    """A JSON number as PostgreSQL's jsonb gives it back, so that SQLite stores the same: jsonb
    keeps numbers as decimals, written out without an exponent (``1.5e+300`` comes back as an
    integer of 301 digits, ``1e+16`` as 10000000000000000) and without a negative zero."""
    if "e+" in literal or "E+" in literal:
        return int(decimal.Decimal(literal))
    number = float(literal)
    return 0.0 if number == 0 else number


def bad_char(value: str) -> str | None:
    """What text no database can store ``value`` holds first (a NUL, an unpaired surrogate), and where."""
    first = _BAD_CHARS.search(value)
    if first is None:
        return None
    what = "a NUL character" if first[0] == "\x00" else "an unpaired surrogate"
    return f"{what} at position {first.start()}"


def clean_text(fields: Fields, key, value: str) -> str:
    """``value`` with each U+0000 and unpaired surrogate replaced by U+FFFD, warning where there were
    some: neither database can store them in text (PostgreSQL refuses them; SQLite must not differ)."""
    found = bad_char(value)
    if found is None:
        return value
    if fields.warnings is None:
        fields.fail(key, f"holds {found}")
    n = len(_BAD_CHARS.findall(value))
    more = f" (and {n - 1} more)" if n > 1 else ""
    fields.warnings.append(
        LoadWarning("text_replaced", fields.file, f"{fields.at(key)}: {found} replaced with U+FFFD{more}")
    )
    return _BAD_CHARS.sub("\ufffd", value)


def make_stamp(read_at: dt.datetime | None, sha256: str) -> str:
    """The order of document versions: newest ``read_at`` first, content hash to break ties.

    Stamps are compared as text (in Python and in the merge's SQL), so the instant is written
    in UTC with a fixed width (a four-digit year: ``strftime('%Y')`` gives ``999`` for year 999,
    which sorted above ``2026``): text order is then time order for years 1 to 9999.
    """
    if read_at is None:
        return f"{NO_READ_AT}|{sha256[:16]}"
    utc = read_at.astimezone(dt.UTC) if read_at.tzinfo else read_at
    when = utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"
    return f"{when}|{sha256[:16]}"


def dates(fields: Fields, arxiv_id: str | None) -> dict:
    """A paper's ``date``, and its month: the date's, else the one its arXiv id encodes."""
    date = fields.date("date")
    month = date.isoformat()[:7] if date else identities.month_from_arxiv_id(arxiv_id)
    return {"date": date, "month": month or ""}


def paper_key(arxiv_id: str | None, slug: str, landing: str | None = None) -> str:
    """A paper's identity in the staged rows: its arXiv id, else its Papers-with-Code slug (``slug:``),
    else its landing page (``land:``, ``identities.landing_key``)."""
    return arxiv_id or (f"land:{landing}" if landing else f"slug:{slug}")


# The characters of a title's key kept (``Paper.title_key``): enough to tell titles apart, and an
# index entry PostgreSQL takes whatever the title's length.
TITLE_KEY_CHARS = 300


def paper_naming(title: str | None, slug: str, landing: str | None = None) -> dict:
    """What every staged paper row says of its name: the title (stripped), its key, and whether its
    slug was made here (``arxiv-<id>``, a landing page's) rather than stated by a source."""
    title = title.strip() if title is not None else None
    return {
        "title": title,
        "title_key": identities.title_key(title)[:TITLE_KEY_CHARS] if title else None,
        "slug_derived": bool(landing) or slug.startswith("arxiv-"),
    }


def metrics_json(metrics: Fields | None) -> str:
    """A result's metrics (name -> value as given, numbers as text), each checked; names and
    texts cleaned (:func:`clean_text`), a number that is not finite failing the result."""
    if metrics is None:
        return "{}"
    checked = {}
    for name, value in metrics.value.items():
        if not (value is None or isinstance(value, (str, int, float))) or isinstance(value, bool):
            metrics.fail(name, f"expected a string or number, got {_type(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            metrics.fail(name, f"expected a finite number, got {value}")
        # One spelling of a column's name: the table's columns are cleaned alike (archive_rows._read_table).
        cleaned = identities.clean_name(clean_text(metrics, name, name))
        if isinstance(value, str):
            value = clean_text(metrics, name, value)
        checked[cleaned] = value if isinstance(value, str) or value is None else str(value)
    return json.dumps(checked)


def text_list(fields: Fields, key: str) -> list[str]:
    """A list of names (authors, modalities…), each checked; an item that is no text is left out."""
    out = []
    for i, item in enumerate(fields.list(key)):
        if item is None:
            continue
        try:
            if not isinstance(item, str):
                fields.fail(f"{key}[{i}]", f"expected a string, got {_type(item)}")
            if len(item) > columns.MAX_TEXT_CHARS:
                fields.fail(f"{key}[{i}]", f"longer than {columns.MAX_TEXT_CHARS} characters ({len(item)})")
            out.append(clean_text(fields, f"{key}[{i}]", item))
        except SnapshotError as exc:
            if fields.warnings is None:
                raise
            fields.warnings.append(LoadWarning.from_error("left_out", exc, "left out"))
    return out


def author_names(fields: Fields, key: str = "authors") -> list[str]:
    """A paper's authors in order, each stripped and cut to what the model holds; a blank name (empty,
    or only spaces) is no author: left out, with a warning naming file and field (issue 34: such a
    name made a page that linked to an author without an address)."""
    limit = schema.max_chars("author", "name")
    names = []
    for i, name in enumerate(text_list(fields, key)):
        name = name.strip()
        if not name:
            if fields.warnings is not None:
                fields.warnings.append(
                    LoadWarning(
                        "left_out", fields.file, f"{fields.at(key)}[{i}]: a blank author name (left out)"
                    )
                )
            continue
        names.append(name[:limit])
    return names
