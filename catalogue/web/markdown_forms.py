"""A page's Markdown form (``<page>.md``, ``Accept: text/markdown``): for programs and assistants
that read text, the same answer as the page's JSON form, written as Markdown.

The rows are the API's own answer for what the page shows (``catalogue.web.pageframe._api_response``:
its reads, serializers, cache entry, throttle and strict parameters), so no figure or filter is
computed twice; this module only writes them out: the object's scalar fields as a list, its
lists of objects as tables (at most ``TABLE_COLUMNS`` columns of scalars, the rest in the JSON
form), nested objects as nested lists. A code body's text is added by its page (``extra``) only
where the HTML page shows it. Every form ends with the attribution and the licence.
"""

from __future__ import annotations

import json

from catalogue import attribution

MARKDOWN = "text/markdown"
CONTENT_TYPE = "text/markdown; charset=utf-8"
TABLE_COLUMNS = 8
TITLE_FIELDS = ("title", "full_name", "name", "id")


def attribution_block() -> str:
    return (
        "---\n\n"
        f"Licence: {attribution.LICENCE} ({attribution.LICENCE_URL}). {attribution.NOTICE} "
        f"Attribution: {attribution.SITE}{attribution.ATTRIBUTION_PATH}\n"
    )


def cell(value) -> str:
    """``value`` as one cell of a Markdown table (one line, pipes escaped)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = " ".join(str(value).split())
    return text.replace("\\", "\\\\").replace("|", "\\|")


def _scalar(value) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _inline(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    return text if "\n" not in text else "\n\n  " + text.replace("\n", "\n  ")


def _table(rows: list[dict]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        for key, value in row.items():
            if key not in columns and _scalar(value) and len(columns) < TABLE_COLUMNS:
                columns.append(key)
    if not columns:
        return [f"- {cell(row)}" for row in rows]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row.get(c)) for c in columns) + " |" for row in rows]
    return lines


def _nested(value, depth: int = 0) -> list[str]:
    pad = "  " * depth
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if _scalar(item):
                out.append(f"{pad}- **{key}**: {_inline(item)}")
            else:
                out.append(f"{pad}- **{key}**:")
                out += _nested(item, depth + 1)
        return out
    if isinstance(value, list):
        if not value:
            return [f"{pad}- (none)"]
        out = []
        for item in value:
            if _scalar(item):
                out.append(f"{pad}- {_inline(item)}")
            else:
                out += _nested(item, depth)
        return out
    return [f"{pad}- {_inline(value)}"]


def _section(key: str, value) -> list[str]:
    lines = [f"## {key.replace('_', ' ').capitalize()}", ""]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        lines += _table(value)
    else:
        lines += _nested(value)
    return [*lines, ""]


def render(data, *, page: str, title: str = "", extra: str = "") -> str:
    """The Markdown form of ``data`` (the API's JSON answer for the page at ``page``)."""
    lines: list[str] = []
    if isinstance(data, dict) and "results" in data and isinstance(data["results"], list):
        heading = title or page
        lines += [f"# {heading}", "", f"Page: {attribution.SITE}{page}", ""]
        listed = {k: v for k, v in data.items() if k != "results" and _scalar(v)}
        lines += [f"- **{k}**: {_inline(v)}" for k, v in listed.items()]
        lines += ["", *_section("results", data["results"])]
    elif isinstance(data, dict):
        heading = title or next((str(data[f]) for f in TITLE_FIELDS if data.get(f)), page)
        lines += [f"# {heading}", "", f"Page: {attribution.SITE}{page}", ""]
        scalars = {k: v for k, v in data.items() if _scalar(v)}
        lines += [f"- **{k}**: {_inline(v)}" for k, v in scalars.items()]
        lines.append("")
        for key, value in data.items():
            if not _scalar(value):
                lines += _section(key, value)
    else:
        lines += [f"# {title or page}", "", *_nested(data), ""]
    if extra:
        lines += [extra.rstrip("\n"), ""]
    return "\n".join(lines).rstrip("\n") + "\n\n" + attribution_block()


def error(status: int, detail: str) -> str:
    return f"# {status}\n\n{detail}\n\n" + attribution_block()
