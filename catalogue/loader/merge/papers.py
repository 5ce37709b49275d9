"""Merging papers: their identity, their addresses, and each stamp group from its own winner.

A paper's title and date come from the newest row that names it (a document, a dump record,
a code-entry document's sample; a row of another dump that only points at it ranks below all);
the archive's description of it (abstract, links, authors, tasks, methods) from the newest
paper document or papers-dump record; what only the papers dump states (conference, ids) from
the newest such record; what only a paper document states (Syntology's reading, and the lists
it owns: code links, results, harvested repositories, methods and datasets introduced) from the
newest paper document.
"""

from catalogue.loader import schema
from catalogue.loader.merge.resolve import Clash, paper_slug_clashes, where_from
from catalogue.loader.merge.sql import (
    Counts,
    Group,
    analyze,
    doc_id,
    execute,
    false,
    index_targets,
    is_empty,
    materialize,
    next_id,
    plain_indexes_built_after,
    rows,
    scalar,
    stated,
    true,
    winners,
)

# A stated Papers-with-Code slug over one made here (``arxiv-…``, a landing page's), then the newest.
_SLUG_ORDER = "CASE WHEN slug_derived THEN 1 ELSE 0 END, stamp DESC, slug"
# Every write by the loader moves a row's version on, so a curator's form from before it is stale.
BUMP_VERSION = {"version": "t.version + 1"}
# A row of the winning archive description: its version, and within it its record (a dump can
# hold one paper twice, under two slugs; documents are record 0).
_DESCRIPTION = "w.paper_stamp = s.stamp AND COALESCE(w.paper_stamp_rec, 0) = COALESCE(s.rec, 0)"
# What the title's winner gives a paper (besides its key and document).
_TITLE_COLUMNS = "arxiv_id, title, title_key, title_source, date, month, stamp"
# A staged row of a list a paper holds (``s``) that counts for its paper's winners (``w``): every
# dump's row (its document is ``archive:<dump>``), and of the paper documents only the newest's.
FROM_DUMP = "s.doc_url LIKE 'archive:%'"
FROM_NEWEST_DOCUMENT = "w.syntology_stamp = s.stamp"
# The groups of a paper besides its title's, in the order the winners table holds them.
GROUPS = (schema.PAPER_DOCUMENT, schema.ARCHIVE_RECORD, schema.SYNTOLOGY)


def papers(clashes: list[Clash]) -> Counts:
    for slug, clash in paper_slug_clashes():
        clashes.append(clash)
        # Neither paper is merged: their other rows (authors, links) then join nothing.
        execute("DELETE FROM stg_paper WHERE pkey IN (SELECT pkey FROM stg_paper WHERE slug = %s)", [slug])
    _winners_table()
    _catalogue_clashes(clashes)
    counts = _upsert()
    _slugs()
    return counts


def _winners_table() -> None:
    """``w_paper``: per staged paper, the winning row of each stamp group side by side."""
    # Whole staged rows in each winners table. Narrowing them to the columns read (85afe35) left
    # SQLite's temporary schema malformed for the connection's next loads in one test order
    # (a 400-paper dump load, then the live-server tests' loads): reverted until understood.
    title_winners = materialize("m_paper_title", winners("stg_paper", "pkey", "*"), "pkey")
    slug_winners = materialize(
        "m_paper_slug", winners("stg_paper", "pkey", "pkey, slug", order=_SLUG_ORDER), "pkey"
    )
    # The landing page a paper's rows name it by, and the newest address a row that only names
    # it gives (its url_abs where no description states one).
    named = materialize(
        "m_paper_named",
        "SELECT pkey, MIN(landing) AS landing FROM stg_paper GROUP BY pkey",
        "pkey",
    )
    addresses = materialize(
        "m_paper_address",
        winners("stg_paper", "pkey", "pkey, url_named", where="url_named IS NOT NULL"),
        "pkey",
    )
    select = [
        "tw.pkey, " + ", ".join(f"tw.{column}" for column in _TITLE_COLUMNS.split(", ")),
        "tw.doc_url",
        "sw.slug AS best_slug, nw.landing, aw.url_named",
    ]
    joins = [
        f"JOIN {slug_winners} sw ON sw.pkey = tw.pkey",
        f"JOIN {named} nw ON nw.pkey = tw.pkey",
        f"LEFT JOIN {addresses} aw ON aw.pkey = tw.pkey",
    ]
    for group in GROUPS:
        alias = f"g_{group}"
        table = materialize(
            f"m_paper_{group}",
            winners("stg_paper", "pkey", "*", where=schema.PAPER.stated_by[group]),
            "pkey",
        )
        select.append(", ".join(f"{alias}.{c.name}" for c in schema.PAPER.group(group)))
        select.append(
            f"{alias}.stamp AS {group}, {alias}.doc_url AS {group}_doc_url, {alias}.rec AS {group}_rec"
        )
        joins.append(f"LEFT JOIN {table} {alias} ON {alias}.pkey = tw.pkey")
    known = _catalogue_papers(title_winners, named)
    _create_winners(
        f"SELECT {', '.join(select)}, k.known_id FROM {title_winners} tw {' '.join(joins)} "
        f"JOIN {known} k ON k.pkey = tw.pkey"
    )


def _create_winners(rows: str) -> None:
    """``w_paper`` from the winners' ``rows`` (each with its catalogue paper's ``known_id`` or NULL).

    Each winner's paper of the catalogue is looked up as the table is made, and a new paper is
    given its id here (``target_id``, ``created``). Set afterwards, by UPDATEs of every row, they
    rewrote these wide rows three times: 24 s of a 576,000-paper first load on PostgreSQL.
    ``applied``, ``doc_applied``: a new paper takes every list its winners give.

    ``target_id`` is CAST so that SQLite gives the column INTEGER affinity: an expression's column
    has none, and then ``t.id = w.target_id`` cannot use the index on it, so every ``UPDATE …
    FROM w_paper`` scanned the winners once per paper (at 576,000 papers, not done in 26 minutes).
    """
    new = "r.known_id IS NULL"
    execute("DROP TABLE IF EXISTS w_paper")
    execute(
        f"CREATE TEMPORARY TABLE w_paper AS SELECT r.*, "
        f"CAST(COALESCE(r.known_id, {next_id('catalogue_paper')}) AS BIGINT) AS target_id, "
        f"CASE WHEN {new} THEN 1 ELSE 0 END AS created, 0 AS changed, "
        f"CASE WHEN {new} AND r.{schema.PAPER_DOCUMENT} IS NOT NULL THEN 1 ELSE 0 END AS applied, "
        f"CASE WHEN {new} AND r.{schema.SYNTOLOGY} IS NOT NULL THEN 1 ELSE 0 END AS doc_applied "
        f"FROM ({rows}) r"
    )
    # Looked up by key in later steps, some of them correlated subqueries (a method's introducing
    # paper): without it each of those scanned all the winners once per row.
    execute("CREATE INDEX w_paper_pkey ON w_paper (pkey)")


def _catalogue_papers(title_winners: str, named: str) -> str:
    """A table of the paper of the catalogue each staged paper already is (``pkey``, ``known_id``,
    NULL for a new paper); returns its name."""
    # A paper is the one its title made it (resolve.fold_by_title); else its arXiv id; else its
    # landing page; else its slug (any slug it ever had).
    if is_empty("catalogue_paper"):
        # A first load: there is nothing to look up (at archive size the lookups that find nothing
        # cost PostgreSQL 3-4 s).
        return materialize(
            "r_paper_known", f"SELECT pkey, CAST(NULL AS BIGINT) AS known_id FROM {title_winners}", "pkey"
        )
    return materialize(
        "r_paper_known",
        "SELECT tw.pkey, COALESCE("
        "(SELECT t.paper_id FROM r_title_target t WHERE t.pkey = tw.pkey), "
        "(SELECT p.id FROM catalogue_paper p WHERE p.arxiv_id = tw.arxiv_id), "
        "(SELECT p.id FROM catalogue_paper p WHERE p.landing_key = nw.landing), "
        "(SELECT ps.paper_id FROM catalogue_paperslug ps JOIN stg_paper s ON s.slug = ps.slug "
        " JOIN catalogue_paper p ON p.id = ps.paper_id "
        " WHERE s.pkey = tw.pkey AND (p.arxiv_id IS NULL OR tw.arxiv_id IS NULL) "
        " ORDER BY ps.slug LIMIT 1)) AS known_id "
        f"FROM {title_winners} tw JOIN {named} nw ON nw.pkey = tw.pkey",
        "pkey",
    )


def _catalogue_clashes(clashes: list[Clash]) -> None:
    """A staged slug that already names another paper of the catalogue: neither paper can have it."""
    found = rows(
        "SELECT DISTINCT s.slug, p.arxiv_id, w.arxiv_id, w.pkey FROM stg_paper s JOIN w_paper w ON w.pkey "
        "= s.pkey "
        "JOIN catalogue_paperslug ps ON ps.slug = s.slug JOIN catalogue_paper p ON p.id = ps.paper_id "
        "WHERE w.target_id IS NULL OR p.id <> w.target_id ORDER BY 1, 3"
    )
    for slug, old, new, pkey in found:
        units = set(rows("SELECT DISTINCT doc_url, COALESCE(rec, 0) FROM stg_paper WHERE pkey = %s", [pkey]))
        clashes.append(
            Clash(
                f"/paper/{slug} already names paper {old or slug}; it cannot also name {new or slug} "
                f"(as {where_from(units)} has it)",
                units,
            )
        )
        execute("DELETE FROM w_paper WHERE pkey = %s", [pkey])


def _upsert() -> Counts:
    title_group, groups = _groups()
    created = _insert_new(groups)
    index_targets("w_paper")
    # ``applied``: the archive's description is newer (authors, tasks, methods are rewritten);
    # ``doc_applied``: a paper document is newer (the lists it owns are rewritten).
    for flag, stamp in (("applied", schema.PAPER_DOCUMENT), ("doc_applied", schema.SYNTOLOGY)):
        execute(
            f"UPDATE w_paper AS w SET {flag} = 1 FROM catalogue_paper t "
            f"WHERE t.id = w.target_id AND w.created = 0 AND w.{stamp} > t.{stamp}"
        )
    # A slug-identified paper that now arrives with an arXiv id takes it; one first known by its
    # landing page keeps that as well (a later row naming it so finds it without its title).
    execute(
        "UPDATE catalogue_paper AS t SET arxiv_id = w.arxiv_id FROM w_paper w "
        "WHERE t.id = w.target_id AND t.arxiv_id IS NULL AND w.arxiv_id IS NOT NULL"
    )
    execute(
        "UPDATE catalogue_paper AS t SET landing_key = w.landing FROM w_paper w "
        "WHERE t.id = w.target_id AND t.landing_key IS NULL AND w.landing IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM catalogue_paper o WHERE o.landing_key = w.landing)"
    )
    for group in (title_group, *groups.values()):
        group.apply("w_paper", "catalogue_paper")
    # The address a row gives for its paper, where no description of it states one.
    execute(
        "UPDATE catalogue_paper AS t SET url_abs = w.url_named FROM w_paper w "
        "WHERE t.id = w.target_id AND t.url_abs = '' AND w.url_named IS NOT NULL"
    )
    if created:
        analyze("catalogue_paper")
    matched = scalar("SELECT COUNT(*) FROM w_paper WHERE created = 0")
    updated = scalar("SELECT COUNT(*) FROM w_paper WHERE changed = 1")
    return Counts(created=created, updated=updated, unchanged=matched - updated)


def _groups() -> tuple[Group, dict[str, Group]]:
    """The paper's stamp groups: its title's, and the others by their stamp column."""
    title_group = Group(
        schema.STAMP,
        stated(
            schema.PAPER,
            schema.STAMP,
            # A curator's correction stands; the snapshot's value is kept beside it.
            title="CASE WHEN t.title_corrected THEN t.title ELSE COALESCE(w.title, '') END",
            title_upstream="COALESCE(w.title, '')",
            document_id=doc_id("w.doc_url"),
        ),
        also_set=BUMP_VERSION,
    )
    groups = {
        schema.PAPER_DOCUMENT: Group(
            schema.PAPER_DOCUMENT,
            stated(
                schema.PAPER,
                schema.PAPER_DOCUMENT,
                paper_document_id=doc_id(f"w.{schema.PAPER_DOCUMENT}_doc_url"),
            ),
            also_set=BUMP_VERSION,
        ),
        schema.ARCHIVE_RECORD: Group(schema.ARCHIVE_RECORD, stated(schema.PAPER, schema.ARCHIVE_RECORD)),
        schema.SYNTOLOGY: Group(
            schema.SYNTOLOGY, stated(schema.PAPER, schema.SYNTOLOGY), also_set=BUMP_VERSION
        ),
    }
    return title_group, groups


def _insert_new(groups: dict[str, Group]) -> int:
    """The papers no catalogue row is yet: inserted from their winners; returns how many."""
    inserted = {
        "id": "w.target_id",
        "arxiv_id": "w.arxiv_id",
        "landing_key": "w.landing",
        "slug": "w.best_slug",
        "stamp": "w.stamp",
        "title": "COALESCE(w.title, '')",
        "title_upstream": "COALESCE(w.title, '')",
        "title_key": "COALESCE(w.title_key, '')",
        "title_source": "w.title_source",
        "date": "w.date",
        "month": "w.month",
        "document_id": doc_id("w.doc_url"),
    }
    for group in groups.values():
        inserted[group.stamp] = f"COALESCE(w.{group.stamp}, '')"
        inserted.update(group.columns)
    inserted["created_at"] = "CURRENT_TIMESTAMP"
    inserted["n_code_links"] = "COALESCE(c.n, 0)"
    code_links = _new_papers_code_links()
    with plain_indexes_built_after("catalogue_paper", bulk=is_empty("catalogue_paper")):
        return execute(
            f"INSERT INTO catalogue_paper ({', '.join(inserted)}) "
            f"SELECT {', '.join(inserted.values())} FROM w_paper w "
            f"LEFT JOIN {code_links} c ON c.pkey = w.pkey WHERE w.created = 1"
        )


def _new_papers_code_links() -> str:
    """A table of the code links each new paper will hold (``pkey``, ``n``), as ``rows.repo_links``
    merges them: one per repository and sub-path its counted rows name; returns its name.

    ``counters.refresh`` recounts every paper after the load and stays the one definition; a new
    paper inserted with its count already right is a row that recount need not rewrite. At
    archive size those rewrites (hundreds of thousands of papers, each updating every index of
    the paper table) cost PostgreSQL more than the rest of the count.
    """
    return materialize(
        "r_new_paper_links",
        "SELECT pkey, COUNT(*) AS n FROM (SELECT DISTINCT w.pkey, r.id, s.sub_path FROM stg_code_link s "
        f"JOIN w_paper w ON w.pkey = s.pkey AND ({FROM_DUMP} OR {FROM_NEWEST_DOCUMENT}) "
        "JOIN catalogue_repo r ON r.key = s.repo_key WHERE w.created = 1) x GROUP BY pkey",
        "pkey",
    )


def _slugs():
    """Record every slug; the current one is a title slug over ``arxiv-…``, then the newest."""
    # A slug is derived only if every row giving it made it (a source may state ``arxiv-…``).
    derived = (
        f"CASE WHEN MIN(CASE WHEN s.slug_derived THEN 1 ELSE 0 END) = 1 THEN {true()} ELSE {false()} END"
    )
    execute(
        "INSERT INTO catalogue_paperslug (slug, paper_id, last_stamp, derived) "
        f"SELECT s.slug, w.target_id, MAX(s.stamp), {derived} "
        "FROM stg_paper s JOIN w_paper w ON w.pkey = s.pkey "
        "WHERE NOT EXISTS (SELECT 1 FROM catalogue_paperslug ps WHERE ps.slug = s.slug) "
        "GROUP BY s.slug, w.target_id"
    )
    execute(
        f"UPDATE catalogue_paperslug SET derived = {false()} WHERE derived = {true()} AND slug IN "
        "(SELECT slug FROM stg_paper WHERE NOT slug_derived)"
    )
    execute(
        "UPDATE catalogue_paperslug AS ps SET last_stamp = m.stamp FROM "
        "(SELECT slug, MAX(stamp) AS stamp FROM stg_paper GROUP BY slug) m "
        "WHERE ps.slug = m.slug AND m.stamp > ps.last_stamp"
    )
    # Each written paper's best slug, ranked for all at once (one subquery per paper cost 6.6 s of
    # a 576,000-paper PostgreSQL load, though on a first load it changes next to nothing).
    best = materialize(
        "r_best_slug",
        "SELECT paper_id, slug FROM (SELECT ps.paper_id, ps.slug, ROW_NUMBER() OVER (PARTITION BY "
        f"ps.paper_id ORDER BY CASE WHEN ps.derived = {true()} THEN 1 ELSE 0 END, ps.last_stamp DESC, "
        "ps.slug) AS rn FROM catalogue_paperslug ps WHERE ps.paper_id IN (SELECT target_id FROM w_paper)) x "
        "WHERE rn = 1",
        "paper_id",
    )
    # Two steps, so that two papers trading slugs never collide on the unique index.
    execute(
        f"UPDATE catalogue_paper AS t SET slug = 'moving:' || CAST(t.id AS TEXT) FROM {best} b "
        "WHERE b.paper_id = t.id AND t.slug <> b.slug"
    )
    execute(
        f"UPDATE catalogue_paper AS t SET slug = b.slug FROM {best} b "
        "WHERE b.paper_id = t.id AND t.slug LIKE 'moving:%'"
    )


def relations():
    """A paper's tasks and methods are its archive description's; what it introduced, its paper document's."""
    # Each staged list is first resolved to its papers on the paper key alone. Joined on key and
    # stamp at once, PostgreSQL multiplied the two selectivities as if independent (a stamp
    # belongs to one paper), planned 46,766 rows as 1, and scanned all 57,101 methods once per
    # row: 93 s of a 500,000-paper load. An analysed table of the pairs gives it the real counts.
    by_description = f"{_DESCRIPTION} AND w.applied = 1"
    by_document = "w.syntology_stamp = s.stamp AND w.doc_applied = 1"
    for kind, ways in (
        ("task", {"by_description": by_description}),
        ("method", {"by_description": by_description, "by_document": by_document}),
        ("dataset", {"by_document": by_document}),
    ):
        flags = "".join(f", CASE WHEN {way} THEN 1 ELSE 0 END AS {name}" for name, way in ways.items())
        materialize(
            f"r_paper_{kind}",
            f"SELECT w.target_id AS paper_id, s.slug{', s.introduced' if kind == 'method' else ''}{flags} "
            f"FROM stg_paper_{kind} s JOIN w_paper w ON w.pkey = s.pkey "
            f"WHERE {' OR '.join(f'({way})' for way in ways.values())}",
        )
    for through, column, flag, insert_sql in (
        (
            "catalogue_paper_tasks",
            "task_id",
            "applied",
            "SELECT DISTINCT r.paper_id, x.id FROM r_paper_task r "
            "JOIN catalogue_task x ON x.slug = r.slug WHERE r.by_description = 1",
        ),
        (
            "catalogue_paper_methods",
            "method_id",
            "applied",
            "SELECT DISTINCT r.paper_id, x.id FROM r_paper_method r "
            "JOIN catalogue_method x ON x.slug = r.slug "
            f"WHERE r.by_description = 1 AND r.introduced = {false()}",
        ),
        (
            "catalogue_paper_methods_introduced",
            "method_id",
            "doc_applied",
            "SELECT DISTINCT r.paper_id, x.id FROM r_paper_method r "
            "JOIN catalogue_method x ON x.slug = r.slug "
            f"WHERE r.by_document = 1 AND r.introduced = {true()}",
        ),
        (
            "catalogue_paper_datasets_introduced",
            "dataset_id",
            "doc_applied",
            "SELECT DISTINCT r.paper_id, x.id FROM r_paper_dataset r "
            "JOIN catalogue_dataset x ON x.slug = r.slug WHERE r.by_document = 1",
        ),
    ):
        execute(f"DELETE FROM {through} WHERE paper_id IN (SELECT target_id FROM w_paper WHERE {flag} = 1)")
        execute(f"INSERT INTO {through} (paper_id, {column}) {insert_sql}")
    for kind in ("task", "method", "dataset"):
        execute(f"DROP TABLE r_paper_{kind}")


def authors() -> Counts:
    applied = "SELECT target_id FROM w_paper WHERE applied = 1"
    before = scalar(f"SELECT COUNT(*) FROM catalogue_author WHERE paper_id IN ({applied})")
    execute(f"DELETE FROM catalogue_author WHERE paper_id IN ({applied})")
    created = execute(
        "INSERT INTO catalogue_author (paper_id, position, name) SELECT w.target_id, s.position, s.name "
        f"FROM stg_author s JOIN w_paper w ON w.pkey = s.pkey AND {_DESCRIPTION} AND w.applied = 1"
    )
    # Authors are replaced as a list; report the net effect, not the rewrite.
    return Counts(created=max(created - before, 0), deleted=max(before - created, 0))


def introduced_in() -> None:
    """The paper a method's or dataset's own record says introduced it (its details own that)."""
    for kind in ("method", "dataset"):
        # one join, then a keyed lookup per row: as a correlated join it took minutes at
        # archive size on PostgreSQL (temporary tables are never vacuumed or well estimated)
        found = materialize(
            f"m_{kind}_introduced",
            f"SELECT m.target_id AS id, p.target_id AS paper_id FROM w_{kind} m "
            f"JOIN w_paper p ON p.pkey = m.paper_pkey WHERE m.applied = 1",
            "id",
        )
        execute(
            f"UPDATE catalogue_{kind} SET introduced_in_id = (SELECT i.paper_id FROM {found} i "
            f"WHERE i.id = catalogue_{kind}.id) "
            f"WHERE id IN (SELECT target_id FROM w_{kind} WHERE applied = 1)"
        )
