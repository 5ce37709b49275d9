"""The MCP server's tools: read-only, anonymous, bounded, over the reads the pages and the API use.

Most tools are the API's own answers: each asks the API view for its address (``catalogue.api``:
its reads, filters, serializers, strict parameters and figures) inside the MCP request, exactly
as a page's JSON form does, so no filter or figure is written twice. What the API does not
answer, a tool reads through the page's own read: a leaderboard ranked by a metric
(``reads.leaderboards.ranked`` and ``metrics.direction``: the board page's ranking and metric direction)
and a code body's text (``reads.code.body_code``, where the body page shows it).

Every result carries ``schema_version``, the attribution and the licence, the address of the
page it comes from, and at most ``MAX_ROWS`` rows of any list, with ``next_cursor`` (null at the
end) to pass back for the next rows. A bad argument or an unknown id is a tool error whose text
says which (``is_error``), never a traceback. The HTTP request counts once against the API's
anonymous rate (``catalogue.agents.views``); the reads it makes inside do not count again.
"""

import re
from typing import Annotated, Any
from urllib.parse import urlencode

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from catalogue import attribution, identities, metrics, reads
from catalogue.agents.calls import (
    API,
    MAX_ROWS,
    Cursor,
    Missing,
    api_answer,
    api_list,
    decode_cursor,
    encode_cursor,
    envelope,
    paper_id,
    quote_part,
    run,
)
from catalogue.models import CodeBody, Leaderboard

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

INSTRUCTIONS = (
    "Code with Papers: machine-learning papers linked to their code, with leaderboards and what "
    "running the harvested code showed (statuses; 'ran' never means 'correct'). Every list gives at "
    f"most {MAX_ROWS} rows and a next_cursor to pass back. A metric's direction is 'higher', "
    "'lower' or 'unknown' (never guessed). A code body's text is given only where its licence lets "
    f"it be shown. {attribution.NOTICE} Licence: {attribution.LICENCE} ({attribution.LICENCE_URL})."
)

server = MCPServer(
    name="codewithpapers",
    title="Code with Papers",
    instructions=INSTRUCTIONS,
    website_url=attribution.SITE,
)


# --- papers ---------------------------------------------------------------------------------------


@server.tool(annotations=READ_ONLY)
async def search_papers(
    query: Annotated[
        str, Field(description="words (title, authors, abstract), an arXiv id, or a paper's URL")
    ],
    cursor: Cursor = None,
) -> dict[str, Any]:
    """Find papers by words, an arXiv id (1811.06965, with or without version) or a URL (arxiv.org,
    this site's /paper/ pages). Best matches first."""

    def work(request):
        text = query.strip()
        if not text:
            raise ToolError("bad arguments: query: empty")
        by_id = identities.normalize_arxiv_id(text) or (
            identities.arxiv_id_in(text) if "://" in text else None
        )
        if "://" in text and not by_id:
            paper = api_answer(request, f"{API}papers/{quote_part(paper_id(text))}/")
            return envelope(request, f"/paper/{paper['id']}", rows=[paper], next_cursor=None, count=1)
        filters = {"arxiv_id": by_id} if by_id else {"q": text}
        found = api_list(request, f"{API}papers/", filters, cursor, by_rank=True)
        return envelope(request, f"/search?{urlencode({'q': text})}", **found)

    return await run(work)


@server.tool(annotations=READ_ONLY)
async def get_paper(
    paper: Annotated[str, Field(description="the paper's id (slug), arXiv id or URL")],
) -> dict[str, Any]:
    """A paper: its metadata and figures; its code links (official or not, framework, who states
    them); its leaderboard results with their ranks; its harvested code samples with their statuses
    and licences; and what curators corrected. Each list gives its first rows and the tool that
    pages through the rest."""

    def work(request):
        pid = paper_id(paper)
        base = f"{API}papers/{quote_part(pid)}/"
        detail = api_answer(request, base)
        slug = detail["id"]
        links = api_list(request, f"{API}papers/{quote_part(slug)}/repositories/", {}, None)
        results = api_list(request, f"{API}papers/{quote_part(slug)}/results/", {}, None)
        samples = api_list(request, f"{API}papers/{quote_part(slug)}/samples/", {}, None)
        corrected_places = [s for s in samples["rows"] if s.get("corrected")]
        return envelope(
            request,
            f"/paper/{slug}",
            paper=detail,
            code_links=links,
            results=results,
            samples={**samples, "more": {"tool": "list_samples", "arguments": {"paper": slug}}},
            corrections={
                "paper": detail.get("corrected") or {},
                "places": [
                    {"code_sha256_prefix": s["code_sha256_prefix"], **s["corrected"]}
                    for s in corrected_places
                ],
                "history": request.build_absolute_uri(f"/corrections/?{urlencode({'paper': slug})}"),
            },
        )

    return await run(work)


@server.tool(annotations=READ_ONLY)
async def list_papers(
    task: Annotated[str | None, Field(description="task id (image-classification)")] = None,
    method: Annotated[str | None, Field(description="method id (adam)")] = None,
    dataset: Annotated[str | None, Field(description="dataset id or name (cifar-10)")] = None,
    year: Annotated[int | None, Field(description="publication year", ge=1900, le=2200)] = None,
    has_code: Annotated[
        bool | None, Field(description="only papers with (true) or without (false) code")
    ] = None,
    ran: Annotated[
        bool | None, Field(description="only papers with (true) or without (false) a sample that ran")
    ] = None,
    cursor: Cursor = None,
) -> dict[str, Any]:
    """Papers, by id, filtered as the API's /papers/ list filters them."""

    def work(request):
        filters = {
            "task": task,
            "method": method,
            "dataset": dataset,
            "year_min": year,
            "year_max": year,
            "has_code": None if has_code is None else str(has_code).lower(),
            "ran": None if ran is None else str(ran).lower(),
        }
        found = api_list(request, f"{API}papers/", filters, cursor)
        return envelope(request, "/papers/", **found)

    return await run(work)


# --- code -----------------------------------------------------------------------------------------


@server.tool(annotations=READ_ONLY)
async def get_code_entry(
    entry: Annotated[str, Field(description="the code entry's id (forward-step-func)")],
) -> dict[str, Any]:
    """A code entry (one routine name across papers) with its figures: places, papers, bodies,
    bodies that ran, places by status."""

    def work(request):
        data = api_answer(request, f"{API}code-entries/{quote_part(entry)}/")
        more = {"tool": "list_samples", "arguments": {"entry": data["id"]}}
        return envelope(request, f"/code/{data['id']}", entry=data, samples=more)

    return await run(work)


@server.tool(annotations=READ_ONLY)
async def get_code_body(
    body: Annotated[str, Field(description="the code body's code_sha256_prefix (16 hex digits)")],
    cursor: Cursor = None,
) -> dict[str, Any]:
    """A code body: its places (paper, entry, repository, status, licence) and its text, given only
    where a place's licence lets it be shown, exactly as the body's page decides; otherwise where
    to get it (file URLs; Syntology's get_code)."""

    def work(request):
        prefix = body.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{16}", prefix):
            raise ToolError("bad arguments: body: a code body is named by 16 lower-case hex digits")
        places = api_list(request, f"{API}samples/", {"body": prefix}, cursor)
        found = CodeBody.objects.defer("code").filter(sha256_prefix=prefix).first()
        if found is None:
            raise Missing(f"no code body {prefix!r}")
        shown = reads.code.body_code(found)
        if shown.shown_from:
            place = shown.shown_from
            code = {
                "text": place.body.code,
                "language": place.body.code_language or "",
                "shown_from": {
                    "paper": place.paper.slug,
                    "repository": place.repo.full_name if place.repo else None,
                    "licence": place.licence,
                },
            }
        else:
            code = None
        return envelope(
            request,
            f"/body/{prefix}",
            code_sha256_prefix=prefix,
            code=code,
            code_note=None if code else "not shown: no place of this body may show its text (pointer only)",
            file_urls=shown.file_urls,
            places=places,
        )

    return await run(work)


@server.tool(annotations=READ_ONLY)
async def list_samples(
    status: Annotated[str | None, Field(description="a status (ran, unverified, …)")] = None,
    entry: Annotated[str | None, Field(description="a code entry's id")] = None,
    repository: Annotated[
        str | None, Field(description="a repository as owner/name (GitHub) or host/owner/name")
    ] = None,
    paper: Annotated[str | None, Field(description="a paper's id or arXiv id")] = None,
    cursor: Cursor = None,
) -> dict[str, Any]:
    """Harvested code samples (places): by status, and within one code entry, repository or paper
    (at most one of these three)."""

    def work(request):
        given = [
            name for name, value in (("entry", entry), ("repository", repository), ("paper", paper)) if value
        ]
        if len(given) > 1:
            raise ToolError(
                f"bad arguments: give at most one of entry, repository, paper (got {', '.join(given)})"
            )
        filters: dict = {"status": status}
        if entry:
            path, page = f"{API}code-entries/{quote_part(entry)}/samples/", f"/code/{entry}"
        elif repository:
            parts = repository.strip("/").split("/")
            if len(parts) == 2:
                host, (owner, name) = None, parts
            elif len(parts) == 3:
                host, owner, name = parts
            else:
                raise ToolError("bad arguments: repository: give owner/name or host/owner/name")
            path, page = (
                f"{API}repositories/{quote_part(owner)}/{quote_part(name)}/samples/",
                f"/repo/{owner}/{name}",
            )
            filters["host"] = host
        elif paper:
            pid = paper_id(paper)
            path, page = f"{API}papers/{quote_part(pid)}/samples/", f"/paper/{pid}"
        else:
            path, page = f"{API}samples/", ""
        return envelope(request, page, **api_list(request, path, filters, cursor))

    return await run(work)


# --- leaderboards ---------------------------------------------------------------------------------


def _cursor_offset(cursor: str | None, key: str) -> int:
    if not cursor:
        return 0
    params = dict(decode_cursor(cursor, key))
    try:
        return max(0, int(params.get("offset", "0")))
    except ValueError:
        raise ToolError("bad arguments: cursor: not a cursor this server gave out") from None


def _ranked(found, board: str, metric: str | None, min_value: float | None, max_value: float | None):
    """The board's rows (their metrics only), its ranking metric, the metrics its rows state and
    the rows in rank order; a tool error where the metric or the bounds ask what the board lacks."""
    # The page's ranking (reads.leaderboards.ranked) over each row's metrics only, as the API's best_rank
    # reads them; the full rows are read for the window shown.
    light = list(
        found.results.order_by(*reads.leaderboards.board_row_order()).only(
            "id", "paper_id", "metrics", "code_links"
        )
    )
    ranking, names, ordered = reads.leaderboards.ranked(found, light, metric or "")
    if metric and ranking != metric:
        raise ToolError(
            f"bad arguments: metric: no result on {board} states {metric!r}; its metrics: " + ", ".join(names)
        )
    if (min_value is not None or max_value is not None) and not ranking:
        raise ToolError("bad arguments: min_value/max_value: this board's results state no metric")
    return light, ranking, names, ordered


def _within(ranked: list, ranking: str, min_value: float | None, max_value: float | None) -> list:
    """The (rank, row) pairs whose ranking metric's value is within the bounds given (all without)."""
    if min_value is None and max_value is None:
        return ranked
    kept = []
    for rank, result in ranked:
        value = metrics.parse((result.metrics or {}).get(ranking))
        if value is None or (min_value is not None and value < min_value):
            continue
        if max_value is not None and value > max_value:
            continue
        kept.append((rank, result))
    return kept


def _board_rows(found, window: list, ranking: str, with_code: set) -> list[dict]:
    """The window's rows in full (read for it alone), each with its rank on the whole board."""
    full = found.results.select_related("paper").in_bulk([r.pk for _, r in window])
    rows = []
    for rank, light_row in window:
        result = full[light_row.pk]
        rows.append(
            {
                "rank": rank,
                "model": result.model,
                "paper": result.paper.slug if result.paper else None,
                "paper_title": reads.leaderboards.result_source(result),
                "value": (result.metrics or {}).get(ranking) if ranking else None,
                "metrics": result.metrics or {},
                "has_code": result.pk in with_code,
                "uses_additional_data": result.uses_additional_data,
            }
        )
    return rows


def _board_summary(found, ranking: str, names: list, n_results: int) -> dict:
    direction = metrics.direction(ranking) if ranking else None
    return {
        "id": found.slug,
        "task": found.task.slug,
        "dataset": found.dataset.name,
        "metric": ranking,
        "direction": direction or "unknown",
        "metrics": names,
        "n_results": n_results,
    }


@server.tool(annotations=READ_ONLY)
async def get_leaderboard(
    board: Annotated[str, Field(description="the leaderboard's id (image-classification-on-imagenet)")],
    metric: Annotated[
        str | None, Field(description="rank by this metric (its name as the board states it)")
    ] = None,
    min_value: Annotated[
        float | None, Field(description="only rows whose ranking metric is at least this")
    ] = None,
    max_value: Annotated[
        float | None, Field(description="only rows whose ranking metric is at most this")
    ] = None,
    with_code_only: Annotated[bool, Field(description="only rows whose paper has code")] = False,
    cursor: Cursor = None,
) -> dict[str, Any]:
    """A leaderboard ranked as its page ranks it (by ``metric`` when given, else the board's
    ranking metric): the metric's direction is 'higher', 'lower' or 'unknown' (from its name; an
    unknown one is kept in the archive's order, never guessed). Rows keep their rank on the whole
    board; thresholds apply to the ranking metric's value."""

    def work(request):
        found = Leaderboard.objects.select_related("task", "dataset").filter(slug=board).first()
        if found is None:
            raise Missing(f"no leaderboard {board!r}")
        light, ranking, names, ordered = _ranked(found, board, metric, min_value, max_value)
        ranked = _within(list(enumerate(ordered, start=1)), ranking, min_value, max_value)
        # The board page's code rule (reads.leaderboards.row_code: the paper's links, else the table
        # row's own), so "with code only" keeps the rows the page's ?code=1 keeps.
        code = reads.leaderboards.code_of_papers_on(found)
        with_code = {r.pk for _, r in ranked if reads.leaderboards.has_code(r, code)}
        if with_code_only:
            ranked = [(rank, r) for rank, r in ranked if r.pk in with_code]
        key = f"board:{board}?" + urlencode(
            [("metric", ranking or ""), ("min", min_value), ("max", max_value), ("code", with_code_only)]
        )
        start = _cursor_offset(cursor, key)
        window = ranked[start : start + MAX_ROWS]
        following = start + MAX_ROWS
        return envelope(
            request,
            f"/sota/{found.slug}",
            leaderboard=_board_summary(found, ranking, names, len(light)),
            count=len(ranked),
            rows=_board_rows(found, window, ranking, with_code),
            next_cursor=(
                encode_cursor(key, [("offset", str(following))]) if following < len(ranked) else None
            ),
        )

    return await run(work)


@server.tool(annotations=READ_ONLY)
async def get_related_papers(
    paper: Annotated[str, Field(description="the paper's id (slug), arXiv id or URL")],
) -> dict[str, Any]:
    """Papers related to this one by what only this catalogue knows: sharing a harvested code body,
    then a repository, then a leaderboard; each paper once, by its strongest reason, at most 10."""

    def work(request):
        name = paper_id(paper)
        data = api_answer(request, f"{API}papers/{quote_part(name)}/related/")
        return envelope(request, f"/paper/{data['paper']}", paper=data["paper"], rows=data["results"])

    return await run(work)


# --- tasks, methods, datasets ---------------------------------------------------------------------


def _vocabulary_tools(kind: str, api_kind: str, page_kind: str, example: str):
    async def lister(
        q: Annotated[str | None, Field(description=f"words in the {kind}'s name")] = None,
        cursor: Cursor = None,
    ) -> dict[str, Any]:
        def work(request):
            return envelope(
                request, f"/{api_kind}/", **api_list(request, f"{API}{api_kind}/", {"q": q}, cursor)
            )

        return await run(work)

    async def getter(
        id: Annotated[str, Field(description=f"the {kind}'s id ({example})")],
    ) -> dict[str, Any]:
        def work(request):
            data = api_answer(request, f"{API}{api_kind}/{quote_part(id)}/")
            more = {}
            if api_kind in ("tasks", "datasets"):
                more["leaderboards"] = api_list(
                    request, f"{API}{api_kind}/{quote_part(id)}/evaluations/", {}, None
                )
            return envelope(request, f"/{page_kind}/{data['id']}", **{kind: data}, **more)

        return await run(work)

    lister.__doc__ = f"{kind.capitalize()}s, by id, with words of their name (q)."
    getter.__doc__ = f"A {kind}" + (" and its leaderboards." if api_kind != "methods" else ".")
    server.tool(name=f"list_{api_kind}", annotations=READ_ONLY)(lister)
    server.tool(name=f"get_{kind}", annotations=READ_ONLY)(getter)


_vocabulary_tools("task", "tasks", "task", "image-classification")
_vocabulary_tools("method", "methods", "method", "adam")
_vocabulary_tools("dataset", "datasets", "dataset", "imagenet")


# --- the catalogue itself -------------------------------------------------------------------------


@server.tool(annotations=READ_ONLY)
async def get_catalogue_status(cursor: Cursor = None) -> dict[str, Any]:
    """The data: its version (changes with every load and correction), when it was last loaded,
    the sources' snapshots, what it holds, and the history of every load (newest first)."""

    def work(request):
        from catalogue import caching

        summary = api_answer(request, f"{API}data/")
        loads = api_list(request, f"{API}loads/", {}, cursor)
        return envelope(
            request, "/data/", data_version=str(caching.data_version()), data=summary, loads=loads
        )

    return await run(work)


TOOL_NAMES = sorted(tool.name for tool in server._tool_manager.list_tools())
