"""Merging the things rows refer to: documents, repositories, areas, tasks, collections, methods,
datasets, code bodies and entries, and leaderboards (in that order: each may name the ones before).

Tasks, methods and datasets are merged by stamp group (``merge_named``): the name from the
newest row that names the thing, the details from the newest of the archive's own records of
it (``detailed``). Names that give one slug are one thing: the winning spelling is shown and
the others kept in ``aliases``, and the load reports them.
"""

import json

from django.db import connection

from catalogue.loader import columns, schema
from catalogue.loader.merge.resolve import Clash, file_names, where_from
from catalogue.loader.merge.sql import (
    Counts,
    Group,
    doc_id,
    execute,
    index_targets,
    json_param,
    materialize,
    rows,
    stated,
    temp_table,
    upsert,
    winners,
)
from catalogue.loader.warnings import LoadWarning

# Of names that give one slug, the one shown: the source's rank first (an archive record over a
# mention), then a spelling without stray punctuation or spaces at its ends, then the newest.
NAME_ORDER = (
    "substr(stamp, 1, 2) DESC, CASE WHEN name LIKE '%:' OR name LIKE '%.' OR name LIKE '% ' "
    "OR name LIKE ' %' OR name LIKE '%  %' OR name LIKE '%\\_%' ESCAPE '\\' THEN 1 ELSE 0 END, "
    "stamp DESC, name"
)


def documents(load_run_id) -> Counts:
    temp_table("w_document", winners("stg_document", "url", "*"))
    return upsert(
        "w_document",
        "catalogue_sourcedocument",
        {"url": "url"},
        [Group("stamp", stated(schema.TABLES["document"], schema.STAMP))],
        extra_insert={"last_load_id": str(int(load_run_id)) if load_run_id else "NULL"},
    )


def repos() -> Counts:
    temp_table("w_repo", winners("stg_repo", "key", "*"))
    return upsert(
        "w_repo",
        "catalogue_repo",
        {"key": "key"},
        [Group("stamp", stated(schema.TABLES["repo"], schema.STAMP, document_id="NULL"))],
    )


def merge_named(
    table: columns.Table,
    target: str,
    *,
    order: str,
    special: dict | None = None,
    by_hand: tuple[str, ...] = (),
) -> Counts:
    """Merge ``stg_<table>`` by slug, each stamp group from its own winner (see the module docstring).

    ``special`` gives, per group, columns merged otherwise than as staged (model field -> SQL);
    ``by_hand``, columns of the details' winner kept in ``w_<table>`` for a later step (a task's
    parent). Leaves ``w_<table>`` (with ``applied`` set where the DETAIL group was written) for
    the lists the details own.
    """
    special = special or {}
    stage = f"stg_{table.name}"
    name_cols = [c.name for c in table.group(schema.STAMP)]
    picked = [materialize(f"m_{table.name}_name", winners(stage, "slug", "*", order=order), "slug")]
    select = ["n.slug", "n.stamp", *(f"n.{c}" for c in name_cols), "n.doc_url"]
    joins = []
    groups = [Group(schema.STAMP, stated(table, schema.STAMP, **special.get(schema.STAMP, {})))]
    for group, condition in table.stated_by.items():
        alias = f"g_{group}"
        picked.append(
            materialize(f"m_{table.name}_{group}", winners(stage, "slug", "*", where=condition), "slug")
        )
        select += [f"{alias}.{c.name}" for c in table.group(group)] + [f"{alias}.stamp AS {group}"]
        if group == schema.DETAIL:
            select += [f"{alias}.{c}" for c in by_hand]
        joins.append(f"LEFT JOIN {picked[-1]} {alias} ON {alias}.slug = n.slug")
        groups.append(Group(group, stated(table, group, **special.get(group, {}))))
    temp_table(f"w_{table.name}", f"SELECT {', '.join(select)} FROM {picked[0]} n {' '.join(joins)}")
    applied = schema.DETAIL if schema.DETAIL in table.stated_by else None
    return upsert(f"w_{table.name}", target, {"slug": "slug"}, groups, applied=applied)


def areas() -> Counts:
    temp_table("w_area", winners("stg_area", "slug", "*", order="stamp DESC, name"))
    return upsert(
        "w_area",
        "catalogue_area",
        {"slug": "slug"},
        [Group("stamp", stated(schema.TABLES["area"], schema.STAMP, document_id="NULL"))],
    )


def tasks() -> tuple[Counts, list[LoadWarning]]:
    counts = merge_named(
        schema.TASK,
        "catalogue_task",
        order=NAME_ORDER,
        special={schema.STAMP: {"document_id": "NULL"}},
        by_hand=("parent_slug",),
    )
    # The tree and the areas are the details' (an evaluation table's task and its subtasks).
    execute(
        "UPDATE catalogue_task AS t SET parent_id = (SELECT p.id FROM catalogue_task p WHERE p.slug = "
        "w.parent_slug) "
        "FROM w_task w WHERE t.id = w.target_id AND w.applied = 1"
    )
    _replace_links(
        "catalogue_task_areas",
        "task_id",
        "SELECT DISTINCT w.target_id, a.id FROM stg_task_area s JOIN w_task w ON w.slug = s.task_slug "
        "AND w.detail_stamp = s.stamp AND w.applied = 1 JOIN catalogue_area a ON a.slug = s.area_slug",
        "area_id",
        "w_task",
    )
    return counts, aliases_of("task", "task", "/task/")


def collections() -> Counts:
    temp_table("w_collection", winners("stg_collection", "slug", "*", order="stamp DESC, name"))
    area = "(SELECT a.id FROM catalogue_area a WHERE a.slug = w.area_slug)"
    return upsert(
        "w_collection",
        "catalogue_methodcollection",
        {"slug": "slug"},
        [Group("stamp", stated(schema.TABLES["collection"], schema.STAMP, area_id=area, document_id="NULL"))],
    )


def methods() -> tuple[Counts, list[LoadWarning]]:
    # One document can name a method twice (in ``methods`` and ``methods_introduced``);
    # the mention that states a full name wins over the one that does not.
    counts = merge_named(
        schema.METHOD,
        "catalogue_method",
        order="stamp DESC, CASE WHEN full_name IS NULL THEN 1 ELSE 0 END, name",
        special={schema.STAMP: {"document_id": "NULL"}},
        by_hand=("paper_pkey",),
    )
    _replace_links(
        "catalogue_method_collections",
        "method_id",
        "SELECT DISTINCT w.target_id, c.id FROM stg_method_collection s JOIN w_method w ON w.slug = "
        "s.method_slug "
        "AND w.detail_stamp = s.stamp AND w.applied = 1 "
        "JOIN catalogue_methodcollection c ON c.slug = s.collection_slug",
        "methodcollection_id",
        "w_method",
    )
    return counts, aliases_of("method", "method", "/method/")


def datasets() -> tuple[Counts, list[LoadWarning]]:
    counts = merge_named(
        schema.DATASET,
        "catalogue_dataset",
        order=NAME_ORDER,
        special={schema.STAMP: {"document_id": "NULL"}},
        by_hand=("paper_pkey",),
    )
    _replace_links(
        "catalogue_dataset_tasks",
        "dataset_id",
        "SELECT DISTINCT w.target_id, t.id FROM stg_dataset_task s JOIN w_dataset w ON w.slug = "
        "s.dataset_slug "
        "AND w.detail_stamp = s.stamp AND w.applied = 1 JOIN catalogue_task t ON t.slug = s.task_slug",
        "task_id",
        "w_dataset",
    )
    _subdataset_parents()
    return counts, aliases_of("dataset", "dataset", "/dataset/")


def _subdataset_parents() -> None:
    """A subdataset's table names the dataset it is part of: kept once known.

    The parent is the dataset its name resolves to this load (through ``r_dataset_names``),
    else the catalogue's dataset of that exact name. Step by step through indexed tables: one
    correlated UPDATE scanned the staged datasets once per subdataset (quadratic: over half an
    hour at archive size on SQLite).
    """
    # each subdataset (by slug) and the parent name its rows give (the least, if several)
    materialize(
        "m_sub_parent",
        "SELECT slug, MIN(parent_name) AS parent_name FROM stg_dataset "
        "WHERE parent_name IS NOT NULL GROUP BY slug",
        "parent_name",
    )
    # each such parent name and the name key it is staged under
    materialize(
        "m_parent_key",
        "SELECT s.name, MIN(s.name_key) AS name_key FROM stg_dataset s "
        "WHERE s.name IN (SELECT parent_name FROM m_sub_parent) GROUP BY s.name",
        "name",
    )
    materialize(
        "m_sub_parent_slug",
        "SELECT m.slug, COALESCE("
        "(SELECT MIN(r.slug) FROM r_dataset_names r WHERE r.derived = k.name_key), "
        "(SELECT MIN(c.slug) FROM catalogue_dataset c WHERE c.name = m.parent_name)) AS parent_slug "
        "FROM m_sub_parent m LEFT JOIN m_parent_key k ON k.name = m.parent_name",
        "slug",
    )
    execute(
        "UPDATE catalogue_dataset SET parent_id = (SELECT p.id FROM m_sub_parent_slug m "
        "JOIN catalogue_dataset p ON p.slug = m.parent_slug WHERE m.slug = catalogue_dataset.slug) "
        "WHERE parent_id IS NULL AND slug IN (SELECT slug FROM m_sub_parent)"
    )


def _replace_links(through: str, own: str, select_sql: str, other: str, w: str) -> None:
    """A many-to-many list owned by the details: rewritten for the rows whose details were written."""
    execute(f"DELETE FROM {through} WHERE {own} IN (SELECT target_id FROM {w} WHERE applied = 1)")
    execute(f"INSERT INTO {through} ({own}, {other}) {select_sql}")


NAMES_MERGED = "names_merged"  # the kind of their warnings


def aliases_of(kind: str, stage: str, address: str) -> list[LoadWarning]:
    """Record every other spelling of a name that gave one slug; a warning for each thing so named.

    The aliases are the names this load gave the thing, and those it had, but the one shown. A
    name that is only the slug again (a task named by its slug alone) is no spelling of its own.
    """
    # Spelled two ways in this load, or otherwise than shown (an earlier load's spelling won: a
    # harvest split across runs keeps the same aliases as one run of it).
    spelled = (
        f"SELECT s.slug FROM stg_{stage} s JOIN catalogue_{kind} t ON t.slug = s.slug WHERE s.name <> s.slug "
        "GROUP BY s.slug HAVING COUNT(DISTINCT s.name) > 1 "
        "OR MAX(CASE WHEN s.name <> t.name THEN 1 ELSE 0 END) = 1"
    )
    found = rows(
        f"SELECT s.slug, s.name, s.doc_url, t.name, t.aliases FROM stg_{stage} s "
        f"JOIN catalogue_{kind} t ON t.slug = s.slug "
        f"WHERE s.name <> s.slug AND s.slug IN ({spelled}) ORDER BY s.slug, s.name"
    )
    by_slug: dict[str, tuple[str, list, dict[str, set]]] = {}
    for slug, name, doc_url, shown, stored in found:
        stored = json.loads(stored) if isinstance(stored, str) else (stored or [])
        by_slug.setdefault(slug, (shown, stored, {}))[2].setdefault(name, set()).add((doc_url, 0))
    warnings, changed = [], []
    named = file_names(
        url for _shown, _stored, names in by_slug.values() for units in names.values() for url, _ in units
    )
    for slug, (shown, stored, names) in by_slug.items():
        aliases = sorted((set(stored) | set(names)) - {shown})
        if aliases != sorted(stored):
            changed.append((json.dumps(aliases, ensure_ascii=False), slug))
        spellings = " / ".join(repr(n) for n in sorted(names))
        files = where_from(set().union(*names.values()) - {(None, 0)}, named)
        warnings.append(
            LoadWarning(
                NAMES_MERGED,
                "",
                f"{spellings} are one {kind}, {address}{slug}, shown as {shown!r} (named so by {files})",
            )
        )
    if changed:  # one statement for every thing whose aliases changed
        with connection.cursor() as cur:
            cur.executemany(f"UPDATE catalogue_{kind} SET aliases = {json_param()} WHERE slug = %s", changed)
    return warnings


def bodies(clashes: list[Clash]) -> Counts:
    """Code bodies by their prefix, and the text a place gave of each.

    A body has one text (its hash names it): two different texts for one body, in this load
    or against the catalogue's, are a clash naming every file that gives one. Where the texts
    agree, the newest document that gives it decides the language and is kept as its source.
    """
    texts = materialize(
        "m_body_text",
        winners("stg_body", "sha", "*", where=schema.BODY.stated_by[schema.CODE_TEXT]),
        "sha",
    )
    temp_table(
        "w_body",
        f"SELECT s.sha, t.code, t.language, t.stamp AS {schema.CODE_TEXT}, t.doc_url "
        f"FROM (SELECT DISTINCT sha FROM stg_body) s LEFT JOIN {texts} t ON t.sha = s.sha",
    )
    found = rows(
        "SELECT sha FROM stg_body WHERE code IS NOT NULL GROUP BY sha HAVING COUNT(DISTINCT code) > 1 "
        "UNION SELECT s.sha FROM stg_body s JOIN catalogue_codebody b ON b.sha256_prefix = s.sha "
        "WHERE s.code IS NOT NULL AND b.code <> '' AND b.code <> s.code ORDER BY 1"
    )
    for (sha,) in found:
        units = set(
            rows("SELECT DISTINCT doc_url, 0 FROM stg_body WHERE sha = %s AND code IS NOT NULL", [sha])
        )
        stored = rows(
            "SELECT COALESCE(d.file_name, 'a document no longer loaded') FROM catalogue_codebody b "
            "LEFT JOIN catalogue_sourcedocument d ON d.id = b.code_document_id "
            "WHERE b.sha256_prefix = %s AND b.code <> ''",
            [sha],
        )
        catalogue = f"; the catalogue holds another, from {stored[0][0]}" if stored else ""
        clashes.append(
            Clash(f"code body {sha} is given different texts by {where_from(units)}{catalogue}", units)
        )
        execute(f"UPDATE w_body SET code = NULL, {schema.CODE_TEXT} = NULL WHERE sha = %s", [sha])
    return upsert(
        "w_body",
        "catalogue_codebody",
        {"sha256_prefix": "sha"},
        [
            Group(
                schema.CODE_TEXT,
                stated(schema.BODY, schema.CODE_TEXT, code_document_id=doc_id("w.doc_url")),
            )
        ],
    )


def entries(clashes: list[Clash]) -> Counts:
    """Code entries by name. An entry's address is the one its own document states ("1|" rows);
    a paper document only names it, with the address its name gives ("0|"): that stands for an
    entry no document describes, and never moves or clashes with an entry the catalogue holds (a
    touched paper document naming ``init`` beside the catalogue's ``__init__`` at /code/init, whose
    own document gave ``init`` /code/init-1, is the same catalogue as the full load)."""
    temp_table("w_entry", winners("stg_entry", "name", "*", order="stamp DESC, slug"))
    execute(
        "UPDATE w_entry SET slug = (SELECT e.slug FROM catalogue_codeentry e WHERE e.name = w_entry.name) "
        "WHERE stamp LIKE '0|%' AND EXISTS (SELECT 1 FROM catalogue_codeentry e WHERE e.name = w_entry.name)"
    )
    # A claim is stated by the entry's own document only; keep the newest one stated.
    execute(
        "UPDATE w_entry SET claim = (SELECT s.claim FROM stg_entry s WHERE s.name = w_entry.name "
        "AND s.claim IS NOT NULL ORDER BY s.stamp DESC LIMIT 1) WHERE claim IS NULL"
    )
    _entry_clashes(clashes)
    return upsert(
        "w_entry",
        "catalogue_codeentry",
        {"name": "name"},
        [Group("stamp", stated(schema.TABLES["entry"], schema.STAMP, document_id=doc_id("w.doc_url")))],
    )


def _entry_clashes(clashes: list[Clash]) -> None:
    """Two entries (staged, or one of the catalogue) that claim one address: a clash naming the
    documents of both, and neither merged."""
    found = rows(
        "SELECT w.slug, w.name FROM w_entry w WHERE w.slug IN (SELECT slug FROM w_entry GROUP BY slug "
        "HAVING COUNT(*) > 1) "
        "UNION SELECT w.slug, e.name FROM w_entry w JOIN catalogue_codeentry e ON e.slug = w.slug AND "
        "e.name <> w.name "
        "UNION SELECT w.slug, w.name FROM w_entry w JOIN catalogue_codeentry e ON e.slug = w.slug AND "
        "e.name <> w.name"
    )
    by_slug: dict[str, set[str]] = {}
    for slug, name in found:
        by_slug.setdefault(slug, set()).add(name)
    for slug, names in sorted(by_slug.items()):
        units = {
            (url, 0)
            for (url,) in rows(
                "SELECT DISTINCT doc_url FROM stg_entry WHERE doc_url IS NOT NULL AND (slug = %s OR name IN ("
                + ", ".join(["%s"] * len(names))
                + "))",
                [slug, *sorted(names)],
            )
        }
        units |= {
            (url, 0)
            for (url,) in rows(
                "SELECT DISTINCT doc_url FROM stg_sample WHERE entry_name IN ("
                + ", ".join(["%s"] * len(names))
                + ")",
                sorted(names),
            )
        }
        clashes.append(
            Clash(
                f"code entries {' and '.join(repr(n) for n in sorted(names))} both claim the address "
                f"/code/{slug}"
                f" ({where_from(units) or 'the catalogue'})",
                units,
            )
        )
        execute("DELETE FROM w_entry WHERE slug = %s", [slug])


def leaderboards(clashes: list[Clash]) -> Counts:
    source = materialize(
        "r_leaderboard",
        "SELECT s.*, t.id AS task_id, d.id AS dataset_id FROM stg_leaderboard s "
        "JOIN catalogue_task t ON t.slug = s.task_slug JOIN catalogue_dataset d ON d.slug = s.dataset_slug",
        "seq",
    )
    slugs = materialize(
        "m_leaderboard_slug", winners(source, "task_id, dataset_id", "*", order="stamp DESC, slug")
    )
    tables = materialize(
        "m_leaderboard_table",
        winners(source, "task_id, dataset_id", "*", where="metrics IS NOT NULL"),
        "task_id",
    )
    temp_table(
        "w_leaderboard",
        f"SELECT n.task_id, n.dataset_id, n.slug, n.stamp, n.doc_url, n.rec, b.metrics, b.description, "
        f"b.stamp AS table_stamp FROM {slugs} n LEFT JOIN {tables} b "
        "ON b.task_id = n.task_id AND b.dataset_id = n.dataset_id",
    )
    # One address for two task × dataset pairs (in this load, or against the catalogue) cannot be.
    found = rows(
        "SELECT w.slug FROM w_leaderboard w GROUP BY w.slug HAVING COUNT(*) > 1 "
        "UNION SELECT w.slug FROM w_leaderboard w JOIN catalogue_leaderboard b ON b.slug = w.slug "
        "AND (b.task_id <> w.task_id OR b.dataset_id <> w.dataset_id) ORDER BY 1"
    )
    for (slug,) in found:
        units = set(
            rows("SELECT DISTINCT doc_url, COALESCE(rec, 0) FROM stg_leaderboard WHERE slug = %s", [slug])
        )
        pairs = rows(
            "SELECT DISTINCT task_slug, dataset FROM stg_leaderboard WHERE slug = %s ORDER BY 1, 2", [slug]
        )
        described = "; ".join(f"{task} × {dataset!r}" for task, dataset in pairs)
        clashes.append(
            Clash(
                f"/sota/{slug} is claimed by two task × dataset pairs ({described}) in {where_from(units)}",
                units,
            )
        )
        execute("DELETE FROM w_leaderboard WHERE slug = %s", [slug])
    _every_table_column(source)
    index_targets("w_leaderboard")
    return upsert(
        "w_leaderboard",
        "catalogue_leaderboard",
        {"task_id": "task_id", "dataset_id": "dataset_id"},
        [
            Group("stamp", stated(schema.LEADERBOARD, schema.STAMP, document_id="NULL")),
            Group(schema.TABLE, stated(schema.LEADERBOARD, schema.TABLE)),
        ],
    )


def _every_table_column(source: str) -> None:
    """A board that several tables are merged into (names that differ only by spelling) keeps
    every column of every one of them: the newest table's in its order, then each other table's
    columns it lacks, newest table first (ties: file, record). Only boards with two tables or more."""
    found = rows(
        f"SELECT s.task_id, s.dataset_id, s.metrics FROM {source} s JOIN (SELECT task_id, dataset_id "
        f"FROM {source} WHERE metrics IS NOT NULL GROUP BY task_id, dataset_id "
        "HAVING COUNT(DISTINCT metrics) > 1) m ON m.task_id = s.task_id AND m.dataset_id = s.dataset_id "
        "WHERE s.metrics IS NOT NULL ORDER BY s.task_id, s.dataset_id, s.stamp DESC, s.doc_url, s.rec, s.seq"
    )
    columns: dict[tuple[int, int], list[str]] = {}
    for task_id, dataset_id, metrics in found:
        names = json.loads(metrics) if isinstance(metrics, str) else metrics
        board = columns.setdefault((task_id, dataset_id), [])
        board += [name for name in names if isinstance(name, str) and name not in board]
    for (task_id, dataset_id), names in columns.items():
        execute(
            f"UPDATE w_leaderboard SET metrics = {json_param()} WHERE task_id = %s AND dataset_id = %s",
            [json.dumps(names, ensure_ascii=False), task_id, dataset_id],
        )


def columns_cover_results() -> None:
    """A board whose tables state columns lists every metric its results state (an earlier load's
    table, or another source's row, may name one the newest table lacks): appended, by name."""
    found = rows(
        "SELECT lb.id, lb.metrics, r.metrics FROM catalogue_leaderboard lb JOIN catalogue_result r "
        "ON r.leaderboard_id = lb.id WHERE lb.id IN (SELECT target_id FROM w_leaderboard "
        "UNION SELECT leaderboard_id FROM w_result) ORDER BY lb.id"
    )
    boards: dict[int, tuple[list, set]] = {}
    for board_id, board_metrics, result_metrics in found:
        stated = json.loads(board_metrics) if isinstance(board_metrics, str) else board_metrics
        if not stated:
            continue  # no table states its columns (the seed format): ranked by what its rows state
        named = json.loads(result_metrics) if isinstance(result_metrics, str) else result_metrics
        boards.setdefault(board_id, (stated, set()))[1].update(named or {})
    for board_id, (stated, named) in boards.items():
        if missing := sorted(named - set(stated)):
            execute(
                f"UPDATE catalogue_leaderboard SET metrics = {json_param()} WHERE id = %s",
                [json.dumps(stated + missing, ensure_ascii=False), board_id],
            )
