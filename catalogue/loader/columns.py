"""What a staged column is: its type, the document field it is read from and how (``Read``), the
model field it ends in and the stamp group that decides it (``Column``), and a staging table of
them (``Table``). The tables themselves, every column of every row the loader stages, are
``schema``'s.
"""

import functools
from dataclasses import dataclass

from django.apps import apps

# The cap on one free text (an abstract, a description) and on one JSON value: about a
# hundred times the longest real abstract. A longer field is left out, warning (its row
# skipped, when it is required): not cut short, since a truncated abstract would be shown
# as the source's words; and a 50 MB abstract would make a 100 MB page.
MAX_TEXT_CHARS = 1_000_000

# Column types: t text, i integer, b boolean, d date, ts timestamp, j JSON.
TEXT, INTEGER, BOOLEAN, DATE, TIMESTAMP, JSON = "t", "i", "b", "d", "ts", "j"
TYPES = (TEXT, INTEGER, BOOLEAN, DATE, TIMESTAMP, JSON)


@dataclass(frozen=True)
class Read:
    """How a document field becomes a staged value, with the checks ``validate.Fields`` makes.

    ``how`` names the ``Fields`` method (``str``, ``url``, ``flag``, ``int``, ``json``,
    ``choice``); ``empty`` is what is staged when the field is missing, null or (for text) "".
    """

    how: str
    max_length: int | None = None
    empty: object = None
    choices: type | None = None
    required: bool = False
    blank_as: str | None = ""  # what a document states for a blank text: "" (paths), or null (names)

    def value(self, fields, key: str, bound: int | None = None):
        """The field's value; ``bound``: what its column holds (a ``max_length`` here is tighter)."""
        return self.value_within(fields, key, self.limit(bound))

    def limit(self, bound: int | None) -> int:
        return min(self.max_length or MAX_TEXT_CHARS, bound or MAX_TEXT_CHARS)

    def value_within(self, fields, key: str, limit: int):
        """``value``, the limit worked out (``Table.read`` does that once per column)."""
        if self.how == "str":
            value = fields.str(key, self.required, max_length=limit)
        elif self.how == "url":
            value = fields.url(key, self.required, max_length=limit)
        elif self.how == "json":
            value = fields.json(key, max_length=limit)
        elif self.how == "choice":
            value = fields.choice(key, self.choices, self.required)
        elif self.how in ("flag", "int"):
            value = getattr(fields, self.how)(key, **({"required": True} if self.required else {}))
        else:
            raise ValueError(f"no such reading: {self.how}")
        # ``empty`` replaces a missing, null or empty value; without one, the value stands as given.
        return value if self.empty is None or value else self.empty

    def export(self, value):
        """The model's value as a document states it (a blank URL as null, a blank text as ``blank_as``)."""
        if value == "" and self.how in ("str", "url"):
            return None if self.how == "url" else self.blank_as
        return value


def text(empty: str | None = "", blank_as: str | None = "") -> Read:
    return Read("str", empty=empty, blank_as=blank_as)


URL = Read("url", empty="")
FLAG = Read("flag")  # true/false, 0/1 or null: NULL stays "not stated"
FLAG_OR_FALSE = Read("flag", empty=False)
AS_JSON = Read("json")


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    doc: str | None = None  # the document field, within the object the row is read from
    read: Read | None = None
    group: str | None = None
    to: str | None = None  # the model field, when it is not named like the column
    stored: str | None = None  # "Model.field" a column without a ``group`` ends in: its bound

    @property
    def field(self) -> str | None:
        return (self.to or self.name) if self.group else None


class Table:
    """A staging table. ``stated_by`` names, per stamp group other than STAMP, the SQL condition on
    a staged row that says it states the group (a code-entry document's view of a paper does not
    state its abstract); STAMP is stated by every row."""

    def __init__(
        self, name: str, columns: list[Column], model: str | None = None, stated_by: dict | None = None
    ):
        self.name, self.columns, self.model = name, tuple(columns), model
        self.stated_by = stated_by or {}
        self.names = tuple(c.name for c in self.columns)
        self._index = {c.name: i for i, c in enumerate(self.columns)}
        self._readers_by_group: dict[str, tuple] = {}
        self.columns_by_name = self._index.keys()
        assert len(self._index) == len(self.columns), f"{name}: a column twice"
        assert all(c.type in TYPES for c in self.columns), f"{name}: unknown column type"

    def row(self, **values) -> tuple:
        """A staged row; NULL for columns not given, an error for names the table does not have."""
        if not values.keys() <= self.columns_by_name:
            unknown = next(name for name in values if name not in self._index)
            raise KeyError(f"stg_{self.name} has no column {unknown!r}")
        # Called for every staged row (1.4 million at 20,000 papers): one C-level pass.
        return tuple(map(values.get, self.names))

    def group(self, group: str) -> list[Column]:
        return [c for c in self.columns if c.group == group]

    def read(self, fields, group: str) -> dict:
        """The values of the group's document fields, read (and checked) from ``fields``."""
        return {
            name: read.value_within(fields, doc, limit) for name, read, doc, limit in self._readers(group)
        }

    def _readers(self, group: str) -> tuple:
        """(column, Read, document field, limit) of the group's read columns, worked out once."""
        try:
            return self._readers_by_group[group]
        except KeyError:
            readers = tuple(
                (c.name, c.read, c.doc, c.read.limit(self.max_chars(c.name)))
                for c in self.group(group)
                if c.read
            )
            self._readers_by_group[group] = readers
            return readers

    def max_chars(self, name: str) -> int:
        """How many characters column ``name`` holds: its model field's ``max_length``, else the cap."""
        return self._bounds[name]

    @functools.cached_property
    def _bounds(self) -> dict[str, int]:
        # Read from the models on first use: they are not loaded yet when this module is.
        bounds = {}
        for c in self.columns:
            target = c.stored or (f"{self.model}.{c.field}" if self.model and c.field else None)
            max_length = None
            if target and c.type == TEXT:
                model, name = target.split(".")
                max_length = apps.get_model("catalogue", model)._meta.get_field(name).max_length
            bounds[c.name] = max_length or MAX_TEXT_CHARS
        return bounds

    @functools.cached_property
    def limits(self) -> tuple[tuple[int, str, int], ...]:
        """(position, name, characters held) of each text and JSON column, for checking a staged row."""
        return tuple(
            (i, c.name, self._bounds[c.name]) for i, c in enumerate(self.columns) if c.type in (TEXT, JSON)
        )

    def export(self, obj, group: str) -> dict:
        """The group's document fields from a model object, as a document states them."""
        return {c.doc: c.read.export(getattr(obj, c.field)) for c in self.group(group) if c.read}
