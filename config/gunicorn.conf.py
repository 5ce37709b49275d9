"""gunicorn's settings for Code with Papers, from the environment (scripts/serve.sh runs it).

    gunicorn -c config/gunicorn.conf.py

PORT (8000) and HOST (127.0.0.1: loopback; a proxy or CDN sits in front) say where to listen;
WEB_CONCURRENCY worker processes (2 per core + 1) of GUNICORN_THREADS threads (4) each.
Threads suit this site: a request mostly waits on PostgreSQL or the cache, and each thread
keeps its own persistent database connection (CONN_MAX_AGE), so mind max_connections:
processes × workers × threads must stay under it.
"""

import multiprocessing
import os
import re

from config.settings import TRUSTED_PROXIES

wsgi_app = "config.wsgi:application"
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))

# A request that takes longer than this is stuck (our slowest page is well under a second);
# the worker is restarted. Workers get the same time to finish in-flight requests on reload.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5  # seconds an idle keep-alive connection from the proxy is held
# Recycle workers now and then so a slow leak cannot grow without bound; jitter staggers them.
max_requests = 5000
max_requests_jitter = 500

# Request lines come from config.observability as JSON (with request id and duration), so
# gunicorn's own access log would only repeat them. Errors still go to stderr.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
proc_name = "codewithpapers"


def _forwarded_allow_ips(trusted_proxies: int, given: str) -> str:
    """Whose X-Forwarded-Proto (and gunicorn's other forwarded headers: SCRIPT_NAME, PATH_INFO)
    gunicorn believes: whom config.client_address believes X-Forwarded-For from. With
    TRUSTED_PROXIES=0, nobody: whoever reaches gunicorn, on loopback too, is a client, and a
    client's "X-Forwarded-Proto: https" is its own word. With proxies of ours, the nearest one:
    on loopback, where gunicorn listens, unless FORWARDED_ALLOW_IPS names its addresses."""
    if not trusted_proxies:
        if given:
            raise ValueError(
                f"FORWARDED_ALLOW_IPS={given!r} but TRUSTED_PROXIES=0: with no proxy of ours in front,"
                " nothing forwarded is believed; set TRUSTED_PROXIES to the number of your proxies"
            )
        return ""
    return given or "127.0.0.1,::1"


forwarded_allow_ips = _forwarded_allow_ips(TRUSTED_PROXIES, os.environ.get("FORWARDED_ALLOW_IPS", "").strip())

# Bounds on a request's head. Django answers a request past its own (config.request_checks:
# 414 for a request target over 4,094 bytes, 431 for a header field over 8,190 bytes or more than
# 100 of them), as JSON under /api/ like every other error there. gunicorn's answers are HTML,
# written before Django sees the request, so its bounds stand well above Django's, where no
# client that means well goes, and still bound what one request may hold: 64 KiB of request line,
# 200 header fields of at most 32 KiB (gunicorn reads at most about 6.5 MB of head).
limit_request_line = 65536
limit_request_fields = 200
limit_request_field_size = 32768


def on_starting(server):
    # gunicorn caps limit_request_line at its MAX_REQUEST_LINE (8190) whatever is set, unless 0,
    # which is no bound at all; the cap is raised to ours, in the master, before workers fork.
    from gunicorn.http import message

    if not hasattr(message, "MAX_REQUEST_LINE"):
        raise RuntimeError("gunicorn.http.message.MAX_REQUEST_LINE is gone: see config/gunicorn.conf.py")
    message.MAX_REQUEST_LINE = max(message.MAX_REQUEST_LINE, limit_request_line)


def _control_socket_for(address: str) -> str:
    """gunicorn's control socket (``gunicornc``) for this instance, one per listening address.

    gunicorn's default is one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl): a second instance
    on the machine (scaling out on one host, tests/ops/test_scale_out.py) unlinked the first one's
    socket and took the path over, so ``gunicornc`` steered the wrong instance and stopping either
    removed the other's. Same directory as gunicorn's default, a name of our own per bind.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    directory = (
        runtime if runtime and os.path.isdir(runtime) else os.path.join(os.path.expanduser("~"), ".gunicorn")
    )
    return os.path.join(directory, f"{proc_name}-{re.sub(r'[^A-Za-z0-9.-]+', '_', address)}.ctl")


control_socket = _control_socket_for(bind)
