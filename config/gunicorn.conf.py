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
