"""No silent shrink: what each archive dump of a load added, kept and removed, and the refusal of
one that gives far less than the copy it replaces.

A dump is one document (``archive:papers-with-abstracts``); a later copy replaces the earlier one's
rows. A renamed column upstream, or a truncated export, would then wipe them: a dump that gives no
rows, or fewer than half of the records or of the rows of any table it feeds compared with the copy
it replaces, is refused (``load_snapshot --allow-shrink`` accepts it). What a copy gave is kept in
the record of the load that loaded it (``LoadRun.by_source[kind]["dumps"][url]``: records read,
rows staged per table); a copy loaded before these were kept is compared by its records, when its
load read no other dump of its kind. The check runs inside the load's transaction, after the merge,
so a refusal rolls the whole load back.

The summary also says, per dump, what the catalogue's rows that name it as their source (a foreign
key to ``SourceDocument``) became: told apart by what they are (a result's or code link's source by
the result or link it states, anything else by its own id), "kept" is a row the copy it replaces
named too, "added" one it did not, "removed" one it named and this copy does not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection

from catalogue.loader.warnings import LoadWarning
from catalogue.models import SourceDocument

BEFORE = "shrink_before"


@dataclass
class Fed:
    """What one dump gave one table: rows before (the copy it replaces) and after, added and removed."""

    before: int = 0
    after: int = 0
    added: int = 0
    removed: int = 0

    @property
    def kept(self) -> int:
        return self.after - self.added


@dataclass
class DumpChange:
    url: str
    file: str
    replaces: bool  # whether an earlier copy was loaded
    tables: dict[str, Fed] = field(default_factory=dict)
    # What the copy it replaces gave ({"records": n, "rows": {table: n}}; None: not known), and this one.
    gave_before: dict | None = None
    gives: dict = field(default_factory=dict)

    def shrunk(self) -> list[str]:
        """What this copy gives fewer than half of, against the copy it replaces, in words."""
        if not self.gave_before:
            return []
        out = []
        before, now = self.gave_before.get("records", 0), self.gives.get("records", 0)
        if before and now * 2 < before:
            out.append(f"the copy it replaces gave {before:,} records")
        rows_before, rows_now = self.gave_before.get("rows", {}), self.gives.get("rows", {})
        for table, n in sorted(rows_before.items()):
            if n and rows_now.get(table, 0) * 2 < n:
                out.append(f"{table} rows: {rows_now.get(table, 0):,}, the copy it replaces gave {n:,}")
        return out

    def line(self) -> str:
        parts = [f"{self.gives.get('records', 0):,} records read"]
        parts += [
            f"{label} {fed.added:,} added, {fed.kept:,} kept, {fed.removed:,} removed"
            for label, fed in self.tables.items()
            if fed.before or fed.after
        ]
        return "; ".join(parts)


def _fed_tables() -> list[tuple[str, str, str, str]]:
    """(label, table, column naming the document, column telling its rows apart) of every table
    whose rows name a source document."""
    out = []
    for model in apps.get_app_config("catalogue").get_models():
        for f in model._meta.concrete_fields:
            if not (f.is_relation and f.related_model is SourceDocument):
                continue
            others = [o for o in model._meta.concrete_fields if o.is_relation and o is not f]
            source_table = model.__name__.endswith("Source") and others
            ident = others[0].column if source_table else model._meta.pk.column
            label = (
                model._meta.verbose_name_plural
                if f.name == "document"
                else f"{model._meta.verbose_name_plural} ({f.name})"
            )
            out.append((str(label), model._meta.db_table, str(f.column), str(ident)))
    return sorted(out)


def _gave(doc_id: int | None, url: str) -> dict | None:
    """What the copy loaded as ``doc_id`` gave, from the record of the load that loaded it."""
    if doc_id is None:
        return None
    doc = SourceDocument.objects.select_related("last_load").filter(id=doc_id).first()
    if doc is None or doc.last_load is None:
        return None
    figures = (doc.last_load.by_source or {}).get(doc.kind, {})
    if url in figures.get("dumps", {}):
        return figures["dumps"][url]
    if figures.get("files") == 1 and figures.get("records"):  # kept before per-dump figures were
        return {"records": figures["records"]}
    return None


def _dumps_of_load(cur) -> list[tuple[int | None, str, str]]:
    """(id of the copy loaded before, or None; url; file) of each archive dump this load staged."""
    from catalogue.loader.archive import KINDS

    kinds = ", ".join(f"'{k}'" for k in KINDS.values())
    cur.execute(
        f"SELECT s.url, MIN(s.file_name), MIN(d.id) FROM stg_document s LEFT JOIN catalogue_sourcedocument d "
        f"ON d.url = s.url WHERE s.kind IN ({kinds}) GROUP BY s.url ORDER BY s.url"
    )
    return [(doc_id, url, file) for url, file, doc_id in cur.fetchall()]


def before_merge() -> list[DumpChange]:
    """Note what the copies the load's dumps replace gave (in a temporary table, by the dump's url);
    call in the load's transaction, before the merge."""
    with connection.cursor() as cur:
        dumps = _dumps_of_load(cur)
        cur.execute(f"DROP TABLE IF EXISTS {BEFORE}")
        cur.execute(f"CREATE TEMPORARY TABLE {BEFORE} (url TEXT, label TEXT, ident BIGINT)")
        for doc_id, url, _file in dumps:
            if doc_id is None:
                continue
            for label, table, doc_col, ident in _fed_tables():
                cur.execute(
                    f"INSERT INTO {BEFORE} (url, label, ident) SELECT DISTINCT %s, %s, {ident} "
                    f"FROM {table} WHERE {doc_col} = %s",
                    [url, label, doc_id],
                )
        cur.execute(f"CREATE INDEX {BEFORE}_idx ON {BEFORE} (url, label, ident)")
    return [
        DumpChange(url, file, doc_id is not None, gave_before=_gave(doc_id, url))
        for doc_id, url, file in dumps
    ]


def after_merge(changes: list[DumpChange]) -> None:
    """Count what each dump gives now against what its earlier copy gave; call after the merge, in
    the same transaction."""
    with connection.cursor() as cur:
        docs = dict(SourceDocument.objects.filter(url__in=[c.url for c in changes]).values_list("url", "id"))
        for change in changes:
            doc = docs.get(change.url)
            for label, table, doc_col, ident in _fed_tables():
                fed = Fed()
                cur.execute(
                    f"SELECT COUNT(*) FROM {BEFORE} WHERE url = %s AND label = %s", [change.url, label]
                )
                fed.before = cur.fetchone()[0]
                if doc is not None:
                    mine = f"(SELECT DISTINCT {ident} AS ident FROM {table} WHERE {doc_col} = %s) a"
                    cur.execute(f"SELECT COUNT(*) FROM {mine}", [doc])
                    fed.after = cur.fetchone()[0]
                    fed.added = fed.after  # a first copy (nothing before): all it gives is added
                    if fed.before:
                        cur.execute(
                            f"SELECT COUNT(*) FROM {mine} WHERE NOT EXISTS (SELECT 1 FROM {BEFORE} b "
                            "WHERE b.url = %s AND b.label = %s AND b.ident = a.ident)",
                            [doc, change.url, label],
                        )
                        fed.added = cur.fetchone()[0]
                fed.removed = fed.before - fed.kept
                if fed.before or fed.after:
                    change.tables[label] = fed
        cur.execute(f"DROP TABLE IF EXISTS {BEFORE}")


# What tells two records of one paper apart: all a papers dump's record stages for it but where
# it sits (its number, its slug and the stamp of its copy).
_PAPER_DATA = (
    "title", "date", "proceeding", "abstract", "url_abs", "url_pdf", "conference", "nips_id", "openreview_id",
)  # fmt: skip


def repeated_records() -> list[LoadWarning]:
    """A paper that two records of one dump give with other data (title, abstract, authors…): a
    warning naming both records and the one kept (the first: the rows of one copy rank alike, and
    the merge keeps the first record's). Read from the staged rows, so a dump read in parts by
    several processes is checked whole; call before the merge.

    Four statements whatever the number of repeats: one per repeated paper (and a scan of the
    staged authors each) was 1,225 statements and 9.7 s of a 60,000-paper archive load."""
    from catalogue.loader.schema import ARCHIVE_VIEW

    with connection.cursor() as cur:
        cur.execute(
            "SELECT doc_url, pkey FROM stg_paper WHERE view = %s GROUP BY doc_url, pkey "
            "HAVING COUNT(DISTINCT rec) > 1 ORDER BY doc_url, pkey",
            [ARCHIVE_VIEW],
        )
        repeated = cur.fetchall()[:_REPEATS_NAMED]
        if not repeated:
            return []
        records, authors, files = _staged_records(cur, repeated)
    warnings = []
    for doc_url, pkey in repeated:
        by_rec, by_rec_authors = records.get((doc_url, pkey), {}), authors.get(pkey, {})
        if not by_rec:
            continue
        first, *later = sorted(by_rec)
        mine = (by_rec[first], by_rec_authors.get(first, []))
        for rec in later:
            if (by_rec[rec], by_rec_authors.get(rec, [])) != mine:
                warnings.append(
                    LoadWarning(
                        "record_repeated",
                        files.get(doc_url) or doc_url,
                        f"[{rec - 1}]: gives paper {pkey} as record [{first - 1}] did, with other data:"
                        f" [{first - 1}] is kept",
                    )
                )
    return warnings


_REPEATED = "shrink_repeated"


def _staged_records(cur, repeated: list[tuple[str, str]]) -> tuple[dict, dict, dict]:
    """The staged data of the ``repeated`` papers' records: {(dump, paper): {record: data}},
    {paper: {record: [authors]}} and {dump: its file's name}."""
    from catalogue.loader.schema import ARCHIVE_VIEW

    cur.execute(f"DROP TABLE IF EXISTS {_REPEATED}")
    cur.execute(f"CREATE TEMPORARY TABLE {_REPEATED} (doc_url TEXT, pkey TEXT)")
    cur.executemany(f"INSERT INTO {_REPEATED} (doc_url, pkey) VALUES (%s, %s)", repeated)
    columns = ", ".join(f"p.{column}" for column in _PAPER_DATA)
    cur.execute(
        f"SELECT p.doc_url, p.pkey, p.rec, {columns} FROM stg_paper p "
        f"JOIN {_REPEATED} r ON r.doc_url = p.doc_url AND r.pkey = p.pkey WHERE p.view = %s",
        [ARCHIVE_VIEW],
    )
    records: dict[tuple[str, str], dict[int, tuple[str, ...]]] = {}
    for doc_url, pkey, rec, *data in sorted(cur.fetchall(), key=lambda row: row[:3]):
        records.setdefault((doc_url, pkey), {}).setdefault(rec, tuple(map(str, data)))
    # A paper's authors by record, as the staged author rows give them (keyed by paper and record).
    cur.execute(
        f"SELECT a.pkey, a.rec, a.position, a.name FROM stg_author a "
        f"WHERE a.pkey IN (SELECT pkey FROM {_REPEATED})"
    )
    authors: dict[str, dict[int, list[str]]] = {}
    for pkey, rec, _position, name in sorted(cur.fetchall(), key=lambda row: row[:3]):
        authors.setdefault(pkey, {}).setdefault(rec, []).append(name)
    cur.execute(
        f"SELECT url, MIN(file_name) FROM stg_document "
        f"WHERE url IN (SELECT doc_url FROM {_REPEATED}) GROUP BY url"
    )
    files = dict(cur.fetchall())
    cur.execute(f"DROP TABLE IF EXISTS {_REPEATED}")
    return records, authors, files


# Repeated papers compared (and warned of) at most per load: a load summary, not a list of them all.
_REPEATS_NAMED = 1000
