"""Restoring curators' corrections from a corrections document (``dump_snapshot`` writes one).

Runs after every row is merged, so that a correction finds what it corrects by the natural keys
the document gives: the paper (its arXiv id, else a slug it was published under) and, for a
status, the place's code body and entry. A correction the catalogue already holds (the same
field of the same row, made at the same instant) is left as it is, so loading a dump again
changes nothing. A restored correction that is in force is applied as a curator's would be:
the value shown becomes the curator's, the snapshot's stays beside it, and the loader leaves
it alone from then on.

What cannot be restored is warned of and skipped, never guessed: a target the catalogue does
not hold, or an active correction where the row already has another one in force.
"""

from catalogue import counters, search
from catalogue.loader.merge.sql import Counts, execute, materialize, rows, true, winners

WARNED = 20  # beyond this, a count
# Warnings name the file (as every loader message does), found by the document's url.
FILE_NAME = "COALESCE((SELECT d.file_name FROM catalogue_sourcedocument d WHERE d.url = doc_url), doc_url)"
BY_SLUG = "c.pkey LIKE 'slug:%'"  # a paper without an arXiv id is keyed "slug:<slug>"
# The stored correction ``k`` is of the same row as the restored one ``u``.
SAME_ROW = (
    "k.field = u.field AND (k.paper_id = u.target_id AND u.field = 'title' "
    "OR k.sample_id = u.target_id AND u.field = 'status')"
)


def corrections() -> tuple[Counts, list[str]]:
    resolved, warnings = _resolve_corrections()
    target = "CASE WHEN field = 'title' THEN paper_id ELSE sample_id END"
    # One row per correction (two documents may both hold it), then those the catalogue lacks.
    unique = materialize(
        "u_correction",
        winners(
            f"(SELECT * FROM {resolved} WHERE paper_id IS NOT NULL "
            "AND (field = 'title' OR sample_id IS NOT NULL))",
            f"field, {target}, created_at",
            f"s.*, {target} AS target_id",
            order="doc_url, rec",
        ),
    )
    held = f"EXISTS (SELECT 1 FROM catalogue_correction k WHERE {SAME_ROW} AND k.created_at = u.created_at)"
    in_force = f"EXISTS (SELECT 1 FROM catalogue_correction k WHERE {SAME_ROW} AND k.removed_at IS NULL)"
    # Of several active ones for one row, only the newest can be in force.
    newer_active = (
        f"EXISTS (SELECT 1 FROM {unique} v WHERE v.removed_at IS NULL AND u.removed_at IS NULL "
        "AND v.field = u.field AND v.target_id = u.target_id AND v.created_at > u.created_at)"
    )
    clashing = rows(
        f"SELECT {FILE_NAME}, rec FROM {unique} u WHERE NOT {held} AND u.removed_at IS NULL "
        f"AND ({in_force} OR {newer_active}) ORDER BY doc_url, rec"
    )
    warnings += [
        f"{file}: corrections[{rec}]: the row already has a correction in force; this one is not restored"
        for file, rec in clashing
    ]
    new = materialize(
        "n_correction",
        f"SELECT * FROM {unique} u WHERE NOT {held} "
        f"AND NOT (u.removed_at IS NULL AND ({in_force} OR {newer_active}))",
    )
    created = execute(
        "INSERT INTO catalogue_correction (field, paper_id, sample_id, value, previous_value, "
        "upstream_value, reason, curator_name, created_at, removed_at, removed_by_name, removal_reason) "
        "SELECT field, CASE WHEN field = 'title' THEN target_id END, "
        "CASE WHEN field = 'status' THEN target_id END, value, previous_value, upstream_value, reason, "
        f"curator_name, created_at, removed_at, removed_by_name, removal_reason FROM {new} "
        "ORDER BY created_at, doc_url, rec"
    )
    _apply(new)
    if len(warnings) > WARNED:
        warnings = [*warnings[:WARNED], f"… and {len(warnings) - WARNED} more corrections not restored"]
    return Counts(created=created), warnings


def _resolve_corrections() -> tuple[str, list[str]]:
    """``r_correction``: each staged correction with the paper and place of the catalogue it
    corrects; and a warning for each whose paper or place the catalogue lacks."""
    resolved = materialize(
        "r_correction",
        "SELECT c.*, p.id AS paper_id, smp.id AS sample_id FROM stg_correction c "
        "LEFT JOIN catalogue_paper p ON p.id = COALESCE("
        "  (SELECT x.id FROM catalogue_paper x WHERE x.arxiv_id = c.pkey),"
        f"  (SELECT x.id FROM catalogue_paper x WHERE {BY_SLUG} AND x.slug = substr(c.pkey, 6)),"
        f"  (SELECT a.paper_id FROM catalogue_paperslug a WHERE {BY_SLUG} AND a.slug = substr(c.pkey, 6))"
        ") "
        "LEFT JOIN catalogue_codebody b ON b.sha256_prefix = c.sha "
        "LEFT JOIN catalogue_codeentry e ON e.name = c.entry_name "
        "LEFT JOIN catalogue_sample smp ON c.field = 'status' AND smp.paper_id = p.id "
        "AND smp.body_id = b.id AND smp.entry_id = e.id",
    )
    warnings = [
        f"{file}: corrections[{rec}]: no {what} in the catalogue; the correction is not restored"
        for file, rec, what in rows(
            f"SELECT {FILE_NAME}, rec, CASE WHEN paper_id IS NULL THEN 'paper ' || pkey "
            f"ELSE 'place of ' || entry_name || ' (' || sha || ') in ' || pkey END "
            f"FROM {resolved} WHERE paper_id IS NULL OR (field = 'status' AND sample_id IS NULL) "
            "ORDER BY doc_url, rec"
        )
    ]
    return resolved, warnings


def _apply(new: str) -> None:
    """Show the restored corrections that are in force, as ``catalogue.curation`` would."""
    for field, table, flag in (
        ("title", "paper", "title_corrected"),
        ("status", "sample", "status_corrected"),
    ):
        targets = f"SELECT target_id FROM {new} WHERE removed_at IS NULL AND field = '{field}'"
        ids = [pk for (pk,) in rows(targets)]
        if not ids:
            continue
        value = (
            f"(SELECT n.value FROM {new} n WHERE n.removed_at IS NULL AND n.field = '{field}' "
            f"AND n.target_id = catalogue_{table}.id)"
        )
        execute(
            f"UPDATE catalogue_{table} SET {field} = {value}, {flag} = {true()}, version = version + 1 "
            f"WHERE id IN ({targets})"
        )
        if field == "title":
            search.reindex("paper", ids=ids)
        else:
            entries = rows(f"SELECT DISTINCT entry_id FROM catalogue_sample WHERE id IN ({targets})")
            counters.refresh(entry_ids=[pk for (pk,) in entries], paper_ids=[])
