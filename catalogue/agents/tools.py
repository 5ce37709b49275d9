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

import base64
import binascii
import io
import json
import re
from typing import Annotated, Any
from urllib.parse import parse_qsl, unquote_to_bytes, urlencode, urlsplit

from django.core.handlers.wsgi import WSGIRequest
from django.urls import Resolver404, resolve
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from catalogue import attribution, identities, metrics, reads
from catalogue.agents.bridge import on_request_thread
from catalogue.models import CodeBody, Leaderboard

SCHEMA_VERSION = "1"
MAX_ROWS = 25
API = "/api/v1/"
# The WSGI environ key that marks the API reads a tool makes: its HTTP request was counted once
# (catalogue.api.throttling). Not an HTTP_* key, so no client can set it.
COUNTED = "cwp.mcp_counted"

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


# --- the API, asked from inside the MCP request ---------------------------------------------------


class _Missing(ToolError):
    pass


def _api(request, address: str, params: dict | list | None = None) -> dict:
    """The API's JSON answer at ``address`` (with ``params``), read for the client of ``request``."""
    path = address.split("?")[0]
    query = urlencode(
        [(k, v) for k, v in (params.items() if isinstance(params, dict) else params or []) if v != ""]
    )
    environ = {
        **request.environ,
        "REQUEST_METHOD": "GET",
        "PATH_INFO": unquote_to_bytes(path).decode("iso-8859-1"),
        "QUERY_STRING": query,
        "HTTP_ACCEPT": "application/json",
        "CONTENT_LENGTH": "0",
        "wsgi.input": io.BytesIO(b""),
        COUNTED: True,
    }
    environ.pop("CONTENT_TYPE", None)
    api_request = WSGIRequest(environ)
    try:
        match = resolve(api_request.path_info)
    except Resolver404:
        raise _Missing(f"nothing at {path}") from None
    api_request.resolver_match = match
    response = match.func(api_request, *match.args, **match.kwargs)
    if response.status_code in (301, 302) and response.get("Location", "").startswith(API):
        location = urlsplit(response["Location"])
        return _api(request, location.path, parse_qsl(location.query))  # an author's slug: its name
    if hasattr(response, "render"):
        response.render()
    data = json.loads(response.content or b"null")
    if response.status_code == 404:
        raise _Missing(_detail(data) or f"nothing at {path}")
    if response.status_code >= 400:
        raise ToolError(f"bad arguments: {_detail(data)}")
    return data


def _detail(data) -> str:
    if isinstance(data, dict):
        if "detail" in data:
            return str(data["detail"])
        return "; ".join(
            f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in data.items()
        )
    return str(data)


def _quote(part: str) -> str:
    from urllib.parse import quote

    return quote(part, safe="")


# --- cursors: the API's own next page, tied to the list it came from ------------------------------


def _encode_cursor(list_key: str, params: list[tuple[str, str]]) -> str:
    raw = json.dumps({"l": list_key, "q": params}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str, list_key: str) -> list[tuple[str, str]]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw)
        params = [(str(k), str(v)) for k, v in value["q"]]
        owner = value["l"]
    except (binascii.Error, ValueError, KeyError, TypeError):
        raise ToolError("bad arguments: cursor: not a cursor this server gave out") from None
    if owner != list_key:
        raise ToolError("bad arguments: cursor: it belongs to another list (pass the same arguments with it)")
    return params


def _page_params(view_path: str, filters: dict, *, by_rank: bool = False) -> list[tuple[str, str]]:
    """The first page's parameters: a cursor walk where the API list has one (``cursor_ordering``),
    page numbers where it has not or where rank order matters (a search)."""
    match = resolve(view_path)
    cursor_walk = getattr(getattr(match.func, "view_class", None), "cursor_ordering", None) and not by_rank
    params = [(k, str(v)) for k, v in filters.items() if v not in (None, "")]
    params.append(("items_per_page", str(MAX_ROWS)))
    if cursor_walk:
        params.append(("pagination", "cursor"))
    return params


def _list(request, path: str, filters: dict, cursor: str | None, *, by_rank: bool = False) -> dict:
    """At most MAX_ROWS rows of the API list at ``path`` and the cursor to the next ones."""
    key = path + "?" + urlencode(sorted((k, str(v)) for k, v in filters.items() if v not in (None, "")))
    if cursor:
        params = [(k, v) for k, v in _decode_cursor(cursor, key) if k != "items_per_page"]
        params.append(("items_per_page", str(MAX_ROWS)))
    else:
        params = _page_params(path, filters, by_rank=by_rank)
    data = _api(request, path, params)
    following = data.get("next")
    next_cursor = _encode_cursor(key, parse_qsl(urlsplit(following).query)) if following else None
    out = {"rows": data.get("results", [])[:MAX_ROWS], "next_cursor": next_cursor}
    if "count" in data:
        out["count"] = data["count"]
    return out


# --- what every result carries --------------------------------------------------------------------


def _envelope(request, page: str, **body) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "page": request.build_absolute_uri(page) if page else None,
        **body,
        "attribution": {
            "notice": attribution.NOTICE,
            "url": request.build_absolute_uri(attribution.ATTRIBUTION_PATH),
        },
        "licence": {"name": attribution.LICENCE, "url": attribution.LICENCE_URL},
        "limits": {"max_rows": MAX_ROWS, "rate": "the API's anonymous rate per client address (429 past it)"},
    }


async def _run(work) -> dict[str, Any]:
    return await on_request_thread(work)


def _paper_id(text: str) -> str:
    """A paper as the API names it: its slug or arXiv id, from either, or from an address of it."""
    text = (text or "").strip()
    if not text:
        raise ToolError("bad arguments: paper: give a slug, an arXiv id or a paper's URL")
    if "://" in text or text.startswith(("arxiv.org", "www.")):
        arxiv = identities.arxiv_id_in(text)
        if arxiv:
            return arxiv
        path = urlsplit(text if "://" in text else "https://" + text).path
        slug = identities.slug_from_path(path, "/paper/")
        if slug:
            return slug
        raise _Missing(f"no paper known by the address {text!r}")
    return identities.normalize_arxiv_id(text) or text


Cursor = Annotated[
    str | None, Field(description="next_cursor from the previous call of this list, else omit")
]


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
            paper = _api(request, f"{API}papers/{_quote(_paper_id(text))}/")
            return _envelope(request, f"/paper/{paper['id']}", rows=[paper], next_cursor=None, count=1)
        filters = {"arxiv_id": by_id} if by_id else {"q": text}
        found = _list(request, f"{API}papers/", filters, cursor, by_rank=True)
        return _envelope(request, f"/search?{urlencode({'q': text})}", **found)

    return await _run(work)


@server.tool(annotations=READ_ONLY)
async def get_paper(
    paper: Annotated[str, Field(description="the paper's id (slug), arXiv id or URL")],
) -> dict[str, Any]:
    """A paper: its metadata and figures; its code links (official or not, framework, who states
    them); its leaderboard results with their ranks; its harvested code samples with their statuses
    and licences; and what curators corrected. Each list gives its first rows and the tool that
    pages through the rest."""

    def work(request):
        pid = _paper_id(paper)
        base = f"{API}papers/{_quote(pid)}/"
        detail = _api(request, base)
        slug = detail["id"]
        links = _list(request, f"{API}papers/{_quote(slug)}/repositories/", {}, None)
        results = _list(request, f"{API}papers/{_quote(slug)}/results/", {}, None)
        samples = _list(request, f"{API}papers/{_quote(slug)}/samples/", {}, None)
        corrected_places = [s for s in samples["rows"] if s.get("corrected")]
        return _envelope(
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

    return await _run(work)


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
        found = _list(request, f"{API}papers/", filters, cursor)
        return _envelope(request, "/papers/", **found)

    return await _run(work)


# --- code -----------------------------------------------------------------------------------------


@server.tool(annotations=READ_ONLY)
async def get_code_entry(
    entry: Annotated[str, Field(description="the code entry's id (forward-step-func)")],
) -> dict[str, Any]:
    """A code entry (one routine name across papers) with its figures: places, papers, bodies,
    bodies that ran, places by status."""

    def work(request):
        data = _api(request, f"{API}code-entries/{_quote(entry)}/")
        more = {"tool": "list_samples", "arguments": {"entry": data["id"]}}
        return _envelope(request, f"/code/{data['id']}", entry=data, samples=more)

    return await _run(work)


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
        places = _list(request, f"{API}samples/", {"body": prefix}, cursor)
        found = CodeBody.objects.defer("code").filter(sha256_prefix=prefix).first()
        if found is None:
            raise _Missing(f"no code body {prefix!r}")
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
        return _envelope(
            request,
            f"/body/{prefix}",
            code_sha256_prefix=prefix,
            code=code,
            code_note=None if code else "not shown: no place of this body may show its text (pointer only)",
            file_urls=shown.file_urls,
            places=places,
        )

    return await _run(work)


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
            path, page = f"{API}code-entries/{_quote(entry)}/samples/", f"/code/{entry}"
        elif repository:
            parts = repository.strip("/").split("/")
            if len(parts) == 2:
                host, (owner, name) = None, parts
            elif len(parts) == 3:
                host, owner, name = parts
            else:
                raise ToolError("bad arguments: repository: give owner/name or host/owner/name")
            path, page = f"{API}repositories/{_quote(owner)}/{_quote(name)}/samples/", f"/repo/{owner}/{name}"
            filters["host"] = host
        elif paper:
            pid = _paper_id(paper)
            path, page = f"{API}papers/{_quote(pid)}/samples/", f"/paper/{pid}"
        else:
            path, page = f"{API}samples/", ""
        return _envelope(request, page, **_list(request, path, filters, cursor))

    return await _run(work)


# --- leaderboards ---------------------------------------------------------------------------------


def _cursor_offset(cursor: str | None, key: str) -> int:
    if not cursor:
        return 0
    params = dict(_decode_cursor(cursor, key))
    try:
        return max(0, int(params.get("offset", "0")))
    except ValueError:
        raise ToolError("bad arguments: cursor: not a cursor this server gave out") from None


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
            raise _Missing(f"no leaderboard {board!r}")
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
                f"bad arguments: metric: no result on {board} states {metric!r}; its metrics: "
                + ", ".join(names)
            )
        if (min_value is not None or max_value is not None) and not ranking:
            raise ToolError("bad arguments: min_value/max_value: this board's results state no metric")
        ranked = list(enumerate(ordered, start=1))
        if min_value is not None or max_value is not None:
            kept = []
            for rank, result in ranked:
                value = metrics.parse((result.metrics or {}).get(ranking))
                if value is None or (min_value is not None and value < min_value):
                    continue
                if max_value is not None and value > max_value:
                    continue
                kept.append((rank, result))
            ranked = kept
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
        full = found.results.select_related("paper").in_bulk([r.pk for _, r in window])
        following = start + MAX_ROWS
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
        direction = metrics.direction(ranking) if ranking else None
        return _envelope(
            request,
            f"/sota/{found.slug}",
            leaderboard={
                "id": found.slug,
                "task": found.task.slug,
                "dataset": found.dataset.name,
                "metric": ranking,
                "direction": direction or "unknown",
                "metrics": names,
                "n_results": len(light),
            },
            count=len(ranked),
            rows=rows,
            next_cursor=(
                _encode_cursor(key, [("offset", str(following))]) if following < len(ranked) else None
            ),
        )

    return await _run(work)


@server.tool(annotations=READ_ONLY)
async def get_related_papers(
    paper: Annotated[str, Field(description="the paper's id (slug), arXiv id or URL")],
) -> dict[str, Any]:
    """Papers related to this one by what only this catalogue knows: sharing a harvested code body,
    then a repository, then a leaderboard; each paper once, by its strongest reason, at most 10."""

    def work(request):
        name = _paper_id(paper)
        data = _api(request, f"{API}papers/{_quote(name)}/related/")
        return _envelope(request, f"/paper/{data['paper']}", paper=data["paper"], rows=data["results"])

    return await _run(work)


# --- tasks, methods, datasets ---------------------------------------------------------------------


def _vocabulary_tools(kind: str, api_kind: str, page_kind: str, example: str):
    async def lister(
        q: Annotated[str | None, Field(description=f"words in the {kind}'s name")] = None,
        cursor: Cursor = None,
    ) -> dict[str, Any]:
        def work(request):
            return _envelope(
                request, f"/{api_kind}/", **_list(request, f"{API}{api_kind}/", {"q": q}, cursor)
            )

        return await _run(work)

    async def getter(
        id: Annotated[str, Field(description=f"the {kind}'s id ({example})")],
    ) -> dict[str, Any]:
        def work(request):
            data = _api(request, f"{API}{api_kind}/{_quote(id)}/")
            more = {}
            if api_kind in ("tasks", "datasets"):
                more["leaderboards"] = _list(request, f"{API}{api_kind}/{_quote(id)}/evaluations/", {}, None)
            return _envelope(request, f"/{page_kind}/{data['id']}", **{kind: data}, **more)

        return await _run(work)

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

        summary = _api(request, f"{API}data/")
        loads = _list(request, f"{API}loads/", {}, cursor)
        return _envelope(
            request, "/data/", data_version=str(caching.data_version()), data=summary, loads=loads
        )

    return await _run(work)


TOOL_NAMES = sorted(tool.name for tool in server._tool_manager.list_tools())
