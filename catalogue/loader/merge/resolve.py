"""Before the merge: one identity for every name and paper in the staged rows, and the clashes none settles.

* **Names to slugs.** A method or dataset named only by its name (a paper's method, a
  leaderboard's dataset) is the one that name already belongs to: this load's own record of
  it (``methods.json``, ``datasets.json``) or the catalogue's, else the slug the name gives.
  One the catalogue knows only by its name takes the slug a record of this load gives it.
* **Papers to one key.** A paper known by its slug alone (``slug:x``) is the arXiv paper that
  has that slug, in this load or in the catalogue, so that papers are the same whether their
  files come in one run or in several. Then papers that two sources name by different kinds of
  identity are one paper by their title (:func:`fold_by_title`, the rule in its docstring).
* **Clashes.** What cannot be settled (one paper slug given to two arXiv papers, one code
  entry or leaderboard address claimed by two things) is a :class:`Clash` that names every
  file (and record) involved. All of them are found in one run, in an order of their own, so
  the report is the same on both databases and in any order of the files.
"""

from dataclasses import dataclass, field

from django.db import connection

from catalogue.loader import schema
from catalogue.loader.merge.sql import execute, materialize, rows
from catalogue.loader.warnings import LoadWarning

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


def names_to_slugs() -> list[LoadWarning]:
    """Give every method and dataset row named only by its name the slug that name has; returns
    what :func:`_adopt_stated_slugs` renamed, to be reported.

    A name's slug is the one a row of this load states for a name that gives the same slug
    (``PubMed`` and ``Pubmed`` are one name): a paper document's method, ``methods.json``,
    ``datasets.json``; else the catalogue's thing of that very name; else the slug the name
    gives (``identities.name_slug``).
    """
    renamed = []
    for kind, places in NAMED_BY_NAME.items():
        renamed += _adopt_stated_slugs(kind)
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
    return renamed


def _adopt_stated_slugs(kind: str) -> list[LoadWarning]:
    """A method or dataset the catalogue knows only by a name (no record of its own described it,
    so its slug is the one its name gives) takes the slug a record of this load states for that
    name: the methods dump's ``ppm`` for the ``pyramid-pooling-module`` a papers dump named in an
    earlier run. Within one load the name resolves so (above); without this, the same dumps loaded
    in two runs gave two methods where one run gives one. Returns the renames, to be reported."""
    # Not where a record of this load states the name's own slug as well: the datasets dump's
    # ``ImageNet`` (/dataset/imagenet) and ``Imagenet`` (/dataset/imagenet-1) are two datasets, and
    # the ImageNet an earlier run named keeps its address (it was renamed to the other's).
    materialize(
        f"r_{kind}_stated",
        f"SELECT name_key, MIN(slug) AS slug, MIN(doc_url) AS doc_url FROM stg_{kind} "
        "WHERE slug IS NOT NULL AND slug <> name_key "
        f"AND name_key NOT IN (SELECT slug FROM stg_{kind} WHERE slug IS NOT NULL) GROUP BY name_key",
        "name_key",
    )
    found = rows(
        f"SELECT t.id, t.slug, r.slug, r.doc_url FROM catalogue_{kind} t "
        f"JOIN r_{kind}_stated r ON r.name_key = t.slug WHERE t.detail_stamp = '' "
        f"AND NOT EXISTS (SELECT 1 FROM catalogue_{kind} o WHERE o.slug = r.slug) ORDER BY t.slug"
    )
    named = file_names(doc_url for *_, doc_url in found)
    renamed = []
    for pk, old, new, doc_url in found:
        execute(f"UPDATE catalogue_{kind} SET slug = %s WHERE id = %s", [new, pk])
        for file in named.get(doc_url, [""]):
            renamed.append(
                LoadWarning(
                    "slug_adopted", file, f"/{kind}/{old} is now /{kind}/{new}, as this file names it"
                )
            )
    return renamed


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
    _take_arxiv_ids()


def _take_arxiv_ids() -> None:
    """A folded paper row takes the arXiv id with the key."""
    execute(
        "UPDATE stg_paper SET arxiv_id = pkey WHERE arxiv_id IS NULL "
        "AND pkey NOT LIKE 'slug:%' AND pkey NOT LIKE 'land:%'"
    )


# A title this short names too little to say two records are one paper ("[1]", "4"); "Mask R-CNN"
# ("mask r cnn") is long enough.
MIN_TITLE_KEY_CHARS = 8


def fold_by_title() -> list[LoadWarning]:
    """Papers named by different kinds of identity are one paper when their titles say so.

    A record's identities are of three kinds: an arXiv id, a Papers-with-Code slug a source
    states, a landing page (``identities.landing_key``). The methods dump names a paper by its
    slug and title, the evaluation tables by its arXiv URL, a table by its CVF page: each alone
    is a record of its own. The rule: records (staged papers, and papers of the catalogue) with
    the same ``title_key`` (at least MIN_TITLE_KEY_CHARS long) are one paper when

    * no two of them hold an identity of the same kind (two arXiv ids, two stated slugs, two
      venues' ids are two papers: an arXiv and a conference version under two slugs stay apart).
      A plain web address (a ``url:`` landing key: an author's homepage, a mirror) is no such
      identity: one paper may have several;
    * at most one of them is a paper of the catalogue (two stored papers are never joined here);
    * the years they state are at most one apart (a preprint and its conference version; a
      record without a date agrees with any).

    The merged paper is known by its strongest identity (arXiv id, else slug, else landing page);
    its other slugs stay as aliases. A group that breaks the rule is left as it is.

    Staged keys are rewritten to the group's key; a group with a paper of the catalogue is
    resolved to it (``r_title_target``). Returns a warning for each group merged, naming the
    records and their files.
    """
    execute("DROP TABLE IF EXISTS r_title_target")
    execute("CREATE TEMPORARY TABLE r_title_target (pkey TEXT, paper_id BIGINT)")
    _fold_known_keys()
    _title_members()
    _title_groups()
    warnings = _title_merge_warnings()
    execute(
        "INSERT INTO r_title_target (pkey, paper_id) SELECT DISTINCT to_pkey, paper_id FROM r_title_fold "
        "WHERE paper_id IS NOT NULL"
    )
    execute("DELETE FROM r_title_fold WHERE pkey = to_pkey")
    _rewrite_keys("r_title_fold")
    return warnings


def _fold_known_keys() -> None:
    """The staged keys of the catalogue's papers (``r_title_known``), two keys of one paper folded
    into one."""
    _known_keys()
    # Two staged keys of one catalogue paper (its arXiv id, and the landing page a row names it by,
    # which it took when the two were merged): one key, or each would write the paper in turn.
    materialize(
        "r_known_fold",
        "SELECT k.pkey, c.pkey AS to_pkey FROM r_title_known k JOIN (SELECT paper_id, pkey FROM "
        "(SELECT paper_id, pkey, ROW_NUMBER() OVER (PARTITION BY paper_id ORDER BY "
        "CASE WHEN pkey LIKE 'land:%' THEN 2 WHEN pkey LIKE 'slug:%' THEN 1 ELSE 0 END, pkey) AS rn "
        "FROM r_title_known) r WHERE rn = 1) c ON c.paper_id = k.paper_id WHERE k.pkey <> c.pkey",
        "pkey",
    )
    _rewrite_keys("r_known_fold")
    _known_keys()


def _title_members() -> None:
    """``r_title_member``: every record with a title worth comparing; ``r_title_entity``: per title,
    each entity with its identities."""
    # Every record with a title worth comparing, as (title, entity, identities, year): staged rows,
    # then the catalogue's papers that share a title key with one. An entity is a catalogue paper
    # ("p<id>", staged keys resolved to it included) or a staged key ("k<key>").
    materialize(
        "r_title_member",
        "SELECT s.title_key, COALESCE('p' || CAST(k.paper_id AS TEXT), 'k' || s.pkey) AS entity, s.pkey, "
        "k.paper_id, "
        "CASE WHEN s.pkey NOT LIKE 'slug:%' AND s.pkey NOT LIKE 'land:%' THEN s.pkey END AS arxiv, "
        f"CASE WHEN NOT {_is_true('s.slug_derived')} THEN s.slug END AS slug, "
        "CASE WHEN s.pkey LIKE 'land:%' THEN substr(s.pkey, 6) ELSE s.landing END AS landing, "
        f"{_year('s.month')} AS year, s.doc_url, s.rec "
        "FROM stg_paper s LEFT JOIN r_title_known k ON k.pkey = s.pkey "
        f"WHERE length(s.title_key) >= {MIN_TITLE_KEY_CHARS} "
        "UNION ALL "
        f"SELECT p.title_key, 'p' || CAST(p.id AS TEXT), NULL, p.id, p.arxiv_id, ps.slug, p.landing_key, "
        f"{_year('p.month')}, NULL, NULL FROM catalogue_paper p "
        f"LEFT JOIN catalogue_paperslug ps ON ps.paper_id = p.id AND NOT {_is_true('ps.derived')} "
        "WHERE p.title_key IN "
        f"(SELECT title_key FROM stg_paper WHERE length(title_key) >= {MIN_TITLE_KEY_CHARS})",
        "title_key",
    )
    # Per entity its identities (one paper's two stated slugs are one entity's); then the groups
    # whose entities share no kind of identity, and the key their records take.
    materialize(
        "r_title_entity",
        "SELECT title_key, entity, MIN(paper_id) AS paper_id, MIN(arxiv) AS arxiv, MIN(slug) AS slug, "
        "MIN(CASE WHEN landing NOT LIKE 'url:%' THEN landing END) AS venue, "
        "MIN(CASE WHEN landing LIKE 'url:%' THEN landing END) AS address, "
        "MIN(year) AS first_year, MAX(year) AS last_year "
        "FROM r_title_member GROUP BY title_key, entity",
        "title_key",
    )
    materialize(
        "r_title_group",
        "SELECT e.title_key, COALESCE(MIN(e.arxiv), 'slug:' || MIN(e.slug), 'land:' || MIN(e.venue), "
        "'land:' || MIN(e.address)) AS pkey, "
        "MIN(e.paper_id) AS paper_id FROM r_title_entity e GROUP BY e.title_key "
        "HAVING COUNT(*) > 1 AND COUNT(e.arxiv) <= 1 AND COUNT(e.slug) <= 1 AND COUNT(e.venue) <= 1 "
        "AND COUNT(e.paper_id) <= 1 AND COALESCE(MAX(e.last_year) - MIN(e.first_year), 0) <= 1",
        "title_key",
    )


def _title_groups() -> None:
    """``r_title_group``: the titles whose entities are one paper by the rule; ``r_title_fold``: the
    key each of their staged keys takes."""
    # A staged key that two groups would give two keys (its rows give two titles) stays as it is.
    materialize(
        "r_title_fold",
        "SELECT m.pkey, MIN(g.pkey) AS to_pkey, MIN(g.paper_id) AS paper_id FROM r_title_member m "
        "JOIN r_title_group g ON g.title_key = m.title_key WHERE m.pkey IS NOT NULL "
        "GROUP BY m.pkey HAVING COUNT(DISTINCT g.pkey) = 1",
        "pkey",
    )


def _known_keys() -> None:
    """``r_title_known``: the staged keys the catalogue already holds (by arXiv id, landing page or
    slug), with the paper each is."""
    materialize(
        "r_title_known",
        "SELECT DISTINCT s.pkey, p.id AS paper_id FROM stg_paper s "
        "JOIN catalogue_paper p ON p.arxiv_id = s.pkey "
        "UNION SELECT DISTINCT s.pkey, p.id FROM stg_paper s JOIN catalogue_paper p "
        "ON p.landing_key = substr(s.pkey, 6) WHERE s.pkey LIKE 'land:%' "
        "UNION SELECT DISTINCT s.pkey, ps.paper_id FROM stg_paper s JOIN catalogue_paperslug ps "
        "ON ps.slug = substr(s.pkey, 6) WHERE s.pkey LIKE 'slug:%'",
        "pkey",
    )


def _rewrite_keys(folds: str) -> None:
    """Every staged paper key in ``folds`` (pkey -> to_pkey) becomes its new key, in every table."""
    for name, column in PKEY_COLUMNS:
        execute(
            f"UPDATE stg_{name} SET {column} = "
            f"(SELECT f.to_pkey FROM {folds} f WHERE f.pkey = stg_{name}.{column}) "
            f"WHERE {column} IN (SELECT pkey FROM {folds})"
        )
    _take_arxiv_ids()


def _year(month: str) -> str:
    """The year of a stored ``YYYY-MM`` month as a number (NULL for none)."""
    return f"CAST(NULLIF(substr({month}, 1, 4), '') AS INTEGER)"


def _is_true(column: str) -> str:
    return f"COALESCE({column}, {'FALSE' if connection.vendor == 'postgresql' else '0'})"


PAPERS_MERGED = "papers_merged_by_title"  # the kind of their warnings


def _title_merge_warnings() -> list[LoadWarning]:
    """One warning a group merged: its title, and each record by its identity and where from."""
    found = rows(
        "SELECT g.title_key, g.pkey, m.arxiv, m.slug, m.landing, m.paper_id, m.doc_url, m.rec "
        "FROM r_title_group g JOIN r_title_member m ON m.title_key = g.title_key "
        "ORDER BY g.title_key, m.doc_url, m.rec"
    )
    groups: dict[str, dict] = {}
    for title_key, key, arxiv, slug, landing, paper_id, doc_url, rec in found:
        group = groups.setdefault(title_key, {"key": key, "named": set(), "units": set(), "stored": False})
        for kind, value in (("arXiv", arxiv), ("/paper/", slug), ("landing page", landing)):
            if value:
                group["named"].add(f"{kind} {value}" if kind != "/paper/" else f"/paper/{value}")
        if doc_url:
            group["units"].add((doc_url, rec))
        group["stored"] |= paper_id is not None and doc_url is None
    named = file_names(url for group in groups.values() for url, _rec in group["units"])
    out = []
    for title_key, group in sorted(groups.items()):
        stored = " and a paper of the catalogue" if group["stored"] else ""
        out.append(
            LoadWarning(
                PAPERS_MERGED,
                "",
                f"papers titled {title_key!r} are one paper ({', '.join(sorted(group['named']))}): "
                f"merged by title, known as {group['key'].removeprefix('slug:')} "
                f"(named so by {where_from(group['units'], named)}{stored})",
            )
        )
    return out


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


def file_names(urls) -> dict[str, list[str]]:
    """The files each document url was read from (two versions of one document: both), in name
    order: the urls a chunk at a time, so that naming the files of many warnings is a few statements,
    not one a warning."""
    urls = sorted({url for url in urls if url})
    named: dict[str, list[str]] = {}
    for start in range(0, len(urls), FILE_NAMES_AT_ONCE):
        chunk = urls[start : start + FILE_NAMES_AT_ONCE]
        marks = ", ".join(["%s"] * len(chunk))
        for url, file_name in rows(
            f"SELECT DISTINCT url, file_name FROM stg_document WHERE url IN ({marks}) ORDER BY file_name",
            chunk,
        ):
            named.setdefault(url, []).append(file_name)
    return named


FILE_NAMES_AT_ONCE = 500


def where_from(doc_urls_and_recs, named: dict[str, list[str]] | None = None) -> str:
    """``file (record n, m)`` for each document involved: the part of a clash's message that names them.
    ``named``: the files of the urls (``file_names``), when the caller fetched them for many at once."""
    files: dict[str, set[int]] = {}
    for url, rec in doc_urls_and_recs:
        files.setdefault(url, set()).add(rec or 0)
    if named is None:
        named = file_names(files)
    parts = []
    for url in sorted(files, key=lambda u: named.get(u, [u or ""])):
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
