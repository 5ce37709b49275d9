"""Merging the rows papers hold: code links, harvested repositories, results and places (samples).

A list a source states is that source's. A paper document states its paper's code links,
results and harvested repositories: when a newer paper document of the paper is loaded, the
rows paper documents gave that it no longer lists go. A dump states rows across papers (the
links dump, the evaluation tables): when a new copy of that dump is loaded, the rows it gave
that it no longer holds go. Rows another source gave are never touched by either.
"""

from catalogue.loader import schema
from catalogue.loader.merge.papers import BUMP_VERSION
from catalogue.loader.merge.sql import (
    Counts,
    Group,
    doc_id,
    execute,
    materialize,
    scalar,
    stated,
    temp_table,
    upsert,
    winners,
)

# A staged row from a dump (its document is ``archive:<dump>``), not from a snapshot document.
FROM_DUMP = "s.doc_url LIKE 'archive:%'"
# The paper document rows of a paper that count: its newest paper document's.
FROM_NEWEST_DOCUMENT = "w.syntology_stamp = s.stamp"


def _delete_stale(table: str, w: str) -> int:
    """Rows a newer version of their own source no longer states (see the module docstring)."""
    by_documents = execute(
        f"DELETE FROM {table} "
        "WHERE paper_id IN (SELECT target_id FROM w_paper WHERE doc_applied = 1 AND created = 0) "
        "AND (document_id IS NULL OR document_id IN "
        "(SELECT id FROM catalogue_sourcedocument WHERE kind = 'paper')) "
        f"AND id NOT IN (SELECT target_id FROM {w})"
    )
    by_dumps = execute(
        f"DELETE FROM {table} WHERE document_id IN "
        "(SELECT target_id FROM w_document WHERE changed = 1 AND url LIKE 'archive:%') "
        f"AND id NOT IN (SELECT target_id FROM {w})"
    )
    return by_documents + by_dumps


def repo_links(stage: str) -> Counts:
    """Code links, harvested repositories: by (paper, repository, sub-path), the newest wins."""
    table = f"catalogue_{stage.replace('_', '')}"
    dumps = f"{FROM_DUMP} OR " if "rec" in schema.TABLES[stage].names else ""
    source = materialize(
        f"r_{stage}",
        f"SELECT s.*, w.target_id AS paper_id, r.id AS repo_id FROM stg_{stage} s "
        f"JOIN w_paper w ON w.pkey = s.pkey AND ({dumps}{FROM_NEWEST_DOCUMENT}) "
        "JOIN catalogue_repo r ON r.key = s.repo_key",
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
    counts.deleted = _delete_stale(table, f"w_{stage}")
    return counts


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
    counts.deleted = _delete_stale("catalogue_result", "w_result")
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
