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
# Trust X-Forwarded-* only from the proxy's address (loopback by default).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
proc_name = "codewithpapers"


def _control_socket_for(address: str) -> str:
    """gunicorn's control socket (``gunicornc``) for this instance, one per listening address.

    gunicorn's default is one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl): a second instance
    on the machine (scaling out on one host, tests/test_scale_out.py) unlinked the first one's
    socket and took the path over, so ``gunicornc`` steered the wrong instance and stopping either
    removed the other's. Same directory as gunicorn's default, a name of our own per bind.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    directory = (
        runtime if runtime and os.path.isdir(runtime) else os.path.join(os.path.expanduser("~"), ".gunicorn")
    )
    return os.path.join(directory, f"{proc_name}-{re.sub(r'[^A-Za-z0-9.-]+', '_', address)}.ctl")


control_socket = _control_socket_for(bind)
