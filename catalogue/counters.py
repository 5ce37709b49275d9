"""Stored counts that lists sort by: places, papers and ran samples per code entry, samples and
code links per paper, papers and leaderboards per task, results per leaderboard.

``/code/`` lists entries by how many places they have and ``/papers/?sort=samples`` lists
papers by how many code bodies they hold. Counting those per request means grouping
every place of the catalogue before the first row can be shown (420,000 at archive size),
so the counts are columns, indexed with the id for keyset pages, and kept true by the two
things that change places: ``load_snapshot`` (``refresh()`` after its merge, set-wise)
and a curator's status correction (``refresh(entry_ids=[...])``: one entry's places). A task's
papers and leaderboards, a leaderboard's results and the set of author names change only with
a load, so only the whole refresh recounts them.

The figures shown beside each row still come from ``catalogue.figures`` (and ``catalogue.memo``);
these columns only order the lists. Their SQL is written by ``figures.sql`` from the same
definitions, and a test checks they agree with the figures. ``manage.py recount`` (:func:`recount`)
recomputes every one of them from the rows, after a change to a figure's definition.
"""

from django.db import connection

from catalogue import figures

# A code entry's stored columns -> the figure (catalogue.figures) each counts; a task's columns.
ENTRY_COUNTS = {"n_places": "n_places", "n_papers": "n_papers", "n_samples_ran": "n_samples_ran"}
TASK_COUNTS = ("n_papers", "n_leaderboards")
# A task's columns -> the table whose rows each counts, and their key to the task.
TASK_ROWS = {
    "n_papers": ("catalogue_paper_tasks", "task_id"),
    "n_leaderboards": ("catalogue_leaderboard", "task_id"),
}


def refresh(
    entry_ids: list[int] | None = None, paper_ids: list[int] | None = None, *, loaded: bool | None = None
) -> int:
    """Recount entries and papers (all of them, or those given), and what only a load changes
    (tasks' counts, the author names; by default on a whole refresh); returns the rows changed."""
    changed = 0
    with connection.cursor() as cursor:
        if entry_ids is None or entry_ids:
            changed += recount_entries(cursor, tuple(ENTRY_COUNTS), entry_ids)
        if paper_ids is None or paper_ids:
            changed += recount_papers(cursor, paper_ids)
        if loaded or (loaded is None and entry_ids is None and paper_ids is None):
            changed += recount_tasks(cursor)
            changed += recount_leaderboards(cursor)
            changed += recount_paper_code_links(cursor)
            changed += collect_author_names(cursor)
            slug_author_names(cursor)
    return changed


def recount() -> dict[str, int]:
    """Every stored count recomputed from the rows, one column at a time (``manage.py recount``):
    ``"Model.column"`` (and ``"AuthorName"``: names added or dropped) -> the rows it changed.
    A second call right after changes nothing."""
    changed = {}
    with connection.cursor() as cursor:
        for column in ENTRY_COUNTS:
            changed[f"CodeEntry.{column}"] = recount_entries(cursor, (column,))
        changed["Paper.n_samples"] = recount_papers(cursor)
        changed["Paper.n_code_links"] = recount_paper_code_links(cursor)
        for column in TASK_COUNTS:
            changed[f"Task.{column}"] = recount_tasks(cursor, (column,))
        changed["Leaderboard.n_results"] = recount_leaderboards(cursor)
        changed["AuthorName"] = collect_author_names(cursor)
    return changed


def recount_entries(cursor, columns: tuple[str, ...], entry_ids: list[int] | None = None) -> int:
    """Places, papers and ran samples per code entry (the ``columns`` of them given); returns the
    entries changed."""
    only, params = _only("e.id", entry_ids)
    counted = ",\n".join(f"{figures.sql(ENTRY_COUNTS[column])} AS {column}" for column in columns)
    cursor.execute(
        f"""
        UPDATE catalogue_codeentry SET {", ".join(f"{column} = c.{column}" for column in columns)}
        FROM (
            SELECT e.id, {counted}
            FROM catalogue_codeentry e LEFT JOIN catalogue_sample s ON s.entry_id = e.id
            WHERE {only}
            GROUP BY e.id
        ) AS c
        WHERE catalogue_codeentry.id = c.id
          AND ({" OR ".join(f"catalogue_codeentry.{column} <> c.{column}" for column in columns)})
        """,
        params,
    )
    return cursor.rowcount


def recount_papers(cursor, paper_ids: list[int] | None = None) -> int:
    """Code bodies per paper; returns the papers changed."""
    only, params = _only("p.id", paper_ids)
    # Papers without places keep their 0: only papers that have or had places are visited.
    cursor.execute(
        f"""
        UPDATE catalogue_paper SET n_samples = c.n_samples
        FROM (
            SELECT p.id, {figures.sql("n_samples")} AS n_samples
            FROM catalogue_paper p LEFT JOIN catalogue_sample s ON s.paper_id = p.id
            WHERE {only} AND (p.n_samples <> 0 OR s.id IS NOT NULL)
            GROUP BY p.id
        ) AS c
        WHERE catalogue_paper.id = c.id AND catalogue_paper.n_samples <> c.n_samples
        """,
        params,
    )
    return cursor.rowcount


def recount_tasks(cursor, columns: tuple[str, ...] = TASK_COUNTS) -> int:
    """Papers and leaderboards per task (the ``columns`` of them given): one grouped pass over each
    table, not a count per task."""
    return _recount_rows(cursor, "catalogue_task", {column: TASK_ROWS[column] for column in columns})


def recount_leaderboards(cursor) -> int:
    """Result rows per leaderboard: one grouped pass over the results."""
    return _recount_rows(
        cursor, "catalogue_leaderboard", {"n_results": ("catalogue_result", "leaderboard_id")}
    )


def recount_paper_code_links(cursor) -> int:
    """Code links per paper (only a load changes them): one grouped pass over the links, and the
    papers that had some and have none now set back to 0."""
    counted = {"n_code_links": ("catalogue_codelink", "paper_id")}
    return _recount_rows(cursor, "catalogue_paper", counted, every_row=False)


def _recount_rows(cursor, table: str, counted: dict[str, tuple[str, str]], *, every_row: bool = True) -> int:
    """Each of ``table``'s columns in ``counted`` (column -> the table whose rows it counts and
    their key to ``table``) set to its count where it differs, with one grouped pass over each
    counted table; returns the rows changed. Not ``every_row``: only the rows with something to
    count or a count to clear are visited (the others keep their 0)."""
    joins = "\n".join(
        f"LEFT JOIN (SELECT {key}, COUNT(*) AS n FROM {rows} GROUP BY {key}) r{i} ON r{i}.{key} = t.id"
        for i, (rows, key) in enumerate(counted.values())
    )
    counts = ", ".join(f"COALESCE(r{i}.n, 0) AS {column}" for i, column in enumerate(counted))
    visited = " OR ".join(f"t.{column} <> 0 OR r{i}.n IS NOT NULL" for i, column in enumerate(counted))
    cursor.execute(
        f"""
        UPDATE {table} SET {", ".join(f"{column} = c.{column}" for column in counted)}
        FROM (
            SELECT t.id, {counts}
            FROM {table} t
            {joins}
            {"" if every_row else f"WHERE {visited}"}
        ) AS c
        WHERE {table}.id = c.id
          AND ({" OR ".join(f"{table}.{column} <> c.{column}" for column in counted)})
        """
    )
    return cursor.rowcount


def _only(column: str, ids: list[int] | None) -> tuple[str, list]:
    if ids is None:
        return "1 = 1", []
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)


def collect_author_names(cursor) -> int:
    """``AuthorName``: every name an author list gives, once. The API's author list and its search
    read this table (a million names at archive size) instead of DISTINCT over 2.6 million author
    places per request."""
    cursor.execute(
        "DELETE FROM catalogue_authorname WHERE NOT EXISTS"
        " (SELECT 1 FROM catalogue_author a WHERE a.name = catalogue_authorname.name)"
    )
    gone = cursor.rowcount
    cursor.execute(
        "INSERT INTO catalogue_authorname (name)"
        " SELECT DISTINCT a.name FROM catalogue_author a WHERE a.name <> '' AND NOT EXISTS"
        " (SELECT 1 FROM catalogue_authorname n WHERE n.name = a.name)"
    )
    return gone + cursor.rowcount


def slug_author_names(cursor, batch: int = 5000) -> int:
    """``AuthorName.slug`` of every name that has none yet (``catalogue.authors.slug``: Django's
    slugify, which SQL cannot do, so computed here; once per name, not per load)."""
    from catalogue.authors import slug

    done = 0
    while True:
        cursor.execute(
            "SELECT id, name FROM catalogue_authorname WHERE slug IS NULL ORDER BY id LIMIT %s", [batch]
        )
        rows = cursor.fetchall()
        if not rows:
            return done
        cursor.executemany(
            "UPDATE catalogue_authorname SET slug = %s WHERE id = %s", [(slug(name), pk) for pk, name in rows]
        )
        done += len(rows)
