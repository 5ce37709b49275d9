"""What each kind of source gave a load, so that an operator can account for every row.

Per document kind (paper and code-entry documents, and each of the archive's five dumps), read
from the staging tables and the merge's own scratch tables before the transaction ends:

* ``papers``: papers its rows name; of them merged into another record by title
  (``resolve.fold_by_title``);
* ``results``: rows staged, rows that were one with another identical row of their board
  (``collapsed``), and the results it states after the load;
* ``code_links``: links staged, the links it states after the load, and of those the ones
  this load added.

``loader.load_paths`` adds what only reading knows (files, records read, rows skipped) and the
command prints it as a table; the run's record keeps it (``LoadRun.by_source``).
"""

from catalogue.loader.merge.sql import materialize, rows


def by_source() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    kinds = materialize("m_doc_kind", "SELECT url, MIN(kind) AS kind FROM stg_document GROUP BY url", "url")

    def add(sql: str, *names: str) -> None:
        for kind, *values in rows(sql):
            if kind:
                for name, value in zip(names, values, strict=True):
                    out.setdefault(kind, {})[name] = int(value or 0)

    add(
        f"SELECT k.kind, COUNT(DISTINCT s.pkey) FROM stg_paper s JOIN {kinds} k ON k.url = s.doc_url "
        "GROUP BY k.kind",
        "papers_named",
    )
    add(
        f"SELECT k.kind, COUNT(DISTINCT f.pkey) FROM r_title_fold f JOIN r_title_member s ON s.pkey = f.pkey "
        f"JOIN {kinds} k ON k.url = s.doc_url GROUP BY k.kind",
        "papers_merged_by_title",
    )
    add(
        f"SELECT k.kind, COUNT(*), COUNT(*) - COUNT(DISTINCT CAST(r.leaderboard_id AS TEXT) || ':' || "
        "COALESCE(CAST(r.paper_id AS TEXT), '') || ':' || r.row_key) "
        f"FROM r_result r JOIN {kinds} k ON k.url = r.doc_url GROUP BY k.kind",
        "results_staged",
        "results_collapsed",
    )
    add(
        "SELECT d.kind, COUNT(DISTINCT x.result_id) FROM catalogue_resultsource x "
        "JOIN catalogue_sourcedocument d ON d.id = x.document_id "
        "WHERE d.url IN (SELECT url FROM stg_document) GROUP BY d.kind",
        "results_stated",
    )
    add(
        f"SELECT k.kind, COUNT(*) FROM stg_code_link s JOIN {kinds} k ON k.url = s.doc_url GROUP BY k.kind",
        "code_links_staged",
    )
    add(
        "SELECT d.kind, COUNT(DISTINCT x.link_id), "
        "COUNT(DISTINCT CASE WHEN w.created = 1 THEN x.link_id END) "
        "FROM catalogue_codelinksource x JOIN catalogue_sourcedocument d ON d.id = x.document_id "
        "LEFT JOIN w_code_link w ON w.target_id = x.link_id "
        "WHERE d.url IN (SELECT url FROM stg_document) GROUP BY d.kind",
        "code_links_stated",
        "code_links_added",
    )
    return out
