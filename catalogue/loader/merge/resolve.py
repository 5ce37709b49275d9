"""Before the merge: one identity for every name and paper in the staged rows, and the clashes none settles.

* **Names to slugs.** A method or dataset named only by its name (a paper's method, a
  leaderboard's dataset) is the one that name already belongs to: this load's own record of
  it (``methods.json``, ``datasets.json``) or the catalogue's, else the slug the name gives.
* **Papers to one key.** A paper known by its slug alone (``slug:x``) is the arXiv paper that
  has that slug, in this load or in the catalogue, so that papers are the same whether their
  files come in one run or in several.
* **Clashes.** What cannot be settled (one paper slug given to two arXiv papers, one code
  entry or leaderboard address claimed by two things) is a :class:`Clash` that names every
  file (and record) involved. All of them are found in one run, in an order of their own, so
  the report is the same on both databases and in any order of the files.
"""

from dataclasses import dataclass, field

from catalogue.loader import schema
from catalogue.loader.merge.sql import execute, rows

# Every staged column that holds a paper's key: (table, column).
PKEY_COLUMNS = [(name, "pkey") for name, table in schema.TABLES.items() if "pkey" in table.names] + [
    (name, "paper_pkey") for name, table in schema.TABLES.items() if "paper_pkey" in table.names
]


# Where each kind is named only by its name: (stage, name column, slug column, derived column).
NAMED_BY_NAME = {
    "method": [
        ("method", "name", "slug", "derived_slug"),
        ("paper_method", "name", "slug", "derived_slug"),
    ],
    "dataset": [
        ("dataset", "name", "slug", "derived_slug"),
        ("paper_dataset", "name", "slug", "derived_slug"),
        ("leaderboard", "dataset", "dataset_slug", "derived_dataset_slug"),
        ("result", "dataset", "dataset_slug", "derived_dataset_slug"),
    ],
}


def names_to_slugs() -> None:
    """Give every method and dataset row named only by its name the slug that name has.

    A name's slug is the one a row of this load states for a name that gives the same slug
    (``PubMed`` and ``Pubmed`` are one name): a paper document's method, ``methods.json``,
    ``datasets.json``; else the catalogue's thing of that very name; else the slug the name
    gives (``identities.name_slug``).
    """
    for kind, places in NAMED_BY_NAME.items():
        unnamed = " UNION ALL ".join(
            f"SELECT {name} AS name, {derived} AS derived FROM stg_{stage} WHERE {slug} IS NULL"
            for stage, name, slug, derived in places
        )
        execute(f"DROP TABLE IF EXISTS r_{kind}_names")
        execute(
            f"CREATE TEMPORARY TABLE r_{kind}_names AS SELECT n.derived, COALESCE(k.slug, c.slug, "
            "n.derived) AS slug "
            f"FROM (SELECT derived, MIN(name) AS name FROM ({unnamed}) u GROUP BY derived) n "
            f"LEFT JOIN (SELECT name_key, MIN(slug) AS slug FROM stg_{kind} WHERE slug IS NOT NULL "
            f"GROUP BY name_key) k ON k.name_key = n.derived "
            f"LEFT JOIN (SELECT name, MIN(slug) AS slug FROM catalogue_{kind} GROUP BY name) c ON c.name = "
            "n.name"
        )
        execute(f"CREATE INDEX r_{kind}_names_key ON r_{kind}_names (derived)")
        for stage, _name, slug, derived in places:
            execute(
                f"UPDATE stg_{stage} SET {slug} = (SELECT r.slug FROM r_{kind}_names r "
                f"WHERE r.derived = stg_{stage}.{derived}) WHERE {slug} IS NULL"
            )


def fold_paper_keys() -> None:
    """A slug-only paper key becomes the arXiv key its slug belongs to, where exactly one does."""
    execute("DROP TABLE IF EXISTS r_fold")
    execute(
        "CREATE TEMPORARY TABLE r_fold AS "
        # in this load: the slug is given to exactly one arXiv paper
        "SELECT 'slug:' || s.slug AS pkey, MIN(s.pkey) AS arxiv_pkey FROM stg_paper s "
        "WHERE s.pkey NOT LIKE 'slug:%' AND EXISTS (SELECT 1 FROM stg_paper o WHERE o.pkey = 'slug:' || "
        "s.slug) "
        "GROUP BY s.slug HAVING COUNT(DISTINCT s.pkey) = 1 "
        "UNION "
        # in the catalogue: the slug names a paper that has an arXiv id
        "SELECT s.pkey, p.arxiv_id FROM stg_paper s JOIN catalogue_paperslug ps ON ps.slug = s.slug "
        "JOIN catalogue_paper p ON p.id = ps.paper_id WHERE s.pkey LIKE 'slug:%' AND p.arxiv_id IS NOT NULL"
    )
    # A slug that two arXiv papers claim is a clash (below), not a fold.
    execute("DELETE FROM r_fold WHERE pkey IN (SELECT pkey FROM r_fold GROUP BY pkey HAVING COUNT(*) > 1)")
    execute("CREATE INDEX r_fold_key ON r_fold (pkey)")
    for name, column in PKEY_COLUMNS:
        execute(
            f"UPDATE stg_{name} SET {column} = "
            f"(SELECT f.arxiv_pkey FROM r_fold f WHERE f.pkey = stg_{name}.{column}) "
            f"WHERE {column} IN (SELECT pkey FROM r_fold)"
        )
    # A folded paper row takes the arXiv id with the key.
    execute("UPDATE stg_paper SET arxiv_id = pkey WHERE arxiv_id IS NULL AND pkey NOT LIKE 'slug:%'")


@dataclass
class Clash:
    """Something two sources claim that cannot both be: the message, and every unit involved."""

    message: str
    units: set[tuple[str, int]] = field(default_factory=set)  # (document url, record number)


def files_of(units) -> list[str]:
    """The names of the files the units (document url, record) are in, sorted."""
    urls = sorted({url for url, _rec in units if url})
    if not urls:
        return []
    marks = ", ".join(["%s"] * len(urls))
    return [
        name
        for (name,) in rows(
            f"SELECT DISTINCT file_name FROM stg_document WHERE url IN ({marks}) ORDER BY 1", urls
        )
    ]


def where_from(doc_urls_and_recs) -> str:
    """``file (record n, m)`` for each document involved: the part of a clash's message that names them."""
    files: dict[str, set[int]] = {}
    for url, rec in doc_urls_and_recs:
        files.setdefault(url, set()).add(rec or 0)
    named: dict[str, list[str]] = {}
    for url, file_name in rows("SELECT DISTINCT url, file_name FROM stg_document ORDER BY file_name"):
        named.setdefault(url, []).append(file_name)  # two versions of one document: both files
    parts = []
    for url in sorted(files, key=lambda u: named.get(u, [u])):
        recs = sorted(r for r in files[url] if r)
        more = ", …" if len(recs) > 5 else ""
        records = f" (record {', '.join(str(r) for r in recs[:5])}{more})" if recs else ""
        parts.append(f"{', '.join(named.get(url, [url]))}{records}")
    return ", ".join(parts)


def paper_slug_clashes() -> list[tuple[str, Clash]]:
    """A slug given to two papers in this load (two arXiv ids, or a slug-only paper among them)."""
    found = rows(
        "SELECT slug, pkey, doc_url, rec FROM stg_paper WHERE slug IN "
        "(SELECT slug FROM stg_paper GROUP BY slug HAVING COUNT(DISTINCT pkey) > 1) ORDER BY slug, pkey, "
        "doc_url"
    )
    clashes: dict[str, Clash] = {}
    for slug, pkey, doc_url, rec in found:
        clash = clashes.setdefault(slug, Clash(""))
        clash.units.add((doc_url, rec))
        clash.message += f"\0{pkey}"
    out = []
    for slug, clash in sorted(clashes.items()):
        keys = sorted(set(filter(None, clash.message.split("\0"))))
        clash.message = (
            f"/paper/{slug} is given to {len(keys)} papers "
            f"({', '.join(k.removeprefix('slug:') for k in keys)}) "
            f"by {where_from(clash.units)}"
        )
        out.append((slug, clash))
    return out


def skip(units: set[tuple[str, int]]) -> None:
    """Take the staged rows of these units (documents, or records of a dump) out of the load."""
    execute("DROP TABLE IF EXISTS r_skip")
    execute("CREATE TEMPORARY TABLE r_skip (doc_url TEXT, rec INTEGER)")
    for url, rec in sorted(units, key=lambda u: (u[0], u[1] or 0)):
        execute("INSERT INTO r_skip (doc_url, rec) VALUES (%s, %s)", [url, rec or 0])
    # The papers those units name: their other rows (authors, tasks) carry no unit of their own.
    execute("DROP TABLE IF EXISTS r_skip_papers")
    execute(
        "CREATE TEMPORARY TABLE r_skip_papers AS SELECT DISTINCT s.pkey, s.stamp FROM stg_paper s "
        "JOIN r_skip k ON k.doc_url = s.doc_url AND k.rec = COALESCE(s.rec, 0)"
    )
    whole_documents = "SELECT doc_url FROM r_skip WHERE rec = 0"
    for name, table in schema.TABLES.items():
        if "doc_url" in table.names and "rec" in table.names:
            execute(
                f"DELETE FROM stg_{name} WHERE EXISTS (SELECT 1 FROM r_skip k WHERE k.doc_url = "
                f"stg_{name}.doc_url "
                f"AND k.rec = COALESCE(stg_{name}.rec, 0))"
            )
        elif "doc_url" in table.names:
            execute(f"DELETE FROM stg_{name} WHERE doc_url IN ({whole_documents})")
        elif name == "document":
            execute(f"DELETE FROM stg_document WHERE url IN ({whole_documents})")
        elif "pkey" in table.names and "stamp" in table.names:
            execute(
                f"DELETE FROM stg_{name} WHERE EXISTS (SELECT 1 FROM r_skip_papers p WHERE p.pkey = "
                f"stg_{name}.pkey "
                f"AND p.stamp = stg_{name}.stamp)"
            )
