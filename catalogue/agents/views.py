"""``/mcp`` (the MCP server, ``catalogue.agents.tools`` through ``catalogue.agents.bridge``), its
discovery document ``/.well-known/mcp``, and ``/llms.txt``: what the site is and how a program
reads it (Markdown forms, the API, the MCP server)."""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from rest_framework.request import Request

from catalogue import attribution
from catalogue.agents.bridge import AsgiBridge, asgi_scope
from catalogue.api.throttling import AnonThrottle
from catalogue.web.markdown_forms import CONTENT_TYPE as MARKDOWN

MCP_PATH = "/mcp"


def _build():
    from mcp.server.transport_security import TransportSecuritySettings

    from catalogue.agents.tools import server

    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        # Django has checked the Host against ALLOWED_HOSTS before this runs (the SDK's own check
        # allows only loopback names); the tools are anonymous reads, like the API, which any
        # origin may call (CORS): nothing for a rebinding attack to reach.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return app, server.session_manager


BRIDGE = AsgiBridge(_build)


def _throttled(request) -> HttpResponse | None:
    """The API's anonymous rate, per client address (config.client_address), one count per HTTP
    request to /mcp (a tool call is one); the API reads a tool makes inside are not counted again."""
    throttle = AnonThrottle()
    if throttle.allow_request(Request(request), None):
        return None
    wait = throttle.wait()
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": "Request was throttled."}}
    response = JsonResponse(body, status=429)
    if wait is not None:
        response["Retry-After"] = str(max(1, round(wait)))
    return response


@csrf_exempt
def mcp_endpoint(request):
    """The MCP server (Streamable HTTP, stateless, JSON answers): POST only. A GET would open a
    server-to-client event stream, which a stateless server has nothing to send on (it would hold
    a worker thread for as long as the client keeps it open); the protocol's answer for a server
    that offers none is 405."""
    if request.method != "POST":
        response = JsonResponse(
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32000, "message": "Method not allowed: POST only."},
            },
            status=405,
        )
        response["Allow"] = "POST"
        return response
    refused = _throttled(request)
    if refused is not None:
        return refused
    return BRIDGE.respond(request, asgi_scope(request, MCP_PATH))


@require_safe
def well_known_mcp(request):
    """Where the MCP server is and what it offers, for a client that finds the site first."""
    from mcp.types import LATEST_PROTOCOL_VERSION

    from catalogue.agents.calls import MAX_ROWS, SCHEMA_VERSION
    from catalogue.agents.tools import INSTRUCTIONS, TOOL_NAMES

    document = {
        "name": "codewithpapers",
        "title": "Code with Papers",
        "description": INSTRUCTIONS,
        "endpoint": request.build_absolute_uri(MCP_PATH),
        "transport": "streamable-http",
        "protocol_version": LATEST_PROTOCOL_VERSION,
        "authentication": None,
        "read_only": True,
        "tools": TOOL_NAMES,
        "limits": {"max_rows_per_call": MAX_ROWS, "rate": "the API's anonymous rate per client address"},
        "schema_version": SCHEMA_VERSION,
        "documentation": request.build_absolute_uri("/llms.txt"),
        "licence": {"name": attribution.LICENCE, "url": attribution.LICENCE_URL},
        "attribution": request.build_absolute_uri(attribution.ATTRIBUTION_PATH),
    }
    return HttpResponse(json.dumps(document, indent=2), content_type="application/json")


@require_safe
def llms_txt(request):
    """/llms.txt (llmstxt.org): the site for language models and the programs that drive them."""
    from catalogue.agents.calls import MAX_ROWS
    from catalogue.agents.tools import TOOL_NAMES

    site = request.build_absolute_uri("/").rstrip("/")
    tools = "\n".join(f"- `{name}`" for name in TOOL_NAMES)
    text = f"""# Code with Papers

> A public catalogue of machine-learning papers linked to their code: leaderboards (task × dataset),
> methods, datasets, and what running the harvested code showed (each sample's status; "ran"
> never means "correct"), with curators' corrections. {attribution.NOTICE}

Licence of the data: {attribution.LICENCE} ({attribution.LICENCE_URL});
attribution: {site}{attribution.ATTRIBUTION_PATH}.
Every JSON and Markdown answer names the licence in a `Link: <…>; rel="license"` header.

## Markdown forms

Every page that has a JSON form has a Markdown form: add `.md` to its address, or ask with
`Accept: text/markdown` (`.json` or `Accept: application/json` for JSON). A code body's text
appears only where its licence lets it be shown.

- [A paper]({site}/paper/gpipe-efficient-training-of-giant-neural.md): metadata, code links, figures
- [Papers]({site}/papers.md): the list (filters: task, method, year, has_code, official)
- [A code entry]({site}/code/forward-step-func.md), [a code body]({site}/body/c233d4777fc58003.md)
- [A leaderboard]({site}/sota/image-classification-on-imagenet.md)
- [A task]({site}/task/image-classification.md), [a method]({site}/method/adam.md)
- [A dataset]({site}/dataset/imagenet.md); authors by exact name or slug ({site}/author/yanping-huang)

## API

- [API root]({site}/api/v1/): JSON, Papers-with-Code v1 paths (its client works unchanged), cursor pagination
- [OpenAPI schema]({site}/api/v1/schema/), [docs]({site}/api/docs/)
- [The data and its loads]({site}/api/v1/data/)

## MCP server

- Endpoint: {site}{MCP_PATH} (Streamable HTTP, stateless, anonymous, read-only)
- Discovery document: {site}/.well-known/mcp; the tools and their arguments: docs/MCP.md
- At most {MAX_ROWS} rows a call, with `next_cursor`; results carry `schema_version`, attribution and licence
- The API's anonymous rate per client address applies (429 past it)

Tools:
{tools}
"""
    return HttpResponse(text, content_type=MARKDOWN)


def urls():
    from django.urls import path

    return [
        path("mcp", mcp_endpoint, name="mcp"),
        path(".well-known/mcp", well_known_mcp, name="well_known_mcp"),
        path("llms.txt", llms_txt, name="llms_txt"),
    ]


__all__ = ["llms_txt", "mcp_endpoint", "reverse", "urls", "well_known_mcp"]
