"""The document schema: every row the loader stages, column by column, in this one table.

For each staging table its columns, in order, with their type (``staging`` creates the tables
from here). A column that comes straight from a document field also says which field (``doc``)
and how it is read and checked (``read``: the validator reads it from here, so the error names
that field), which model field it ends in (``field``, the column's own name unless said) and
which stamp of that row decides it (``group``: the merge writes every column of a group from
the group's newest document, and builds that SQL from here), and ``dump_snapshot`` writes the
same fields back from the same table. Columns without a ``read`` are worked out by the
validator (identities, stamps, nested objects); those without a ``group`` route rows in the
merge (natural keys, the document's url) and are written by hand there.

A row is built with :meth:`Table.row`: a column the table does not know is an error, never
a silently dropped value; a column left out is NULL, which means "not stated" (a code-entry
document's view of a paper states no abstract). ``tests/loader/test_schema.py`` checks every
``field`` against the models.

How long a text may be is declared once, by the model field it ends in (its ``max_length``;
``stored`` names that field for a column routed by hand), and the validator reads it from
there: as it reads the document's field (:meth:`Table.read`), and on every staged row
(``fields.Parsed.add``). Free text the models hold unbounded is capped at ``MAX_TEXT_CHARS``.
"""

from catalogue.loader.columns import (
    AS_JSON,
    BOOLEAN,
    DATE,
    FLAG,
    FLAG_OR_FALSE,
    INTEGER,
    JSON,
    TEXT,
    TIMESTAMP,
    URL,
    Column,
    Read,
    Table,
    text,
)
from catalogue.models.vocabulary import RepoKind, Status

# Stamp groups: the stamp column of the target row that decides the columns of the group. The
# newest staged row *that states the group* (``Table.stated_by``) writes all of its columns.
STAMP = "stamp"  # every row that names the thing
PAPER_DOCUMENT = "paper_stamp"  # the archive's description of a paper: paper documents, papers dump
ARCHIVE_RECORD = "archive_stamp"  # what only the papers dump states of a paper (conference, ids)
SYNTOLOGY = "syntology_stamp"  # what only a paper document states (Syntology's reading)
PAPER_VIEW = "paper_view_stamp"  # a place as its paper document's ``syntology.samples`` lists it
DETAIL = "detail_stamp"  # a task's, method's or dataset's description, from the archive's own record
TABLE = "table_stamp"  # a leaderboard as an evaluation table states it: its columns and description
CODE_TEXT = "code_stamp"  # a code body's text, as a place that may show it gives it

# How each kind of source names a paper in stg_paper.view.
PAPER_DOCUMENT_VIEW, CODE_VIEW, ARCHIVE_VIEW, MENTION_VIEW = "paper", "code", "archive", "mention"


# A paper, as a paper document describes it (view "paper"), the papers dump's record does
# ("archive"), a code-entry document's sample names it ("code"), or another dump's row points at
# it ("mention": a code link, a leaderboard row). Identity: ``pkey``, its arXiv id, else
# "slug:<slug>", else "land:<landing key>" (a paper known by its landing page only). ``rec``: the
# record's number within its file (dumps; 0 for a document).
PAPER = Table(
    "paper",
    [
        Column("pkey", TEXT),
        Column("arxiv_id", TEXT, stored="Paper.arxiv_id"),
        Column("slug", TEXT, stored="Paper.slug"),
        Column("view", TEXT),
        Column("stamp", TEXT),
        Column("title", TEXT, group=STAMP),  # stripped; a curator's correction stands (merge)
        Column("title_key", TEXT, group=STAMP),  # identities.title_key of the title
        Column("title_source", TEXT, group=STAMP),
        Column("date", DATE, group=STAMP),
        Column("month", TEXT, group=STAMP),
        Column("proceeding", TEXT, "proceeding", text(blank_as=None), PAPER_DOCUMENT),
        Column("abstract", TEXT, "abstract", text(), PAPER_DOCUMENT),
        Column("url_abs", TEXT, "url_abs", URL, PAPER_DOCUMENT),
        Column("url_pdf", TEXT, "url_pdf", URL, PAPER_DOCUMENT),
        Column("source", JSON, "source", AS_JSON, PAPER_DOCUMENT),
        Column("conference", TEXT, "conference", text(), ARCHIVE_RECORD),
        Column("conference_url_abs", TEXT, "conference_url_abs", URL, ARCHIVE_RECORD),
        Column("conference_url_pdf", TEXT, "conference_url_pdf", URL, ARCHIVE_RECORD),
        Column("nips_id", TEXT, "nips_id", text(), ARCHIVE_RECORD),
        Column("openreview_id", TEXT, "openreview_id", text(), ARCHIVE_RECORD),
        Column("syntology_read_at", TIMESTAMP, group=SYNTOLOGY),
        Column("syntology_claim", TEXT, group=SYNTOLOGY),
        Column("syntology_links", JSON, group=SYNTOLOGY),
        Column("arxiv_metadata", JSON, "arxiv_metadata", AS_JSON, SYNTOLOGY),
        Column("syntology_extracted_results", JSON, "syntology_extracted_results", AS_JSON, SYNTOLOGY),
        # Whether ``slug`` was made here (not a Papers-with-Code slug a source stated).
        Column("slug_derived", BOOLEAN),
        # The landing page a row names the paper by (``identities.landing_key``), kept when the
        # paper turns out to be one with an arXiv id or a slug (Paper.landing_key).
        Column("landing", TEXT, stored="Paper.landing_key"),
        # The paper's own address as a row that only names it gives it (a table row's paper_url, a
        # code link's paper_url_abs): its url_abs where no description of the paper states one.
        Column("url_named", TEXT, stored="Paper.url_abs"),
        Column("doc_url", TEXT),
        Column("rec", INTEGER),
    ],
    model="Paper",
    stated_by={
        PAPER_DOCUMENT: f"view IN ('{PAPER_DOCUMENT_VIEW}', '{ARCHIVE_VIEW}')",
        ARCHIVE_RECORD: f"view = '{ARCHIVE_VIEW}'",
        SYNTOLOGY: f"view = '{PAPER_DOCUMENT_VIEW}'",
    },
)

# A place: (paper, code body, entry). Both views state the first group; only the paper
# document's ``syntology.samples`` state the second.
SAMPLE = Table(
    "sample",
    [
        Column("pkey", TEXT),
        Column("sha", TEXT, stored="CodeBody.sha256_prefix"),
        Column("entry_name", TEXT, stored="CodeEntry.name"),
        Column("repo_key", TEXT, stored="Repo.key"),
        Column("path", TEXT, "path", text(), STAMP),
        Column("file_url", TEXT, "file_url", Read("url"), STAMP),
        Column("status", TEXT, "status", Read("choice", choices=Status, required=True), STAMP),
        Column("verification_level", INTEGER, "verification_level", Read("int", empty=0), STAMP),
        Column("contract_check", TEXT, "contract_check", text(empty=None), STAMP),
        Column("metamorphic_tier", TEXT, "metamorphic_tier", text(empty=None), STAMP),
        Column("behaviour_fingerprint", BOOLEAN, "behaviour_fingerprint", FLAG_OR_FALSE, STAMP),
        Column("licence", TEXT, "licence", text(empty=None), STAMP),
        Column("inline_ok", BOOLEAN, "inline_ok", FLAG_OR_FALSE, STAMP),
        Column("view", TEXT),
        Column("repo_kind", TEXT, "repo_kind", Read("choice", choices=RepoKind), PAPER_VIEW),
        Column("link_basis", TEXT, "link_basis", text(), PAPER_VIEW),
        Column("language", TEXT, "language", text(), PAPER_VIEW),
        Column("stamp", TEXT),
        Column("doc_url", TEXT),
    ],
    model="Sample",
    stated_by={PAPER_VIEW: f"view = '{PAPER_DOCUMENT_VIEW}'"},
)

CODE_LINK = Table(
    "code_link",
    [
        Column("pkey", TEXT),
        Column("repo_key", TEXT, stored="Repo.key"),
        Column("sub_path", TEXT, stored="CodeLink.sub_path"),
        Column("repo_url", TEXT, group=STAMP),  # required and parsed into repo_key + sub_path
        Column("is_official", BOOLEAN, "is_official", FLAG, STAMP),
        Column("mentioned_in_paper", BOOLEAN, "mentioned_in_paper", FLAG, STAMP),
        Column("mentioned_in_github", BOOLEAN, "mentioned_in_github", FLAG, STAMP),
        Column("framework", TEXT, "framework", text(blank_as=None), STAMP),
        Column("stamp", TEXT),
        Column("doc_url", TEXT),
        Column("rec", INTEGER),
        # A link an evaluation table's row gives (its paper's ``code_links``): the row's board,
        # as its task's slug and its dataset's derived slug; NULL for any other source.
        Column("board_task", TEXT, stored="Task.slug"),
        Column("board_dataset", TEXT, stored="Dataset.slug"),
    ],
    model="CodeLink",
)

# One row of a leaderboard: identity (leaderboard, paper, ``row_key``), ``row_key`` the digest
# of what makes the row this row (identities.result_row_key). ``pkey`` is NULL for a row that
# points at no paper. The dataset is named by the table; ``dataset_slug`` is what that name
# resolves to (NULL until the merge resolves it; ``derived_dataset_slug`` if nothing else).
RESULT = Table(
    "result",
    [
        Column("pkey", TEXT),
        Column("task_slug", TEXT, stored="Task.slug"),
        Column("dataset", TEXT, stored="Dataset.name"),
        Column("dataset_slug", TEXT, stored="Dataset.slug"),
        Column("derived_dataset_slug", TEXT, stored="Dataset.slug"),
        Column("row_key", TEXT),
        Column("model", TEXT, group=STAMP),
        Column("rank_in_archive_order", INTEGER, "rank_in_archive_order", Read("int"), STAMP),
        Column("of", INTEGER, "of", Read("int"), STAMP),
        Column("metrics", JSON, group=STAMP),  # name -> value as given, checked one by one
        Column("uses_additional_data", BOOLEAN, "uses_additional_data", FLAG, STAMP),
        Column("paper_title", TEXT, group=STAMP),
        Column("paper_url", TEXT, group=STAMP),
        Column("paper_date", DATE, group=STAMP),
        Column("code_links", JSON, group=STAMP),
        Column("model_links", JSON, group=STAMP),
        Column("stamp", TEXT),
        Column("doc_url", TEXT),
        Column("rec", INTEGER),
    ],
    model="Result",
)

HARVESTED_REPO = Table(
    "harvested_repo",
    [
        Column("pkey", TEXT),
        Column("repo_key", TEXT, stored="Repo.key"),
        Column("sub_path", TEXT, stored="HarvestedRepo.sub_path"),
        Column("provenance", TEXT, "provenance", text(), STAMP),
        Column("stamp", TEXT),
        Column("doc_url", TEXT),
    ],
    model="HarvestedRepo",
)

# Tasks, methods and datasets: every row that names one states its name (STAMP); the archive's
# own record of it (an evaluation table's task, methods.json, datasets.json, a paper's method
# object) also states its details (DETAIL, ``detailed = 1``). A method or dataset named only by
# its name has no slug yet (NULL): the merge resolves the name to one (``derived_slug`` else).
TASK = Table(
    "task",
    [
        Column("slug", TEXT, stored="Task.slug"),
        Column("name", TEXT, group=STAMP),
        Column("stamp", TEXT),
        Column("detailed", BOOLEAN),
        Column("description", TEXT, group=DETAIL),
        Column("parent_slug", TEXT, stored="Task.slug"),  # merged by hand: the parent task's id
        Column("synonyms", JSON, group=DETAIL),
        Column("source_link", JSON, group=DETAIL),
        Column("doc_url", TEXT),
    ],
    model="Task",
    stated_by={DETAIL: "detailed = TRUE"},
)

METHOD = Table(
    "method",
    [
        Column("slug", TEXT, stored="Method.slug"),
        Column("derived_slug", TEXT, stored="Method.slug"),
        Column("name_key", TEXT),  # the slug its name gives: names that differ only by case are one
        Column("name", TEXT, group=STAMP),
        Column("full_name", TEXT, "full_name", text(empty=None), STAMP),
        Column("stamp", TEXT),
        Column("detailed", BOOLEAN),
        Column("description", TEXT, "description", text(), DETAIL),
        Column("introduced_year", INTEGER, "introduced_year", Read("int"), DETAIL),
        Column("source_url", TEXT, "source_url", URL, DETAIL),
        Column("source_title", TEXT, "source_title", text(), DETAIL),
        Column("code_snippet_url", TEXT, "code_snippet_url", URL, DETAIL),
        Column("num_papers", INTEGER, "num_papers", Read("int"), DETAIL),
        Column("paper_pkey", TEXT),  # merged by hand: the paper the record says introduced it
        Column("doc_url", TEXT),
    ],
    model="Method",
    stated_by={DETAIL: "detailed = TRUE"},
)

DATASET = Table(
    "dataset",
    [
        Column("slug", TEXT, stored="Dataset.slug"),
        Column("derived_slug", TEXT, stored="Dataset.slug"),
        Column("name_key", TEXT),  # the slug its name gives: names that differ only by case are one
        Column("name", TEXT, group=STAMP),
        Column("stamp", TEXT),
        Column("detailed", BOOLEAN),
        Column("full_name", TEXT, "full_name", text(), DETAIL),
        Column("description", TEXT, "description", text(), DETAIL),
        Column("homepage", TEXT, "homepage", URL, DETAIL),
        Column("introduced_date", DATE, group=DETAIL),
        Column("modalities", JSON, group=DETAIL),
        Column("languages", JSON, group=DETAIL),
        Column("variants", JSON, group=DETAIL),
        Column("num_papers", INTEGER, "num_papers", Read("int"), DETAIL),
        Column("data_loaders", JSON, group=DETAIL),
        Column("parent_name", TEXT, stored="Dataset.name"),  # a subdataset's table: the dataset it is part of
        Column("paper_pkey", TEXT),  # merged by hand: the paper the record says introduced it
        Column("doc_url", TEXT),
    ],
    model="Dataset",
    stated_by={DETAIL: "detailed = TRUE"},
)

# A code body, as each place names it; a place that may show its code (``inline_ok``) may also
# give the body's text (``code``, in the ``language`` its row states). A body has one text:
# two different ones for a body are a clash (merge), not something the newest settles.
MAX_CODE_CHARS = 100_000  # a routine's text, not a repository's
BODY = Table(
    "body",
    [
        Column("sha", TEXT, stored="CodeBody.sha256_prefix"),
        Column("code", TEXT, "code", Read("str", max_length=MAX_CODE_CHARS), CODE_TEXT),
        Column("language", TEXT, "language", text(), CODE_TEXT, to="code_language"),
        Column("stamp", TEXT),  # the document's, where the row gives a text; NULL otherwise
        Column("doc_url", TEXT),
    ],
    model="CodeBody",
    stated_by={CODE_TEXT: "code IS NOT NULL"},
)

LEADERBOARD = Table(
    "leaderboard",
    [
        Column("task_slug", TEXT, stored="Task.slug"),
        Column("dataset", TEXT, stored="Dataset.name"),
        Column("dataset_slug", TEXT, stored="Dataset.slug"),
        Column("derived_dataset_slug", TEXT, stored="Dataset.slug"),
        Column("slug", TEXT, group=STAMP),
        Column("metrics", JSON, group=TABLE),  # the table's columns, in its order
        Column("description", TEXT, group=TABLE),  # what the table says of its dataset
        Column("stamp", TEXT),
        Column("doc_url", TEXT),
        Column("rec", INTEGER),
    ],
    model="Leaderboard",
    stated_by={TABLE: "metrics IS NOT NULL"},
)

TABLES: dict[str, Table] = {
    table.name: table
    for table in (
        # What happened to each file of the load (copied to LoadRunFile rows in SQL).
        Table(
            "file",
            [
                Column("path", TEXT),
                Column("sha256", TEXT),
                Column("url", TEXT),
                Column("status", TEXT),
                Column("error", TEXT),
            ],
        ),
        Table(
            "document",
            [
                Column("url", TEXT, stored="SourceDocument.url"),
                Column("kind", TEXT, group=STAMP),
                Column("sha256", TEXT, group=STAMP),
                Column("file_name", TEXT, group=STAMP),
                Column("read_at", TIMESTAMP, group=STAMP),
                Column("source", JSON, "source", AS_JSON, STAMP),
                Column("about", JSON, "about", AS_JSON, STAMP),
                Column("extra", JSON, group=STAMP),  # worked out by the validator: EXTRA_FIELDS
                Column("stamp", TEXT),
            ],
            model="SourceDocument",
        ),
        PAPER,
        Table(
            "author",
            [
                Column("pkey", TEXT),
                Column("stamp", TEXT),
                Column("position", INTEGER),
                Column("name", TEXT, stored="Author.name"),
                Column("rec", INTEGER),  # the record of its paper: a dump may hold one paper twice
            ],
        ),
        Table(
            "area",
            [
                Column("slug", TEXT, stored="Area.slug"),
                Column("name", TEXT, group=STAMP),
                Column("stamp", TEXT),
            ],
            model="Area",
        ),
        TASK,
        # Lists a task's, method's or dataset's details own: each row has its owner row's stamp.
        Table(
            "task_area",
            [
                Column("task_slug", TEXT, stored="Task.slug"),
                Column("area_slug", TEXT, stored="Area.slug"),
                Column("stamp", TEXT),
            ],
        ),
        Table(
            "paper_task",
            [
                Column("pkey", TEXT),
                Column("stamp", TEXT),
                Column("slug", TEXT, stored="Task.slug"),
                Column("rec", INTEGER),
            ],
        ),
        Table(
            "collection",
            [
                Column("slug", TEXT, stored="MethodCollection.slug"),
                Column("name", TEXT, group=STAMP),
                Column("area_slug", TEXT, stored="Area.slug"),  # merged by hand: the area's id
                Column("stamp", TEXT),
            ],
            model="MethodCollection",
        ),
        METHOD,
        # A method's collections, stated with its details (so its DETAIL stamp decides them).
        Table(
            "method_collection",
            [
                Column("method_slug", TEXT, stored="Method.slug"),
                Column("method_name", TEXT, stored="Method.name"),
                Column("derived_slug", TEXT, stored="Method.slug"),
                Column("collection_slug", TEXT, stored="MethodCollection.slug"),
                Column("stamp", TEXT),
            ],
        ),
        Table(
            "paper_method",
            [
                Column("pkey", TEXT),
                Column("stamp", TEXT),
                Column("slug", TEXT, stored="Method.slug"),
                Column("name", TEXT, stored="Method.name"),
                Column("derived_slug", TEXT, stored="Method.slug"),
                Column("introduced", BOOLEAN),
                Column("rec", INTEGER),
            ],
        ),
        DATASET,
        Table(
            "dataset_task",
            [
                Column("dataset_slug", TEXT, stored="Dataset.slug"),
                Column("task_slug", TEXT, stored="Task.slug"),
                Column("stamp", TEXT),
            ],
        ),
        Table(
            "paper_dataset",
            [
                Column("pkey", TEXT),
                Column("stamp", TEXT),
                Column("name", TEXT, stored="Dataset.name"),
                Column("slug", TEXT, stored="Dataset.slug"),
                Column("derived_slug", TEXT, stored="Dataset.slug"),
            ],
        ),
        LEADERBOARD,
        RESULT,
        Table(
            "repo",
            [
                Column("key", TEXT, stored="Repo.key"),
                Column("host", TEXT, group=STAMP),
                Column("owner", TEXT, group=STAMP),
                Column("name", TEXT, group=STAMP),
                Column("reach_status", TEXT, "status", text(), STAMP),  # of the ``reach`` object
                Column("spdx", TEXT, "spdx", text(), STAMP),  # of the ``reach`` object
                Column("stamp", TEXT),
            ],
            model="Repo",
        ),
        CODE_LINK,
        HARVESTED_REPO,
        Table(
            "entry",
            [
                Column("name", TEXT, stored="CodeEntry.name"),
                Column("slug", TEXT, group=STAMP),
                Column("claim", TEXT, group=STAMP),  # stated by the entry's own document only
                Column("stamp", TEXT),
                Column("doc_url", TEXT),
            ],
            model="CodeEntry",
        ),
        BODY,
        SAMPLE,
        # A curator's correction with its history, from a corrections document (dump_snapshot's):
        # merged by hand (loader.merge.corrections), after the rows it corrects.
        Table(
            "correction",
            [
                Column("field", TEXT),
                Column("pkey", TEXT),  # the paper; of a place: with its body and entry
                Column("sha", TEXT, stored="CodeBody.sha256_prefix"),
                Column("entry_name", TEXT, stored="CodeEntry.name"),
                Column("value", TEXT),
                Column("previous_value", TEXT),
                Column("upstream_value", TEXT),
                Column("reason", TEXT),
                Column("curator_name", TEXT, stored="Correction.curator_name"),
                Column("created_at", TIMESTAMP),
                Column("removed_at", TIMESTAMP),
                Column("removed_by_name", TEXT, stored="Correction.removed_by_name"),
                Column("removal_reason", TEXT),
                Column("doc_url", TEXT),
                Column("rec", INTEGER),
            ],
        ),
    )
}


def max_chars(table: str, column: str) -> int:
    """How many characters ``stg_<table>.<column>`` holds (:meth:`Table.max_chars`)."""
    return TABLES[table].max_chars(column)


# What a document says of itself that no model holds, by document kind: kept on its
# SourceDocument (``extra``) and written back by dump_snapshot. A dotted name is a field of
# a nested object (``syntology.read_at_is``).
EXTRA_FIELDS = {
    "code_entry": ("status_vocabulary", "units", "syntology"),
    "paper": ("syntology.repo_kind_vocabulary", "syntology.read_at_is"),
}
