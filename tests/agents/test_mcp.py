"""The MCP server at /mcp, driven end to end by the official SDK's own client (``mcp.Client`` over
``mcp.client.streamable_http``) against a live server: the real protocol, no mocks. Every tool,
its bounds (at most 25 rows) and cursor, its errors (a clear message, never a traceback), the
throttle (the API's, per client address, trusted proxies included), and that a pointer-only
code body's text appears in no tool result."""

import asyncio
import json

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from catalogue import attribution, counters
from catalogue.agents import tools
from catalogue.agents.calls import MAX_ROWS, SCHEMA_VERSION
from catalogue.models import Paper, Task
from tests.conftest import SEEDS, load
from tests.factories import make_code_link, make_dataset, make_leaderboard, make_paper, make_result

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

GPIPE = "gpipe-efficient-training-of-giant-neural"
BIG_BOARD = "image-classification-on-big-board"
N_BOARD_ROWS = 60  # more than two pages of 25
N_EXTRA_PAPERS = 30


def run(url: str, script, headers: dict | None = None):
    """``script(client)`` (async) against the live server, with one connected SDK client over an
    HTTP client of its own, closed before the event loop is."""

    async def main():
        async with (
            create_mcp_http_client(headers=headers) as http,
            Client(streamable_http_client(url + "/mcp", http_client=http)) as client,
        ):
            return await script(client)

    return asyncio.run(main())


def ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    body = result.structured_content
    assert body["schema_version"] == SCHEMA_VERSION
    assert body["attribution"]["notice"] == attribution.NOTICE
    assert body["licence"] == {"name": attribution.LICENCE, "url": attribution.LICENCE_URL}
    return body


def error(result) -> str:
    assert result.is_error
    text = result.content[0].text
    assert "Traceback" not in text
    return text


def all_rows(body: dict) -> list[list]:
    """Every list of rows a result holds, at any depth."""
    found = []
    if isinstance(body, dict):
        for key, value in body.items():
            if key == "rows":
                found.append(value)
            else:
                found += all_rows(value)
    return found


@pytest.fixture
def site(live_server, settings):
    settings.API_THROTTLE_ANON = "off"
    load(*SEEDS)
    task = Task.objects.get(slug="image-classification")
    board = make_leaderboard(task=task, dataset=make_dataset(name="Big Board"), metrics=["Accuracy"])
    for n in range(N_BOARD_ROWS):
        paper = make_paper(title=f"Extra paper {n}") if n < N_EXTRA_PAPERS else None
        if paper is not None and n % 2 == 0:
            make_code_link(paper=paper)
        make_result(
            leaderboard=board, paper=paper, model=f"Model {n:02d}", metrics={"Accuracy": f"{50 + n}.0"}
        )
    counters.refresh(loaded=True)
    return live_server


def test_the_server_speaks_the_current_protocol_and_lists_read_only_tools(site):
    async def script(client):
        return client._session.protocol_version, (await client.list_tools()).tools

    version, listed = run(site.url, script)
    from mcp.types import LATEST_PROTOCOL_VERSION

    assert version == LATEST_PROTOCOL_VERSION
    assert sorted(t.name for t in listed) == tools.TOOL_NAMES
    for tool in listed:
        assert tool.annotations.read_only_hint is True, tool.name
        assert tool.annotations.destructive_hint is False, tool.name
        assert tool.description, tool.name


def test_every_tool_answers_from_the_apis_reads_bounded_with_attribution(site, api):
    calls = [
        ("search_papers", {"query": "pipeline parallelism"}),
        ("search_papers", {"query": "1811.06965v2"}),
        ("search_papers", {"query": "https://arxiv.org/abs/1811.06965"}),
        ("search_papers", {"query": f"https://codewithpapers.app/paper/{GPIPE}"}),
        ("get_paper", {"paper": GPIPE}),
        ("get_paper", {"paper": "1811.06965"}),
        ("get_related_papers", {"paper": "https://arxiv.org/abs/1811.06965"}),
        ("list_papers", {"task": "image-classification"}),
        ("list_papers", {"has_code": True, "year": 2018}),
        ("list_papers", {"ran": True}),
        ("get_code_entry", {"entry": "forward-step-func"}),
        ("get_code_body", {"body": "c233d4777fc58003"}),
        ("list_samples", {"status": "unverified"}),
        ("list_samples", {"entry": "forward-step-func"}),
        ("list_samples", {"repository": "pytorch/pippy"}),
        ("list_samples", {"paper": GPIPE}),
        ("get_leaderboard", {"board": "image-classification-on-imagenet"}),
        ("list_tasks", {"q": "classification"}),
        ("get_task", {"id": "image-classification"}),
        ("list_methods", {}),
        ("get_method", {"id": "gpipe"}),
        ("list_datasets", {}),
        ("get_dataset", {"id": "cifar-100"}),
        ("get_catalogue_status", {}),
    ]

    async def script(client):
        return [await client.call_tool(name, args) for name, args in calls]

    results = dict(zip([f"{n} {json.dumps(a)}" for n, a in calls], run(site.url, script), strict=True))
    bodies = {key: ok(result) for key, result in results.items()}
    assert {key.split()[0] for key in bodies} == set(tools.TOOL_NAMES)  # every tool called
    for key, body in bodies.items():
        for rows in all_rows(body):
            assert len(rows) <= MAX_ROWS, key

    def get(key):
        return next(body for k, body in bodies.items() if k.startswith(key))

    # the API's own answers, not a second reading of the data
    paper = get('get_paper {"paper": "gpipe')
    assert paper["paper"] == api.get(f"/api/v1/papers/{GPIPE}/").json()
    assert paper["results"]["rows"] == api.get(f"/api/v1/papers/{GPIPE}/results/").json()["results"]
    assert paper["code_links"]["rows"] == api.get(f"/api/v1/papers/{GPIPE}/repositories/").json()["results"]
    assert {s["status"] for s in paper["samples"]["rows"]} <= {"unverified", "ran", "ran_honours"} | {
        s["status"] for s in api.get(f"/api/v1/papers/{GPIPE}/samples/").json()["results"]
    }
    assert get('get_paper {"paper": "1811')["paper"]["id"] == GPIPE
    related = get("get_related_papers")
    assert related["paper"] == GPIPE
    assert related["rows"] == api.get(f"/api/v1/papers/{GPIPE}/related/").json()["results"]
    for query in ("1811.06965v2", "https://arxiv.org", "https://codewithpapers.app", "pipeline"):
        assert [p["id"] for p in get(f'search_papers {{"query": "{query}')["rows"]] == [GPIPE], query
    ran_ids = {p["id"] for p in get('list_papers {"ran"')["rows"]}
    assert ran_ids == set(Paper.objects.with_ran_samples().values_list("slug", flat=True)[:25])
    board = get('get_leaderboard {"board": "image-classification-on-imagenet')
    assert board["leaderboard"]["direction"] == "higher"
    assert board["rows"][0]["rank"] == 1
    assert get("get_task")["leaderboards"]["rows"]
    assert [b["id"] for b in get("get_dataset")["leaderboards"]["rows"]] == [
        "image-classification-on-cifar-100"
    ]
    status = get("get_catalogue_status")
    assert status["data_version"]
    assert status["loads"]["rows"]
    assert get("get_code_entry")["entry"]["id"] == "forward-step-func"


def test_a_list_walks_by_cursor_25_rows_at_a_time_without_gaps(site):
    async def walk(client, name, args):
        seen, cursor, calls = [], None, 0
        while True:
            body = ok(await client.call_tool(name, {**args, **({"cursor": cursor} if cursor else {})}))
            assert len(body["rows"]) <= MAX_ROWS
            seen += body["rows"]
            calls += 1
            cursor = body["next_cursor"]
            if not cursor:
                return seen, calls

    async def script(client):
        papers = await walk(client, "list_papers", {})
        board = await walk(client, "get_leaderboard", {"board": BIG_BOARD})
        low = await walk(client, "get_leaderboard", {"board": BIG_BOARD, "min_value": 60, "max_value": 79.5})
        coded = await walk(client, "get_leaderboard", {"board": BIG_BOARD, "with_code_only": True})
        return papers, board, low, coded

    (papers, n_paper_calls), (rows, n_board_calls), (low, _), (coded, _) = run(site.url, script)
    assert len(papers) == Paper.objects.count() == 13 + N_EXTRA_PAPERS
    assert len({p["id"] for p in papers}) == len(papers)
    assert n_paper_calls == -(-len(papers) // MAX_ROWS)
    assert n_board_calls == 3
    assert [r["rank"] for r in rows] == list(range(1, N_BOARD_ROWS + 1))
    assert [r["value"] for r in rows][:2] == [f"{50 + N_BOARD_ROWS - 1}.0", f"{50 + N_BOARD_ROWS - 2}.0"]
    assert sorted(float(r["value"]) for r in low) == [float(v) for v in range(60, 80)]
    assert all(r["has_code"] for r in coded)
    assert len(coded) == N_EXTRA_PAPERS // 2


def test_bad_arguments_and_unknown_ids_are_clear_errors(site):
    calls = [
        ("get_paper", {"paper": "no-such-paper"}, "no-such-paper"),
        ("get_paper", {"paper": ""}, "paper"),
        ("get_leaderboard", {"board": "no-such-board"}, "no-such-board"),
        ("get_leaderboard", {"board": BIG_BOARD, "metric": "BLEU"}, "BLEU"),
        ("get_code_body", {"body": "not-hex"}, "16 lower-case hex"),
        ("get_code_body", {"body": "0123456789abcdef"}, "0123456789abcdef"),
        ("list_papers", {"year": 10}, "year"),
        ("list_papers", {"task": "no-such-task"}, "task"),
        ("list_papers", {"cursor": "garbage!!"}, "cursor"),
        ("list_samples", {"entry": "forward-step-func", "paper": GPIPE}, "at most one"),
        ("list_samples", {"status": "flying"}, "status"),
        ("get_task", {"id": "no-such-task"}, "no-such-task"),
        ("search_papers", {"query": "   "}, "query"),
        ("no_such_tool", {}, "no_such_tool"),
    ]

    async def script(client):
        out = [await client.call_tool(name, args) for name, args, _ in calls]
        first = ok(await client.call_tool("list_papers", {}))
        # a cursor of one list is refused by another
        out.append(await client.call_tool("list_tasks", {"cursor": first["next_cursor"]}))
        out.append(
            await client.call_tool(
                "list_papers", {"task": "image-classification", "cursor": first["next_cursor"]}
            )
        )
        return out

    results = run(site.url, script)
    for (name, args, says), result in zip(calls, results, strict=False):
        assert says in error(result), (name, args, result.content[0].text)
    assert "another list" in error(results[-2])
    assert "another list" in error(results[-1])


def test_a_pointer_only_code_bodys_text_is_in_no_tool_result(site, tmp_path):
    from tests.code_bodies import CLOSED, MARKER, OPEN, SHA, entry_document, write

    load(write(tmp_path, "old.json", entry_document([OPEN, CLOSED])))
    shown_before = run(site.url, lambda c: c.call_tool("get_code_body", {"body": SHA}))
    assert MARKER in ok(shown_before)["code"]["text"]  # a place that may show it: shown
    # A newer reading: the only place that gave the text may no longer show it (held, never shown).
    newer = entry_document(
        [{**OPEN, "inline_ok": False, "code": None}, CLOSED], read_at="2027-01-01T00:00:00+00:00"
    )
    load(write(tmp_path, "new.json", newer))
    slugs = ["paper-1", "paper-2"]

    async def script(client):
        calls = [
            ("get_code_body", {"body": SHA}),
            ("get_code_entry", {"entry": "probe-routine"}),
            ("list_samples", {}),
            ("list_samples", {"entry": "probe-routine"}),
            ("list_samples", {"repository": "alice/open-repo"}),
            ("list_samples", {"repository": "bob/closed-repo"}),
            ("search_papers", {"query": "Paper"}),
            ("list_papers", {}),
            *[("get_paper", {"paper": slug}) for slug in slugs],
            *[("list_samples", {"paper": slug}) for slug in slugs],
        ]
        return [(name, await client.call_tool(name, args)) for name, args in calls]

    for name, result in run(site.url, script):
        ok(result)
        assert MARKER not in json.dumps(result.structured_content), name
        assert all(MARKER not in getattr(block, "text", "") for block in result.content), name
    body = ok(run(site.url, lambda c: c.call_tool("get_code_body", {"body": SHA})))
    assert body["code"] is None
    assert "pointer only" in body["code_note"]


def test_the_throttle_is_the_apis_per_client_behind_trusted_proxies(site, settings):
    settings.API_THROTTLE_ANON = "4/minute"
    settings.TRUSTED_PROXIES = 1

    async def until_refused(client):
        for n in range(10):
            try:
                result = await client.call_tool("list_tasks", {})
            except Exception as refused:  # the SDK raises on the HTTP 429
                return n, repr(refused)
            ok(result)
        return None, ""

    calls, why = run(site.url, until_refused, headers={"X-Forwarded-For": "203.0.113.5"})
    assert calls is not None, "never throttled"
    assert calls < 4
    assert "429" in why or "throttled" in why.lower()
    # the same client is refused by the API too: one allowance per client address
    refused = httpx2.get(f"{site.url}/api/v1/tasks/", headers={"X-Forwarded-For": "203.0.113.5"})
    assert refused.status_code == 429
    assert "Retry-After" in refused.headers
    # another client (as our proxy saw it) has its own allowance
    n_other, _ = run(site.url, until_refused, headers={"X-Forwarded-For": "198.51.100.7"})
    assert n_other == calls
    raw = httpx2.post(
        f"{site.url}/mcp",
        headers={"X-Forwarded-For": "203.0.113.5", "Accept": "application/json, text/event-stream"},
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    )
    assert raw.status_code == 429
    assert raw.json()["error"]["message"] == "Request was throttled."


def test_discovery_document_and_llms_txt(site):
    document = httpx2.get(f"{site.url}/.well-known/mcp").json()
    assert document["endpoint"] == f"{site.url}/mcp"
    assert document["tools"] == tools.TOOL_NAMES
    assert document["read_only"] is True
    assert document["limits"]["max_rows_per_call"] == MAX_ROWS
    text = httpx2.get(f"{site.url}/llms.txt")
    assert text.headers["content-type"] == "text/markdown; charset=utf-8"
    assert attribution.LICENCE_URL in text.headers["link"]
    for said in ("/mcp", ".md", "/api/v1/", "/.well-known/mcp", *tools.TOOL_NAMES):
        assert said in text.text, said


def test_only_post_is_served_and_a_malformed_body_is_a_json_rpc_error(site):
    for method in ("GET", "DELETE", "PUT"):
        response = httpx2.request(
            method, f"{site.url}/mcp", headers={"Accept": "text/event-stream"}, timeout=10
        )
        assert response.status_code == 405, method
        assert response.headers["allow"] == "POST"
    broken = httpx2.post(
        f"{site.url}/mcp",
        content=b"not json",
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
        timeout=10,
    )
    assert broken.status_code == 400
    assert broken.json()["error"]["code"] == -32700


def test_a_client_of_the_handshake_revisions_is_served_too(site):
    async def main():
        async with (
            create_mcp_http_client() as http,
            Client(streamable_http_client(site.url + "/mcp", http_client=http), mode="legacy") as client,
        ):
            return client._session.protocol_version, await client.call_tool(
                "get_task", {"id": "image-classification"}
            )

    version, result = asyncio.run(main())
    from mcp.types.version import LATEST_HANDSHAKE_VERSION

    assert version == LATEST_HANDSHAKE_VERSION
    assert ok(result)["task"]["id"] == "image-classification"
