"""Set-based merge of the staging tables into the catalogue's tables.

Each table goes through the same steps (:func:`upsert`): pick one winning staged row
per natural key (the newest ``stamp``), find the existing row, insert the missing
ones, and update existing rows only where the winner is not older than what is
stored and something differs. Because the winner is a pure function of the stamps,
any order of the same files (in one run or several) gives the same database, and a
second load of the same snapshot writes nothing.

SQL here is the common ground of PostgreSQL and SQLite ≥ 3.35 (window functions,
``UPDATE … FROM``); the one difference, the null-safe comparison, is ``distinct()``.
"""

from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection

from catalogue import counters, search
from catalogue.loader import schema
from catalogue.loader.documents import SnapshotError


def distinct(a: str, b: str) -> str:
    op = "IS DISTINCT FROM" if connection.vendor == "postgresql" else "IS NOT"
    return f"{a} {op} {b}"


def execute(sql: str, params=None) -> int:
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


def scalar(sql: str, params=None):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        row = cur.fetchone()
        return row[0] if row else None


def rows(sql: str, params=None):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchall()


def temp_table(name: str, select_sql: str):
    """A temporary table of winners with room for the target row's id and flags."""
    execute(f"DROP TABLE IF EXISTS {name}")
    execute(
        f"CREATE TEMPORARY TABLE {name} AS SELECT q.*, CAST(NULL AS BIGINT) AS target_id, "
        f"0 AS created, 0 AS changed, 0 AS applied FROM ({select_sql}) q"
    )


def materialize(name: str, select_sql: str, index: str | None = None) -> str:
    """A temporary table of ``select_sql`` (indexed on ``index``, analysed); returns its name.

    Joining derived tables lets SQLite fall back to nested scans (quadratic: minutes at
    2,000 papers) and leaves PostgreSQL guessing their sizes; a real, analysed table does not.
    """
    execute(f"DROP TABLE IF EXISTS {name}")
    execute(f"CREATE TEMPORARY TABLE {name} AS {select_sql}")
    if index:
        execute(f"CREATE INDEX {name}_key ON {name} ({index})")
    execute(f"ANALYZE {name}")
    return name


def index_targets(w: str) -> None:
    """Index a winners table by target id, and let the planner know its size.

    Without this SQLite may drive an ``UPDATE … FROM`` from the target table and scan
    the winners table once per row: quadratic, minutes at 20,000 papers.
    """
    execute(f"CREATE INDEX IF NOT EXISTS {w}_target ON {w} (target_id)")
    execute(f"ANALYZE {w}")


def winners(source: str, partition: str, columns: str, order: str = "stamp DESC", where: str = "") -> str:
    """SELECT the one row per ``partition`` that ranks first by ``order`` (ties: staging order).

    The ranking reads only the narrow columns it needs and picks rows by their staging
    ``seq``: sorting whole rows (abstracts and all) was the costliest step of a merge.
    """
    condition = f"WHERE {where}" if where else ""
    ranked = (
        f"SELECT seq FROM (SELECT x.seq, ROW_NUMBER() OVER (PARTITION BY {partition} "
        f"ORDER BY {order}, x.seq) AS rn FROM {source} x {condition}) r WHERE rn = 1"
    )
    return f"SELECT {columns} FROM {source} s WHERE s.seq IN ({ranked})"


@dataclass
class Group:
    """Columns that one kind of document states, ordered by their own stamp column."""

    stamp: str  # stamp column, same name in the winners table and the target table
    # target column -> SQL over the winners row ``w`` (and, for updates, the stored row ``t``)
    columns: dict[str, str]
    insert_columns: dict[str, str] = field(default_factory=dict)  # where an insert differs (no ``t``)
    also_set: dict[str, str] = field(default_factory=dict)  # written on update, never compared

    def apply(self, w: str, table: str) -> None:
        """Write this group's columns where the winner is not older than the stored row.

        Rows whose values differ are marked ``changed``; a newer stamp with equal values
        still moves the stored stamp (and provenance) forward, so later comparisons hold.
        """
        newer = f"w.{self.stamp} IS NOT NULL AND w.{self.stamp} >= t.{self.stamp}"
        differs = " OR ".join(distinct(f"t.{col}", expr) for col, expr in self.columns.items())
        execute(
            f"UPDATE {w} AS w SET changed = 1 FROM {table} t "
            f"WHERE t.id = w.target_id AND w.created = 0 AND {newer} AND ({differs})"
        )
        sets = {**self.columns, **self.also_set, self.stamp: f"w.{self.stamp}"}
        execute(
            f"UPDATE {table} AS t SET {', '.join(f'{c} = {e}' for c, e in sets.items())} FROM {w} w "
            f"WHERE t.id = w.target_id AND w.created = 0 "
            f"AND {newer} AND ({differs} OR w.{self.stamp} > t.{self.stamp})"
        )


@dataclass
class Counts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0

    def as_dict(self):
        return {k: v for k, v in self.__dict__.items() if v or k != "deleted"}


@dataclass
class Report:
    counts: dict[str, Counts] = field(default_factory=dict)

    def add(self, label: str, counts: Counts):
        total = self.counts.setdefault(label, Counts())
        for k in ("created", "updated", "unchanged", "deleted"):
            setattr(total, k, getattr(total, k) + getattr(counts, k))


def upsert(
    w: str, table: str, keys: dict[str, str], groups: list[Group], extra_insert: dict | None = None
) -> Counts:
    """Merge winners table ``w`` into ``table``; ``keys`` maps target key columns to ``w`` columns."""
    key_match = " AND ".join(f"t.{col} = {w}.{expr}" for col, expr in keys.items())
    execute(f"UPDATE {w} SET target_id = (SELECT t.id FROM {table} t WHERE {key_match})")
    execute(f"UPDATE {w} SET created = 1 WHERE target_id IS NULL")

    insert_cols = {col: f"w.{expr}" for col, expr in keys.items()}
    for group in groups:
        insert_cols[group.stamp] = f"COALESCE(w.{group.stamp}, '')"
        insert_cols.update(group.columns)
        insert_cols.update(group.insert_columns)
    insert_cols.update(extra_insert or {})
    created = execute(
        f"INSERT INTO {table} ({', '.join(insert_cols)}) "
        f"SELECT {', '.join(insert_cols.values())} FROM {w} w WHERE w.created = 1"
    )
    execute(f"UPDATE {w} SET target_id = (SELECT t.id FROM {table} t WHERE {key_match}) WHERE created = 1")
    index_targets(w)

    for group in groups:
        group.apply(w, table)
    matched = scalar(f"SELECT COUNT(*) FROM {w} WHERE created = 0")
    updated = scalar(f"SELECT COUNT(*) FROM {w} WHERE changed = 1")
    return Counts(created=created, updated=updated, unchanged=matched - updated)


def stated(table: schema.Table, group: str, **special: str) -> dict[str, str]:
    """The SET list of one stamp group, from the schema: model field -> SQL over the winner ``w``.

    A column the model keeps as non-null text is ``''`` where no document stated it; every
    other column is the winner's value as staged. ``special`` gives the few columns merged
    otherwise (a curator's correction, a document's id), in the group's order.
    """
    model = apps.get_model("catalogue", table.model)
    columns = {}
    for column in table.group(group):
        target = model._meta.get_field(column.field)
        blank_text = not target.null and target.get_internal_type() in ("CharField", "TextField", "URLField")
        columns[column.field] = f"COALESCE(w.{column.name}, '')" if blank_text else f"w.{column.name}"
    for name, sql in special.items():
        columns[name] = sql
    return columns


def doc_id(doc_url_col: str) -> str:
    return f"(SELECT d.id FROM catalogue_sourcedocument d WHERE d.url = {doc_url_col})"


# --- the tables, in dependency order ------------------------------------------------------


def merge_all(load_run_id: int | None) -> Report:
    if connection.vendor == "postgresql":
        # Sorts and hashes of a whole snapshot's rows; the default 4 MB sends them to disk.
        execute("SET LOCAL work_mem = '64MB'")
    report = Report()
    report.add("SourceDocument", _documents(load_run_id))
    report.add("Repo", _repos())
    report.add("Task", _named("task", "catalogue_task", full_name=False))
    report.add("Method", _named("method", "catalogue_method", full_name=True))
    report.add("Dataset", _insert_missing("catalogue_dataset", "name", "stg_dataset", "name"))
    report.add("CodeBody", _insert_missing("catalogue_codebody", "sha256_prefix", "stg_body", "sha"))
    report.add("CodeEntry", _entries())
    report.add("Leaderboard", _leaderboards())
    report.add("Paper", _papers())
    _paper_relations()
    report.add("Author", _authors())
    report.add("CodeLink", _paper_owned_links("code_link"))
    report.add("HarvestedRepo", _paper_owned_links("harvested_repo"))
    report.add("Result", _results())
    report.add("Sample", _samples())
    _reindex_search()
    places = report.counts["Sample"]
    if places.created or places.updated or places.deleted or report.counts["Paper"].created:
        counters.refresh()
    return report


def _reindex_search():
    """Rewrite the search rows of every paper, entry and repository this load touched."""
    touched = "SELECT target_id FROM {w} WHERE created = 1 OR changed = 1 OR applied = 1"
    for kind, w in (("paper", "w_paper"), ("entry", "w_entry"), ("repo", "w_repo")):
        search.reindex(kind, ids_sql=touched.format(w=w))


def _documents(load_run_id) -> Counts:
    temp_table("w_document", winners("stg_document", "url", "*"))
    return upsert(
        "w_document",
        "catalogue_sourcedocument",
        {"url": "url"},
        [Group("stamp", stated(schema.TABLES["document"], schema.STAMP))],
        extra_insert={"last_load_id": str(int(load_run_id)) if load_run_id else "NULL"},
    )


def _repos() -> Counts:
    temp_table("w_repo", winners("stg_repo", "key", "*"))
    return upsert(
        "w_repo",
        "catalogue_repo",
        {"key": "key"},
        [Group("stamp", stated(schema.TABLES["repo"], schema.STAMP, document_id="NULL"))],
    )


def _named(stage: str, table: str, full_name: bool) -> Counts:
    # One document can name a method twice (in ``methods`` and ``methods_introduced``);
    # the mention that states a full name wins over the one that does not.
    order = (
        "stamp DESC, CASE WHEN full_name IS NULL THEN 1 ELSE 0 END, name" if full_name else "stamp DESC, name"
    )
    temp_table(f"w_{stage}", winners(f"stg_{stage}", "slug", "*", order=order))
    columns = stated(schema.TABLES[stage], schema.STAMP, document_id="NULL")
    return upsert(f"w_{stage}", table, {"slug": "slug"}, [Group("stamp", columns)])


def _insert_missing(table: str, column: str, stage: str, stage_column: str) -> Counts:
    staged = f"(SELECT DISTINCT {stage_column} AS v FROM {stage}) s"
    exists = f"EXISTS (SELECT 1 FROM {table} t WHERE t.{column} = s.v)"
    unchanged = scalar(f"SELECT COUNT(*) FROM {staged} WHERE {exists}")
    created = execute(f"INSERT INTO {table} ({column}) SELECT s.v FROM {staged} WHERE NOT {exists}")
    return Counts(created=created, unchanged=unchanged)


def _entries() -> Counts:
    temp_table("w_entry", winners("stg_entry", "name", "*", order="stamp DESC, slug"))
    # A claim is stated by the entry's own document only; keep the newest one stated.
    execute(
        "UPDATE w_entry SET claim = (SELECT s.claim FROM stg_entry s WHERE s.name = w_entry.name "
        "AND s.claim IS NOT NULL ORDER BY s.stamp DESC LIMIT 1) WHERE claim IS NULL"
    )
    clash = rows("SELECT slug, MIN(name), MAX(name) FROM w_entry GROUP BY slug HAVING COUNT(*) > 1") or rows(
        "SELECT w.slug, w.name, e.name FROM w_entry w JOIN catalogue_codeentry e ON e.slug = w.slug "
        "AND e.name <> w.name"
    )
    if clash:
        slug, a, b = clash[0]
        raise SnapshotError(
            "(snapshot)", "entry", f"code entries {a!r} and {b!r} both claim the address /code/{slug}"
        )
    return upsert(
        "w_entry",
        "catalogue_codeentry",
        {"name": "name"},
        [Group("stamp", stated(schema.TABLES["entry"], schema.STAMP, document_id=doc_id("w.doc_url")))],
    )


def _leaderboards() -> Counts:
    source = materialize(
        "r_leaderboard",
        "SELECT s.*, t.id AS task_id, d.id AS dataset_id FROM stg_leaderboard s "
        "JOIN catalogue_task t ON t.slug = s.task_slug JOIN catalogue_dataset d ON d.name = s.dataset",
        "seq",
    )
    temp_table("w_leaderboard", winners(source, "task_id, dataset_id", "*", order="stamp DESC, slug"))
    clash = rows("SELECT slug FROM w_leaderboard GROUP BY slug HAVING COUNT(*) > 1")
    if clash:
        raise SnapshotError("(snapshot)", "results", f"two task × dataset pairs claim /sota/{clash[0][0]}")
    return upsert(
        "w_leaderboard",
        "catalogue_leaderboard",
        {"task_id": "task_id", "dataset_id": "dataset_id"},
        [Group("stamp", stated(schema.TABLES["leaderboard"], schema.STAMP, document_id="NULL"))],
    )


PAPER_DOC_COLUMNS = [c.name for c in schema.PAPER.group(schema.PAPER_DOCUMENT)]


def _papers() -> Counts:
    clash = rows(
        "SELECT slug, MIN(pkey), MAX(pkey) FROM stg_paper GROUP BY slug HAVING COUNT(DISTINCT pkey) > 1"
    )
    if clash:
        slug, a, b = clash[0]
        raise SnapshotError("(snapshot)", "paper", f"/paper/{slug} is given to two papers ({a} and {b})")
    doc_cols = ", ".join(f"pd.{c}" for c in PAPER_DOC_COLUMNS)
    title_winners = materialize("m_paper_title", winners("stg_paper", "pkey", "*"), "pkey")
    slug_winners = materialize(
        "m_paper_slug", winners("stg_paper", "pkey", "pkey, slug", order=_SLUG_ORDER), "pkey"
    )
    doc_winners = materialize("m_paper_doc", winners("stg_paper", "pkey", "*", where=PAPER_VIEW), "pkey")
    temp_table(
        "w_paper",
        f"SELECT tw.pkey, tw.arxiv_id, tw.title, tw.title_source, tw.date, tw.month, tw.stamp, tw.doc_url, "
        f"sw.slug AS best_slug, pd.stamp AS paper_stamp, pd.doc_url AS paper_doc_url, {doc_cols} "
        f"FROM {title_winners} tw JOIN {slug_winners} sw ON sw.pkey = tw.pkey "
        f"LEFT JOIN {doc_winners} pd ON pd.pkey = tw.pkey",
    )
    # A paper is its arXiv id; one without is its slug (any slug it ever had).
    execute(
        "UPDATE w_paper SET target_id = COALESCE("
        "(SELECT p.id FROM catalogue_paper p WHERE p.arxiv_id = w_paper.arxiv_id), "
        "(SELECT ps.paper_id FROM catalogue_paperslug ps JOIN stg_paper s ON s.slug = ps.slug "
        " JOIN catalogue_paper p ON p.id = ps.paper_id "
        " WHERE s.pkey = w_paper.pkey AND (p.arxiv_id IS NULL OR w_paper.arxiv_id IS NULL) "
        " ORDER BY ps.slug LIMIT 1))"
    )
    clash = rows(
        "SELECT s.slug, p.arxiv_id, w.arxiv_id FROM stg_paper s JOIN w_paper w ON w.pkey = s.pkey "
        "JOIN catalogue_paperslug ps ON ps.slug = s.slug JOIN catalogue_paper p ON p.id = ps.paper_id "
        "WHERE w.target_id IS NULL OR p.id <> w.target_id LIMIT 1"
    )
    if clash:
        slug, old, new = clash[0]
        raise SnapshotError(
            "(snapshot)",
            "paper",
            f"/paper/{slug} already names paper {old or slug}; it cannot also name {new or slug}",
        )
    counts = _upsert_resolved_papers()
    _paper_slugs()
    return counts


PAPER_VIEW = "view = 'paper'"
_SLUG_ORDER = "CASE WHEN slug LIKE 'arxiv-%' THEN 1 ELSE 0 END, stamp DESC, slug"


# Every write by the loader moves a row's version on, so a curator's form from before it is stale.
BUMP_VERSION = {"version": "t.version + 1"}


def _upsert_resolved_papers() -> Counts:
    title_group = Group(
        "stamp",
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
    doc_columns = stated(schema.PAPER, schema.PAPER_DOCUMENT, paper_document_id=doc_id("w.paper_doc_url"))
    doc_group = Group("paper_stamp", doc_columns, also_set=BUMP_VERSION)
    # Rows already resolved by arXiv id or slug: the key lookup in upsert() must not undo that.
    execute("UPDATE w_paper SET created = CASE WHEN target_id IS NULL THEN 1 ELSE 0 END")
    now = "CURRENT_TIMESTAMP"
    created = execute(
        "INSERT INTO catalogue_paper (arxiv_id, slug, stamp, title, title_upstream, title_source, date, "
        f"month, document_id, paper_stamp, {', '.join(doc_columns)}, created_at) "
        "SELECT w.arxiv_id, w.best_slug, w.stamp, COALESCE(w.title, ''), COALESCE(w.title, ''), "
        "w.title_source, w.date, w.month, "
        f"{doc_id('w.doc_url')}, COALESCE(w.paper_stamp, ''), {', '.join(doc_columns.values())}, {now} "
        "FROM w_paper w WHERE w.created = 1"
    )
    execute(
        "UPDATE w_paper SET "
        "target_id = (SELECT p.id FROM catalogue_paper p WHERE p.slug = w_paper.best_slug), "
        "applied = CASE WHEN paper_stamp IS NULL THEN 0 ELSE 1 END WHERE created = 1"
    )
    index_targets("w_paper")
    execute(
        "UPDATE w_paper AS w SET applied = 1 FROM catalogue_paper t "
        "WHERE t.id = w.target_id AND w.created = 0 AND w.paper_stamp > t.paper_stamp"
    )
    # A slug-identified paper that now arrives with an arXiv id takes it.
    execute(
        "UPDATE catalogue_paper AS t SET arxiv_id = w.arxiv_id FROM w_paper w "
        "WHERE t.id = w.target_id AND t.arxiv_id IS NULL AND w.arxiv_id IS NOT NULL"
    )
    for group in (title_group, doc_group):
        group.apply("w_paper", "catalogue_paper")
    matched = scalar("SELECT COUNT(*) FROM w_paper WHERE created = 0")
    updated = scalar("SELECT COUNT(*) FROM w_paper WHERE changed = 1")
    return Counts(created=created, updated=updated, unchanged=matched - updated)


def _paper_slugs():
    """Record every slug; the current one is a title slug over ``arxiv-…``, then the newest."""
    execute(
        "INSERT INTO catalogue_paperslug (slug, paper_id, last_stamp) "
        "SELECT s.slug, w.target_id, MAX(s.stamp) FROM stg_paper s JOIN w_paper w ON w.pkey = s.pkey "
        "WHERE NOT EXISTS (SELECT 1 FROM catalogue_paperslug ps WHERE ps.slug = s.slug) "
        "GROUP BY s.slug, w.target_id"
    )
    execute(
        "UPDATE catalogue_paperslug AS ps SET last_stamp = m.stamp FROM "
        "(SELECT slug, MAX(stamp) AS stamp FROM stg_paper GROUP BY slug) m "
        "WHERE ps.slug = m.slug AND m.stamp > ps.last_stamp"
    )
    best = (
        "(SELECT ps.slug FROM catalogue_paperslug ps WHERE ps.paper_id = t.id ORDER BY "
        "CASE WHEN ps.slug LIKE 'arxiv-%' THEN 1 ELSE 0 END, ps.last_stamp DESC, ps.slug LIMIT 1)"
    )
    # Two steps, so that two papers trading slugs never collide on the unique index.
    changing = f"t.id IN (SELECT target_id FROM w_paper) AND {distinct('t.slug', best)}"
    execute(f"UPDATE catalogue_paper AS t SET slug = 'moving:' || CAST(t.id AS TEXT) WHERE {changing}")
    execute(f"UPDATE catalogue_paper AS t SET slug = {best} WHERE t.slug LIKE 'moving:%'")


def _paper_relations():
    """Tasks, methods and datasets of a paper are its newest paper document's, as a set."""
    applied = "SELECT target_id FROM w_paper WHERE applied = 1"
    winning = "JOIN w_paper w ON w.pkey = s.pkey AND w.paper_stamp = s.stamp AND w.applied = 1"
    for through, column, insert_sql in (
        (
            "catalogue_paper_tasks",
            "task_id",
            f"SELECT DISTINCT w.target_id, x.id FROM stg_paper_task s {winning} "
            "JOIN catalogue_task x ON x.slug = s.slug",
        ),
        (
            "catalogue_paper_methods",
            "method_id",
            f"SELECT DISTINCT w.target_id, x.id FROM stg_paper_method s {winning} "
            "JOIN catalogue_method x ON x.slug = s.slug WHERE s.introduced = " + _false(),
        ),
        (
            "catalogue_paper_methods_introduced",
            "method_id",
            f"SELECT DISTINCT w.target_id, x.id FROM stg_paper_method s {winning} "
            "JOIN catalogue_method x ON x.slug = s.slug WHERE s.introduced = " + _true(),
        ),
        (
            "catalogue_paper_datasets_introduced",
            "dataset_id",
            f"SELECT DISTINCT w.target_id, x.id FROM stg_paper_dataset s {winning} "
            "JOIN catalogue_dataset x ON x.name = s.name",
        ),
    ):
        execute(f"DELETE FROM {through} WHERE paper_id IN ({applied})")
        execute(f"INSERT INTO {through} (paper_id, {column}) {insert_sql}")


def _true():
    return "TRUE" if connection.vendor == "postgresql" else "1"


def _false():
    return "FALSE" if connection.vendor == "postgresql" else "0"


def _authors() -> Counts:
    applied = "SELECT target_id FROM w_paper WHERE applied = 1"
    before = scalar(f"SELECT COUNT(*) FROM catalogue_author WHERE paper_id IN ({applied})")
    execute(f"DELETE FROM catalogue_author WHERE paper_id IN ({applied})")
    created = execute(
        "INSERT INTO catalogue_author (paper_id, position, name) SELECT w.target_id, s.position, s.name "
        "FROM stg_author s JOIN w_paper w ON w.pkey = s.pkey AND w.paper_stamp = s.stamp AND w.applied = 1"
    )
    # Authors are replaced as a list; report the net effect, not the rewrite.
    return Counts(created=max(created - before, 0), deleted=max(before - created, 0))


def _paper_owned_links(stage: str) -> Counts:
    """Code links / harvested repositories: the newest paper document's list, for that paper."""
    table = f"catalogue_{stage.replace('_', '')}"
    source = materialize(
        f"r_{stage}",
        f"SELECT s.*, w.target_id AS paper_id, r.id AS repo_id FROM stg_{stage} s "
        "JOIN w_paper w ON w.pkey = s.pkey AND w.paper_stamp = s.stamp "
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


def _delete_stale(table: str, w: str) -> int:
    """Rows of a newly applied paper document's paper that the document no longer lists."""
    return execute(
        f"DELETE FROM {table} "
        "WHERE paper_id IN (SELECT target_id FROM w_paper WHERE applied = 1 AND created = 0) "
        f"AND id NOT IN (SELECT target_id FROM {w})"
    )


def _results() -> Counts:
    source = materialize(
        "r_result",
        "SELECT s.*, w.target_id AS paper_id, lb.id AS leaderboard_id FROM stg_result s "
        "JOIN w_paper w ON w.pkey = s.pkey AND w.paper_stamp = s.stamp "
        "JOIN catalogue_task t ON t.slug = s.task_slug JOIN catalogue_dataset d ON d.name = s.dataset "
        "JOIN catalogue_leaderboard lb ON lb.task_id = t.id AND lb.dataset_id = d.id",
        "seq",
    )
    temp_table("w_result", winners(source, "paper_id, leaderboard_id, model", "*"))
    counts = upsert(
        "w_result",
        "catalogue_result",
        {"paper_id": "paper_id", "leaderboard_id": "leaderboard_id", "model": "model"},
        [Group("stamp", stated(schema.RESULT, schema.STAMP, document_id=doc_id("w.doc_url")))],
    )
    counts.deleted = _delete_stale("catalogue_result", "w_result")
    return counts


SAMPLE_COMMON = [c.name for c in schema.SAMPLE.group(schema.STAMP)]


def _samples() -> Counts:
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
        "m_sample_view", winners(resolved, partition, "*", where=PAPER_VIEW), partition
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
            Group("paper_view_stamp", stated(schema.SAMPLE, schema.PAPER_VIEW)),
        ],
    )
