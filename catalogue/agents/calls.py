"""What every MCP tool is made of: the API asked from inside the MCP request, its lists walked
by cursors tied to the list they came from, the envelope every result carries, and a paper named
any way a client may name it (``catalogue.agents.tools`` holds the tools themselves)."""

import base64
import binascii
import io
import json
from typing import Annotated, Any
from urllib.parse import parse_qsl, unquote_to_bytes, urlencode, urlsplit

from django.core.handlers.wsgi import WSGIRequest
from django.urls import Resolver404, resolve
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from catalogue import attribution, identities
from catalogue.agents.bridge import on_request_thread

SCHEMA_VERSION = "1"
MAX_ROWS = 25
API = "/api/v1/"
# The WSGI environ key that marks the API reads a tool makes: its HTTP request was counted once
# (catalogue.api.throttling). Not an HTTP_* key, so no client can set it.
COUNTED = "cwp.mcp_counted"


# --- the API, asked from inside the MCP request ---------------------------------------------------


class Missing(ToolError):
    pass


def api_answer(request, address: str, params: dict | list | None = None) -> dict:
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
        raise Missing(f"nothing at {path}") from None
    api_request.resolver_match = match
    response = match.func(api_request, *match.args, **match.kwargs)
    if response.status_code in (301, 302) and response.get("Location", "").startswith(API):
        location = urlsplit(response["Location"])
        return api_answer(request, location.path, parse_qsl(location.query))  # an author's slug: its name
    if hasattr(response, "render"):
        response.render()
    data = json.loads(response.content or b"null")
    if response.status_code == 404:
        raise Missing(_detail(data) or f"nothing at {path}")
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


def quote_part(part: str) -> str:
    from urllib.parse import quote

    return quote(part, safe="")


# --- cursors: the API's own next page, tied to the list it came from ------------------------------


def encode_cursor(list_key: str, params: list[tuple[str, str]]) -> str:
    raw = json.dumps({"l": list_key, "q": params}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, list_key: str) -> list[tuple[str, str]]:
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


def api_list(request, path: str, filters: dict, cursor: str | None, *, by_rank: bool = False) -> dict:
    """At most MAX_ROWS rows of the API list at ``path`` and the cursor to the next ones."""
    key = path + "?" + urlencode(sorted((k, str(v)) for k, v in filters.items() if v not in (None, "")))
    if cursor:
        params = [(k, v) for k, v in decode_cursor(cursor, key) if k != "items_per_page"]
        params.append(("items_per_page", str(MAX_ROWS)))
    else:
        params = _page_params(path, filters, by_rank=by_rank)
    data = api_answer(request, path, params)
    following = data.get("next")
    next_cursor = encode_cursor(key, parse_qsl(urlsplit(following).query)) if following else None
    out = {"rows": data.get("results", [])[:MAX_ROWS], "next_cursor": next_cursor}
    if "count" in data:
        out["count"] = data["count"]
    return out


# --- what every result carries --------------------------------------------------------------------


def envelope(request, page: str, **body) -> dict[str, Any]:
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


async def run(work) -> dict[str, Any]:
    return await on_request_thread(work)


def paper_id(text: str) -> str:
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
        raise Missing(f"no paper known by the address {text!r}")
    return identities.normalize_arxiv_id(text) or text


Cursor = Annotated[
    str | None, Field(description="next_cursor from the previous call of this list, else omit")
]
