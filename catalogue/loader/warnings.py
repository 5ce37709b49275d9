"""A load's warnings in a structured form: what kind, which file, what was found.

The one way a warning is made (``LoadWarning``); its text (``str``) is what loads have always
printed, ``file: path: message``. Emitters not converted yet may still give plain strings:
``as_warning`` takes either, a plain string being of kind ``other``. Kinds group warnings in the
load's report and its record (one line per kind, with a count and the first files).
"""

from __future__ import annotations

from dataclasses import dataclass

OTHER = "other"


@dataclass(frozen=True, slots=True)
class LoadWarning:
    kind: str  # a short name for the group: "left_out", "row_skipped", "figures_disagree"…
    file: str  # the file as the load names it ("" for a warning about the whole load)
    message: str  # the rest of today's text, after "file: "

    def __str__(self) -> str:
        return f"{self.file}: {self.message}" if self.file else self.message

    @classmethod
    def from_error(cls, kind: str, error, note: str) -> LoadWarning:
        """A ``SnapshotError`` that only left something out: its text, then ``(note)``."""
        where = f"{error.path}: " if error.path else ""
        return cls(kind, error.file, f"{where}{error.message} ({note})")


def as_warning(warning: LoadWarning | str) -> LoadWarning:
    """A warning in structured form; a plain string is of kind ``other``, with no file known."""
    if isinstance(warning, LoadWarning):
        return warning
    return LoadWarning(OTHER, "", str(warning))
