"""Merging the rows papers hold: code links, harvested repositories, results and places (samples).

A list a source states is that source's. A paper document states its paper's code links,
results and harvested repositories: when a newer paper document of the paper is loaded, the
rows paper documents gave that it no longer lists go. A dump states rows across papers (the
links dump, the evaluation tables): when a new copy of that dump is loaded, the rows it gave
that it no longer holds go. Rows another source gave are never touched by either.

Code links and results can be stated by several sources at once (a link by the links dump and by
a table row that names the paper's code; a result by a paper document and a table): one row,
whose values the newest statement decides, and one ``…Source`` row per source that states it
(``_restate_sources``). A new version of a source takes back only its own statements; a row goes
when no source states it any more.
"""

from catalogue.loader import schema
from catalogue.loader.merge.papers import BUMP_VERSION, FROM_DUMP, FROM_NEWEST_DOCUMENT
from catalogue.loader.merge.sql import (
    Counts,
    Group,
    doc_id,
    execute,
    materialize,
    same,
    scalar,
    stated,
    temp_table,
    upsert,
    winners,
)
from catalogue.models import DocumentKind


def _is_paper_document(document_id: str) -> str:
    """The document ``document_id`` names is a paper document: a lookup by its key for each row
    asked about. Written as ``document_id IN (SELECT id … WHERE kind = 'paper')`` it read every
    document row (the widest table) once per statement, however few papers a reload restates:
    2.8 s of a 5 %-touched reload's DELETE at 20,000 papers, 0.02 s this way (bench/README.md)."""
    return (
        "EXISTS (SELECT 1 FROM catalogue_sourcedocument doc "
        f"WHERE doc.id = {document_id} AND doc.kind = '{DocumentKind.PAPER.value}')"
    )


def _delete_stale(table: str, w: str) -> int:
    """Rows a newer version of their own source no longer states (see the module docstring)."""
    by_documents = execute(
        f"DELETE FROM {table} "
        "WHERE paper_id IN (SELECT target_id FROM w_paper WHERE doc_applied = 1 AND created = 0) "
        f"AND (document_id IS NULL OR {_is_paper_document(f'{table}.document_id')}) "
        f"AND id NOT IN (SELECT target_id FROM {w})"
    )
    by_dumps = execute(
        f"DELETE FROM {table} WHERE document_id IN "
        "(SELECT target_id FROM w_document WHERE changed = 1 AND url LIKE 'archive:%') "
        f"AND id NOT IN (SELECT target_id FROM {w})"
    )
    return by_documents + by_dumps


def repo_links(stage: str) -> Counts:
    """Code links, harvested repositories: by (paper, repository, sub-path), the newest wins.

    A code link a table's row gives ranks below every other statement of it (its stamp is a
    mention's): the links dump's record and a paper document's state its flags, the row does not.
    """
    table = f"catalogue_{stage.replace('_', '')}"
    code_links = "rec" in schema.TABLES[stage].names
    dumps = f"{FROM_DUMP} OR " if code_links else ""
    # A table row's link names its board by task and dataset (the dataset as the row spells it);
    # joined to an indexed table of the boards, not a lookup per link: most links name none.
    board, board_joins = ("", "")
    if code_links:
        materialize(
            "r_board",
            "SELECT lb.id AS leaderboard_id, t.slug AS task, d.slug AS dataset FROM catalogue_leaderboard lb "
            "JOIN catalogue_task t ON t.id = lb.task_id JOIN catalogue_dataset d ON d.id = lb.dataset_id",
            "task, dataset",
        )
        board = ", lb.leaderboard_id"
        board_joins = (
            "LEFT JOIN r_dataset_names n ON n.derived = s.board_dataset LEFT JOIN r_board lb "
            "ON lb.task = s.board_task AND lb.dataset = COALESCE(n.slug, s.board_dataset)"
        )
    source = materialize(
        f"r_{stage}",
        f"SELECT s.*, w.target_id AS paper_id, r.id AS repo_id{board} FROM stg_{stage} s "
        f"JOIN w_paper w ON w.pkey = s.pkey AND ({dumps}{FROM_NEWEST_DOCUMENT}) "
        f"JOIN catalogue_repo r ON r.key = s.repo_key {board_joins}",
        "seq",
    )
    temp_table(f"w_{stage}", winners(source, "paper_id, repo_id, sub_path", "*"))
    columns = stated(schema.TABLES[stage], schema.STAMP, document_id=doc_id("w.doc_url"))
    counts = upsert(
        f"w_{stage}",
        table,
        {"paper_id": "paper_id", "repo_id": "repo_id", "sub_path": "sub_path"},
        [Group("stamp", columns)],
    )
    if code_links:
        counts.deleted = _restate_sources(
            source,
            table,
            "catalogue_codelinksource",
            "link_id",
            "l.paper_id = r.paper_id AND l.repo_id = r.repo_id AND l.sub_path = r.sub_path",
            board="leaderboard_id",
        )
    else:
        counts.deleted = _delete_stale(table, f"w_{stage}")
    return counts


def _restate_sources(
    resolved: str, table: str, sources: str, own: str, matches: str, board: str | None = None
) -> int:
    """The sources of each row as this load states them; returns how many rows no source states now.

    ``resolved``: the staged rows with their target's key columns; ``matches``: how one (``r``)
    finds its row of ``table`` (``l``). The sources restated are this load's new versions of a
    dump (its old statements go) and the paper documents of papers whose newest document this
    load applied (the documents of that paper go: only its newest counts). Rows that lose their
    last source go; rows a source states are never deleted by another source's new version.
    """
    restated_dumps = "SELECT target_id FROM w_document WHERE changed = 1 AND url LIKE 'archive:%'"
    restated_papers = "SELECT target_id FROM w_paper WHERE doc_applied = 1 AND created = 0"
    materialize(
        "m_sources_lost",
        f"SELECT DISTINCT x.{own} AS id FROM {sources} x WHERE x.document_id IN ({restated_dumps}) "
        f"UNION SELECT DISTINCT x.{own} FROM {sources} x JOIN {table} l ON l.id = x.{own} "
        f"WHERE l.paper_id IN ({restated_papers}) AND {_is_paper_document('x.document_id')} "
        # rows of a restated paper that no source was ever recorded for (before sources were kept)
        f"UNION SELECT l.id FROM {table} l WHERE l.paper_id IN ({restated_papers}) "
        f"AND NOT EXISTS (SELECT 1 FROM {sources} x WHERE x.{own} = l.id)",
        "id",
    )
    execute(f"DELETE FROM {sources} WHERE document_id IN ({restated_dumps})")
    execute(
        f"DELETE FROM {sources} WHERE {_is_paper_document(f'{sources}.document_id')} AND {own} IN "
        f"(SELECT id FROM {table} WHERE paper_id IN ({restated_papers}))"
    )
    board_column, board_value, board_match = (
        (", leaderboard_id", f", r.{board}", f" AND {same('x.leaderboard_id', f'r.{board}')}")
        if board
        else ("", "", "")
    )
    execute(
        f"INSERT INTO {sources} ({own}, document_id{board_column}) "
        f"SELECT DISTINCT l.id, d.id{board_value} FROM {resolved} r JOIN {table} l ON {matches} "
        "JOIN catalogue_sourcedocument d ON d.url = r.doc_url "
        f"WHERE NOT EXISTS (SELECT 1 FROM {sources} x "
        f"WHERE x.{own} = l.id AND x.document_id = d.id{board_match})"
    )
    return execute(
        f"DELETE FROM {table} WHERE id IN (SELECT id FROM m_sources_lost) "
        f"AND NOT EXISTS (SELECT 1 FROM {sources} x WHERE x.{own} = {table}.id)"
    )


def results() -> tuple[Counts, int]:
    """Result rows by (leaderboard, paper or none, what the row says): returns the counts, and how
    many staged rows were identical to another and so one with it."""
    source = materialize(
        "r_result",
        "SELECT s.*, w.target_id AS paper_id, lb.id AS leaderboard_id FROM stg_result s "
        "LEFT JOIN w_paper w ON w.pkey = s.pkey "
        "JOIN catalogue_task t ON t.slug = s.task_slug JOIN catalogue_dataset d ON d.slug = s.dataset_slug "
        "JOIN catalogue_leaderboard lb ON lb.task_id = t.id AND lb.dataset_id = d.id "
        f"WHERE (s.pkey IS NULL OR w.target_id IS NOT NULL) AND ({FROM_DUMP} OR {FROM_NEWEST_DOCUMENT})",
        "seq",
    )
    temp_table("w_result", winners(source, "leaderboard_id, paper_id, row_key", "*"))
    collapsed = scalar(f"SELECT COUNT(*) FROM {source}") - scalar("SELECT COUNT(*) FROM w_result")
    counts = upsert(
        "w_result",
        "catalogue_result",
        {"leaderboard_id": "leaderboard_id", "paper_id": "paper_id", "row_key": "row_key"},
        [Group("stamp", stated(schema.RESULT, schema.STAMP, document_id=doc_id("w.doc_url")))],
        nullable_keys=("paper_id",),
    )
    counts.deleted = _restate_sources(
        source,
        "catalogue_result",
        "catalogue_resultsource",
        "result_id",
        f"l.leaderboard_id = r.leaderboard_id AND {same('l.paper_id', 'r.paper_id')} "
        "AND l.row_key = r.row_key",
    )
    return counts, collapsed


SAMPLE_COMMON = [c.name for c in schema.SAMPLE.group(schema.STAMP)]


def samples() -> Counts:
    resolved = materialize(
        "r_sample",
        "SELECT s.*, w.target_id AS paper_id, b.id AS body_id, e.id AS entry_id, r.id AS repo_id "
        "FROM stg_sample s JOIN w_paper w ON w.pkey = s.pkey "
        "JOIN catalogue_codebody b ON b.sha256_prefix = s.sha "
        "JOIN catalogue_codeentry e ON e.name = s.entry_name "
        "LEFT JOIN catalogue_repo r ON r.key = s.repo_key",
        "seq",
    )
    common = ", ".join(f"c.{col}" for col in SAMPLE_COMMON)
    partition = "paper_id, body_id, entry_id"
    common_winners = materialize("m_sample_common", winners(resolved, partition, "*"), partition)
    view_winners = materialize(
        "m_sample_view",
        winners(resolved, partition, "*", where=schema.SAMPLE.stated_by[schema.PAPER_VIEW]),
        partition,
    )
    view = ", ".join(f"pv.{c.name}" for c in schema.SAMPLE.group(schema.PAPER_VIEW))
    temp_table(
        "w_sample",
        f"SELECT c.paper_id, c.body_id, c.entry_id, c.repo_id, {common}, c.stamp, c.doc_url, "
        f"{view}, pv.stamp AS paper_view_stamp "
        f"FROM {common_winners} c LEFT JOIN {view_winners} pv "
        "ON pv.paper_id = c.paper_id AND pv.body_id = c.body_id AND pv.entry_id = c.entry_id",
    )
    common_columns = stated(
        schema.SAMPLE,
        schema.STAMP,
        # A curator's correction stands; the snapshot's value is kept beside it.
        status="CASE WHEN t.status_corrected THEN t.status ELSE w.status END",
        status_upstream="w.status",
        repo_id="w.repo_id",
        document_id=doc_id("w.doc_url"),
    )
    return upsert(
        "w_sample",
        "catalogue_sample",
        {"paper_id": "paper_id", "body_id": "body_id", "entry_id": "entry_id"},
        [
            Group("stamp", common_columns, insert_columns={"status": "w.status"}, also_set=BUMP_VERSION),
            Group(schema.PAPER_VIEW, stated(schema.SAMPLE, schema.PAPER_VIEW)),
        ],
    )
