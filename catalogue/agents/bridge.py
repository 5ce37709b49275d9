"""The MCP SDK's Streamable HTTP app (ASGI) served from a Django view, so ``/mcp`` is on the site's
own host and port under every server the site runs on: ``manage.py runserver`` (``make run``),
gunicorn's threaded WSGI workers (``make serve``, production) and the tests' live server, with
no second server, process or port, and every middleware of the site (Host check, request bounds,
the request log) in front of it.

How: one event loop per process, in a daemon thread, runs the SDK's session manager for the
life of the process. A request to ``/mcp`` is handed to the SDK's ASGI app on that loop as one
HTTP exchange (the server is stateless and answers JSON, not a stream: one POST in, one JSON
answer out, which a WSGI worker serves as any page). While the SDK works, the request's own
thread waits, and runs every piece of Django work a tool asks for (``on_request_thread``):
database reads happen on the request's thread and connection, as for any page, never on the
loop (Django's ORM refuses an event loop's thread) nor on a pool of threads with connections
of their own.
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any

from django.http import HttpResponse

_DONE = object()
# Longest an exchange may go without a word from the SDK (gunicorn's worker timeout is 30 s).
EXCHANGE_SECONDS = 25
# The waiting request of the exchange a tool runs in: its work queue and its Django request.
_EXCHANGE: contextvars.ContextVar[tuple[queue.SimpleQueue, Any]] = contextvars.ContextVar("mcp_exchange")


class NotInAnExchange(RuntimeError):
    pass


async def on_request_thread(work: Callable[[Any], Any]) -> Any:
    """Run ``work(request)`` on the thread of the HTTP request being answered (its Django request
    as argument); its result, or its exception, comes back here."""
    try:
        pending, request = _EXCHANGE.get()
    except LookupError:
        raise NotInAnExchange("no HTTP request is waiting for this tool call") from None
    loop = asyncio.get_running_loop()
    reply: asyncio.Future = loop.create_future()
    pending.put((lambda: work(request), reply))
    return await reply


def _settle(reply: asyncio.Future, ok: bool, value) -> None:
    if reply.cancelled():
        return
    if ok:
        reply.set_result(value)
    else:
        reply.set_exception(value)


class AsgiBridge:
    """Serves one ASGI app (and its session manager's ``run()``) to Django requests."""

    def __init__(self, build: Callable[[], tuple[Any, Any]]):
        self._build = build  # -> (asgi app, session manager)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._app: Callable[..., Any] | None = None

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                app, manager = self._build()
                loop = asyncio.new_event_loop()
                ready = threading.Event()
                failed: list[BaseException] = []

                async def main():
                    try:
                        async with manager.run():
                            ready.set()
                            await asyncio.Event().wait()  # for the life of the process
                    except BaseException as exc:
                        failed.append(exc)
                        ready.set()
                        raise

                def run():
                    asyncio.set_event_loop(loop)
                    loop.run_until_complete(main())

                threading.Thread(target=run, name="mcp-event-loop", daemon=True).start()
                ready.wait()
                if failed:
                    raise RuntimeError("the MCP session manager did not start") from failed[0]
                self._loop, self._app = loop, app
            return self._loop

    def respond(self, request, scope: dict) -> HttpResponse:
        """The ASGI app's answer to ``request`` (whose body is read here), as a Django response."""
        loop = self._started()
        pending: queue.SimpleQueue = queue.SimpleQueue()
        exchange = asyncio.run_coroutine_threadsafe(
            self._exchange(scope, request.body, pending, request), loop
        )
        while True:
            try:
                item = pending.get(timeout=EXCHANGE_SECONDS)
            except queue.Empty:
                exchange.cancel()
                return HttpResponse("The MCP server did not answer in time.", status=504)
            if item is _DONE:
                break
            work, reply = item
            try:
                value, ok = work(), True
            except Exception as exc:
                value, ok = exc, False
            loop.call_soon_threadsafe(_settle, reply, ok, value)
        status, headers, body = exchange.result()
        response = HttpResponse(body, status=status)
        for name, value in headers:
            if name.lower() not in {"content-length", "connection", "transfer-encoding"}:
                response[name] = value
        return response

    async def _exchange(self, scope, body: bytes, pending: queue.SimpleQueue, request):
        token = _EXCHANGE.set((pending, request))
        answered = asyncio.Event()
        given = False
        status, headers, chunks = 500, [], []

        async def receive():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await answered.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    answered.set()

        app = self._app
        assert app is not None, "respond() starts the bridge before any exchange"
        try:
            await app(scope, receive, send)
        finally:
            answered.set()
            _EXCHANGE.reset(token)
            pending.put(_DONE)
        return status, headers, b"".join(chunks)


def asgi_scope(request, path: str) -> dict:
    """An ASGI HTTP scope for a Django request (its headers as sent; its client as the site sees it)."""
    from config.client_address import client_address

    host, _, port = request.get_host().partition(":")
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()
    ]
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": path,
        "raw_path": path.encode(),
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "root_path": "",
        "headers": headers,
        "client": (client_address(request), 0),
        "server": (host, int(port) if port.isdigit() else (443 if request.is_secure() else 80)),
        "state": {},
    }
