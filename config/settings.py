"""Settings for Code with Papers, read from the environment in this one file.

With nothing set the site runs on SQLite in ``db.sqlite3`` beside this project, with
DEBUG off and a development secret key. Production sets at least ``SECRET_KEY``,
``ALLOWED_HOSTS`` and ``DATABASE_URL=postgres://…``.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

# Plain constants (no Django import): the OpenAPI description and licence state the notice.
from catalogue import attribution

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_count(name: str, default: int = 0) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name}={value!r}: must be a whole number, 0 or more")
    return int(value)


DEBUG = env_bool("DEBUG", False)
# The fallback key is only for a local checkout; production must set SECRET_KEY. Its
# "django-insecure-" prefix makes check --deploy fail (security.W009) when production forgets.
SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-dev-only-key-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

INSTALLED_APPS = [
    # django.contrib.admin, with the site that asks staff for a TOTP code (catalogue/twofactor).
    "catalogue.twofactor.apps.CuratorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.sitemaps",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "catalogue",
]

MIDDLEWARE = [
    "config.observability.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Every answer under /api/ names its licence in a Link header (errors too).
    "catalogue.api.licence.LicenceLinkMiddleware",
    # Content-Security-Policy on every response (the policy is SECURE_CSP, below).
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Before CommonMiddleware, so that the 400 for a disallowed Host (raised there) carries it too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # Before anything reads the request: 414/431 past our bounds, 404/400 for a NUL in the path or
    # a parameter (JSON under /api/). After the middlewares above, so their headers are on it.
    "config.request_checks.RequestChecksMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): did this session give a TOTP code (django-otp)?
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Public reads on PostgreSQL: one REPEATABLE READ snapshot per request (never half a load).
    "config.consistency.ConsistentReadMiddleware",
    # A view failing because the database is unreachable answers 503 + Retry-After (the response
    # still passes through every middleware above, so it keeps the security headers).
    "config.errors.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into a 429 response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # {% url %} in every template: Django's, with argument-less addresses reversed once.
            "builtins": ["catalogue.templatetags.addresses"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",  # {{ csp_nonce }}
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers (the site) and one writer (load_snapshot) work together;
    # IMMEDIATE transactions take the write lock up front instead of failing mid-way.
    # A writer waits up to SQLITE_BUSY_TIMEOUT seconds (the busy timeout) for the lock, then fails
    # with "database is locked". A load holds it for most of its run, and the admin's change pages
    # open a write transaction: README ("SQLite: loads and curators") has the figures.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": float(os.environ.get("SQLITE_BUSY_TIMEOUT", "30")),
    }

# Read replicas: reads to DATABASE_REPLICA_URL, writes, the admin and logged-in users to the
# primary (config/routers.py). Replication itself is PostgreSQL's own (streaming replication).
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"],
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["config.routers.PrimaryReplicaRouter"]
    MIDDLEWARE.insert(1, "config.routers.PrimaryForRequestMiddleware")


def cache_from_url(url: str | None) -> dict:
    """CACHE_URL: redis://host:port/db, memcached://host:port, or unset for local memory."""
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if url.startswith("memcached://"):
        return {
            "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
            "LOCATION": url.removeprefix("memcached://"),
        }
    raise ValueError(f"CACHE_URL: unsupported scheme in {url!r} (use redis:// or memcached://)")


CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL"))}


AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Client addresses --------------------------------------------------------------------------
# How many reverse proxies of ours stand in front of gunicorn, each appending the address it was
# reached from to X-Forwarded-For. The client's address (config.client_address: the API's rate
# limit, the login lock-out, the request log) is the entry that many places from the right; with
# 0, the default, X-Forwarded-For is ignored and the address is the connection's. A count that is
# too high lets clients choose their address; too low, every client shares the proxy's.
# API_NUM_PROXIES was its name for the API alone (not documented), still read.
TRUSTED_PROXIES = env_count("TRUSTED_PROXIES", env_count("API_NUM_PROXIES", 0))

# --- Admin safety ------------------------------------------------------------------------------
# django-axes counts failed logins and refuses the next ones (HTTP 429) for a cool-off period.
# The lock-out is keyed on the (username, client address) pair: a guesser is stopped, while the
# same curator elsewhere and other users from that address can still log in. The client address
# is config.client_address's (TRUSTED_PROXIES, above), as for the API's rate limit and the logs.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out pair before any check
    # ModelBackend, plus the TOTP code of a user who has set up an authenticator: a wrong or
    # missing code is a failed login like a wrong password (django-axes counts it).
    "catalogue.twofactor.backends.PasswordAndTOTPBackend",
]
# The one login there is, the admin's: after it, a next= that is refused (another site's address)
# falls back here, not to Django's /accounts/profile/, which this site does not have.
LOGIN_REDIRECT_URL = "admin:index"
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False  # no start-up banner in every manage.py command's output
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "admin/lockout.html"
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"
# Second factor (django-otp, TOTP). Staff who set up an authenticator app (at ADMIN_PATH/2fa/)
# always give its code with their password. ADMIN_REQUIRE_2FA also sends staff who have none to
# set one up before the admin opens to them. Off by default (local runs, tests); turn it on in
# production. Read per request (catalogue/twofactor/site.py). SECURITY.md says what holds.
ADMIN_REQUIRE_2FA = env_bool("ADMIN_REQUIRE_2FA", False)
OTP_TOTP_ISSUER = "Code with Papers"  # the name authenticator apps show beside the code
OTP_ADMIN_HIDE_SENSITIVE_DATA = True  # the device admin never shows a secret key
# Cookies only over HTTPS, out of JavaScript's reach: on unless DEBUG (local http) or turned off.
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True

# --- Security headers / CSP --------------------------------------------------------------------
# What each promise is and which test holds it: SECURITY.md.
# The CSRF cookie is only ever read by the server (the admin's forms carry the token), so
# JavaScript has no reason to see it.
CSRF_COOKIE_HTTPONLY = True
# HSTS (sent on HTTPS responses only): a year by default unless DEBUG; SECURE_HSTS_SECONDS=0
# turns it off (e.g. while first trying HTTPS out on a new domain).
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or (0 if DEBUG else 31_536_000))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading is an opt-in for the whole registered domain that is slow to undo, so it is the
# operator's decision, not a default: check --deploy's W021 is silenced only while it is off.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# The TLS-terminating proxy in front of gunicorn redirects http:// to https://. Django sees only
# the proxy's plain HTTP and cannot tell the two apart unless the proxy sets a header it also
# strips from clients (SECURE_PROXY_SSL_HEADER_NAME, e.g. HTTP_X_FORWARDED_PROTO). With both set,
# Django redirects itself and check --deploy's W008 is no longer silenced.
# A forwarded scheme is believed only from proxies of ours, as X-Forwarded-For is: with
# TRUSTED_PROXIES=0 nothing forwarded is (config/gunicorn.conf.py says the same to gunicorn).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
if os.environ.get("SECURE_PROXY_SSL_HEADER_NAME"):
    if not TRUSTED_PROXIES:
        raise ValueError(
            "SECURE_PROXY_SSL_HEADER_NAME is set but TRUSTED_PROXIES=0: with no proxy of ours in front,"
            " that header is the client's own word; set TRUSTED_PROXIES to the number of your proxies"
        )
    SECURE_PROXY_SSL_HEADER = (os.environ["SECURE_PROXY_SSL_HEADER_NAME"], "https")
SILENCED_SYSTEM_CHECKS = [
    *([] if SECURE_SSL_REDIRECT else ["security.W008"]),
    *([] if SECURE_HSTS_PRELOAD or not SECURE_HSTS_SECONDS else ["security.W021"]),
]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Django's own CSP (django.middleware.csp). Nothing inline runs without the per-response nonce
# ({{ csp_nonce }}); the public pages need none (their only inline script is JSON-LD, a data
# block that CSP does not govern, and they are cached whole, so they must never carry a nonce).
SECURE_CSP = {
    "default-src": [CSP.NONE],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production serves hashed, compressed copies (WhiteNoise gives them far-future Cache-Control:
# a changed file gets a new name). That needs `collectstatic` first, which the test suite does
# not run, so under pytest / `manage.py test` the plain storage is the default. STATIC_MANIFEST
# overrides either way; scripts/serve.sh sets it on.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", not TESTING)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# How many loads, newest first, keep their list of files (catalogue.LoadRunFile, one row per file
# read: ~575,000 a load of the whole archive). Older loads keep their summary (files_summary:
# counts by status, the first files, problems first). 0 keeps every load's list.
LOAD_FILE_LISTS_KEPT = max(0, int(os.environ.get("LOAD_FILE_LISTS_KEPT", "10")))

# Public pages are cached against the data's version (catalogue.web.pageframe.cached_page); this
# bounds how long a change made outside the loader and the curation tools takes to show.
# 0 turns the page cache off.
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", "60"))
# Counts and figures over many rows (catalogue.memo), remembered per data version; what
# changes without a load or a correction shows within this many seconds. 0: always count.
FIGURES_CACHE_SECONDS = int(os.environ.get("FIGURES_CACHE_SECONDS", "600"))
# A query parameter every page accepts, ignores and keys its cached copy on, for benchmarks
# that must ask for a page nobody has cached (bench/latency_bench.py: zzpoll). Leave it unset
# in production: with it, anyone can make every request a cache miss.
CACHE_BUST_PARAM = os.environ.get("CACHE_BUST_PARAM", "").strip()
# What a browser (max-age) and a CDN or proxy (s-maxage) may reuse without asking again, on
# anonymous pages and API responses (catalogue.caching). Each is clamped to 0..3600 s: after a
# load or a correction, a reader behind a CDN sees the change at most max(both) seconds late,
# and revalidates cheaply with ETag / Last-Modified. Our own cache shows it at once.
HTTP_MAX_AGE = max(0, min(3600, int(os.environ.get("HTTP_MAX_AGE", "60"))))
HTTP_S_MAXAGE = max(0, min(3600, int(os.environ.get("HTTP_S_MAXAGE", "300"))))

# One JSON line per record on stderr (request lines carry request_id and duration_ms).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.observability.JsonLineFormatter"}},
    "filters": {"client_error": {"()": "config.observability.ClientErrorFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Request lines are INFO; the test suite and management commands need not print them.
        "catalogue.requests": {"level": os.environ.get("REQUEST_LOG_LEVEL", "INFO")},
        # What a client sends wrong is a warning line, not an error with a traceback
        # (config.observability.ClientErrorFilter). Django names the logger after the exception.
        **{
            f"django.security.{name}": {"filters": ["client_error"]}
            for name in ("DisallowedHost", "RequestDataTooBig", "TooManyFieldsSent", "TooManyFilesSent")
        },
    },
}

# --- JSON API (/api/v1/): DRF, django-filter, OpenAPI, throttling, CORS ---------------------
# Anonymous rate per client address, DRF's "N/second|minute|hour|day" form. Read at request
# time (catalogue.api.throttling), so tests and operators can change it; "off" disables it.
# Counts live in the default cache: per process unless CACHES points at a shared cache.
API_THROTTLE_ANON = os.environ.get("API_THROTTLE_ANON", "60/minute")
API_MAX_PAGE_SIZE = int(os.environ.get("API_MAX_PAGE_SIZE", "500"))

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": ["catalogue.api.throttling.AnonThrottle"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "catalogue.pagination.api.CatalogPagination",
    "DEFAULT_SCHEMA_CLASS": "catalogue.api.schema.CatalogueAutoSchema",
    # Only for DRF's own throttle classes, should one be added: ours asks config.client_address.
    # (None would make DRF take X-Forwarded-For whole, whoever wrote it.)
    "NUM_PROXIES": TRUSTED_PROXIES,
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Code with Papers API",
    "DESCRIPTION": (
        "Read-only JSON API of the Code with Papers catalogue. Paths, parameters and field names "
        "under /papers, /repositories, /tasks, /methods, /evaluations and /search follow the "
        "Papers-with-Code API v1; /code-entries, /samples, /data and /loads are the catalogue's own. "
        f"{attribution.NOTICE} Every response names the licence in a Link header; the attribution "
        f"to keep with any reuse is at {attribution.ATTRIBUTION_PATH}."
    ),
    "LICENSE": {"name": attribution.LICENCE, "url": attribution.LICENCE_URL},
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "StatusEnum": "catalogue.models.Status",
        "RepoKindEnum": "catalogue.models.RepoKind",
    },
    # Interactive docs from the site's own static files (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Anyone may read the API from a browser on any origin; nothing else is shared.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "Link"]
