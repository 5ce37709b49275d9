"""Related papers, by what only this catalogue knows (issue 37): papers that share a code body
with a paper (the same code, byte for byte, harvested from both), then papers the archive links
to one of its repositories, then papers with a result on one of its leaderboards. Each with the
reason (the strongest one, and how many such things the two share) and one example of it.

One query whatever the paper (one shape: three grouped joins, their union, the papers' titles),
at most ``LIMIT`` papers. The candidates are cut at ``CANDIDATES`` before the titles are joined:
a paper on a board of a thousand rows relates to a thousand papers, of which the page names ten.
"""

from dataclasses import dataclass
from types import SimpleNamespace

from django.db import connections, router
from django.urls import reverse

from catalogue.addresses import repo_path
from catalogue.models import Paper

LIMIT = 10
CANDIDATES = 3 * LIMIT  # per reason, before the papers are named; the strongest reasons first

REASONS = {
    1: ("code_body", "shares a code body", "shares {n} code bodies"),
    2: ("repository", "links the same repository", "links {n} of the same repositories"),
    3: ("leaderboard", "has a result on the same leaderboard", "has results on {n} of the same leaderboards"),
}


@dataclass(frozen=True)
class Related:
    slug: str
    title: str
    month: str
    reason: str  # "code_body", "repository", "leaderboard"
    n_shared: int  # how many of those the two share
    example: str  # one of them: a body's prefix, a repository's host/owner/name, a board's slug
    url: str

    @property
    def words(self) -> str:
        one, many = REASONS[_ORDER[self.reason]][1:]
        return one if self.n_shared == 1 else many.format(n=f"{self.n_shared:,}")

    @property
    def example_url(self) -> str:
        if self.reason == "code_body":
            return reverse("code_body", args=[self.example])
        if self.reason == "leaderboard":
            return reverse("leaderboard", args=[self.example])
        host, owner, name = self.example.split("/", 2)
        return repo_path(SimpleNamespace(host=host, owner=owner, name=name))

    @property
    def example_label(self) -> str:
        return self.example.split("/", 1)[1] if self.reason == "repository" else self.example


_ORDER = {key: order for order, (key, _, _) in REASONS.items()}

# Each reason is the same grouped join over the table linking papers to the thing shared: the
# other papers with a row on the same thing, how many things they share with this one, and the
# least of them (an example, the same one every time). %(cut)s rows each, strongest first.
# Per reason (REASONS' key): the linking table, its column naming the thing, the thing's table,
# the example (a column of the thing's table, ``t``), and the subquery's name.
_SHARED_THROUGH = [
    (1, "catalogue_sample", "body_id", "catalogue_codebody", "t.sha256_prefix", "bodies"),
    (2, "catalogue_codelink", "repo_id", "catalogue_repo", "t.host || '/' || t.owner || '/' || t.name",
     "repositories"),
    (3, "catalogue_result", "leaderboard_id", "catalogue_leaderboard", "t.slug", "boards"),
]  # fmt: skip
_REASON_SQL = """
  SELECT * FROM (
    SELECT {why} AS why, l2.paper_id AS other, COUNT(DISTINCT l2.{thing}) AS n, MIN({example}) AS example
    FROM {links} l1
    JOIN {links} l2 ON l2.{thing} = l1.{thing} AND l2.paper_id <> l1.paper_id
    JOIN {things} t ON t.id = l2.{thing}
    WHERE l1.paper_id = %(paper)s
    GROUP BY l2.paper_id ORDER BY 3 DESC, 2 LIMIT %(cut)s
  ) {name}"""
_REASONS_SQL = "\n  UNION ALL".join(
    _REASON_SQL.format(why=why, links=links, thing=thing, things=things, example=example, name=name)
    for why, links, thing, things, example, name in _SHARED_THROUGH
)
_SQL = f"""
SELECT u.why, u.other, u.n, u.example, p.slug, p.title, p.month FROM ({_REASONS_SQL}
) u JOIN catalogue_paper p ON p.id = u.other
ORDER BY u.why, u.n DESC, p.slug
"""


def related_papers(paper: Paper, limit: int = LIMIT) -> list[Related]:
    """Up to ``limit`` papers related to ``paper``, each once, by its strongest reason."""
    db = connections[paper._state.db or router.db_for_read(Paper)]
    with db.cursor() as cursor:
        cursor.execute(_SQL, {"paper": paper.pk, "cut": CANDIDATES})
        rows = cursor.fetchall()
    found: dict[str, Related] = {}
    for why, _, n, example, slug, title, month in rows:
        if slug in found:
            continue  # a stronger reason came first
        found[slug] = Related(
            slug=slug,
            title=title or slug,
            month=month or "",
            reason=REASONS[why][0],
            n_shared=n,
            example=example,
            url=reverse("paper", args=[slug]),
        )
        if len(found) == limit:
            break
    return list(found.values())
