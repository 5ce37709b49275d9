"""The recounts migrations 0006, 0016, 0017 and 0021 run, frozen as they stood when written.

A migration must mean tomorrow what it meant the day it was applied, so these do not call
``catalogue.counters`` (whose SQL follows ``catalogue.figures`` and may change with it): each
statement below is that code's SQL of the day, written out, statuses included. The migration
loader skips modules whose name starts with ``_``, so this is no migration itself.
"""

# catalogue.models.Status.ran_values() when 0006 was written: every status but 'unverified'.
RAN_STATUSES = ("ran_honours", "ran_violates", "ran_draft_wrong", "ran_fixture", "ran")
_RAN = " + ".join(
    f"COUNT(DISTINCT CASE WHEN s.status = '{status}' THEN s.body_id END)" for status in RAN_STATUSES
)


def count_entries_and_papers(cursor):
    """0006: places, papers and ran samples per code entry; code bodies per paper."""
    cursor.execute(
        f"""
        UPDATE catalogue_codeentry SET n_places = c.n_places, n_papers = c.n_papers,
               n_samples_ran = c.n_ran
        FROM (
            SELECT e.id,
                   COUNT(s.id) AS n_places,
                   COUNT(DISTINCT s.paper_id) AS n_papers,
                   {_RAN} AS n_ran
            FROM catalogue_codeentry e LEFT JOIN catalogue_sample s ON s.entry_id = e.id
            GROUP BY e.id
        ) AS c
        WHERE catalogue_codeentry.id = c.id
          AND (catalogue_codeentry.n_places <> c.n_places
               OR catalogue_codeentry.n_papers <> c.n_papers
               OR catalogue_codeentry.n_samples_ran <> c.n_ran)
        """
    )
    cursor.execute(
        """
        UPDATE catalogue_paper SET n_samples = c.n_samples
        FROM (
            SELECT p.id, COUNT(DISTINCT s.body_id) AS n_samples
            FROM catalogue_paper p LEFT JOIN catalogue_sample s ON s.paper_id = p.id
            WHERE p.n_samples <> 0 OR s.id IS NOT NULL
            GROUP BY p.id
        ) AS c
        WHERE catalogue_paper.id = c.id AND catalogue_paper.n_samples <> c.n_samples
        """
    )


def count_tasks(cursor):
    """0016: papers and leaderboards per task."""
    cursor.execute(
        """
        UPDATE catalogue_task SET n_papers = c.n_papers, n_leaderboards = c.n_leaderboards
        FROM (
            SELECT t.id, COALESCE(p.n, 0) AS n_papers, COALESCE(b.n, 0) AS n_leaderboards
            FROM catalogue_task t
            LEFT JOIN (SELECT task_id, COUNT(*) AS n FROM catalogue_paper_tasks GROUP BY task_id) p
                   ON p.task_id = t.id
            LEFT JOIN (SELECT task_id, COUNT(*) AS n FROM catalogue_leaderboard GROUP BY task_id) b
                   ON b.task_id = t.id
        ) AS c
        WHERE catalogue_task.id = c.id
          AND (catalogue_task.n_papers <> c.n_papers OR catalogue_task.n_leaderboards <> c.n_leaderboards)
        """
    )


def collect_author_names(cursor):
    """0017: every name an author list gives, once."""
    cursor.execute(
        "DELETE FROM catalogue_authorname WHERE NOT EXISTS"
        " (SELECT 1 FROM catalogue_author a WHERE a.name = catalogue_authorname.name)"
    )
    cursor.execute(
        "INSERT INTO catalogue_authorname (name)"
        " SELECT DISTINCT a.name FROM catalogue_author a WHERE a.name <> '' AND NOT EXISTS"
        " (SELECT 1 FROM catalogue_authorname n WHERE n.name = a.name)"
    )


def count_leaderboard_results(cursor):
    """0021: result rows per leaderboard."""
    cursor.execute(
        """
        UPDATE catalogue_leaderboard SET n_results = c.n_results
        FROM (
            SELECT b.id, COALESCE(r.n, 0) AS n_results
            FROM catalogue_leaderboard b
            LEFT JOIN (SELECT leaderboard_id, COUNT(*) AS n FROM catalogue_result GROUP BY leaderboard_id) r
                   ON r.leaderboard_id = b.id
        ) AS c
        WHERE catalogue_leaderboard.id = c.id AND catalogue_leaderboard.n_results <> c.n_results
        """
    )
