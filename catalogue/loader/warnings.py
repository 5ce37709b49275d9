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


def as_warning(warning: LoadWarning | str, file: str = "") -> LoadWarning:
    """A warning in structured form. A plain string is of kind ``other``; it is of ``file`` (the
    file whose reading gave it) when its text names that file first, as warnings do."""
    if isinstance(warning, LoadWarning):
        return warning
    text = str(warning)
    if file and text.startswith(f"{file}: "):
        return LoadWarning(OTHER, file, text[len(file) + 2 :])
    return LoadWarning(OTHER, "", text)
