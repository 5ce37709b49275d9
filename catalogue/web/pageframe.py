"""The page framework: what every public page shares, and no page itself.

- Its parameters: a page names those it reads (``cached_page(reads=…)``); any other, or one given
  twice, sends the reader to the same address without it. It reads them through the small parsers
  below (``param``, ``int_param``, ``flag_param``, ``choice_param``), which turn anything malformed
  (a bad page number, a forged cursor, a huge value) into "not given" rather than an error.
  A NUL byte in the address or a parameter never reaches a view (``config.request_checks``).
- Its ``<head>`` (``Meta``) and its rendering (``render_page``).
- Its other forms: a page that shows what the API has answers with the API's JSON (the API's own
  view, re-dispatched) when JSON is asked for, and with that answer written as Markdown when
  Markdown is (``cached_page(json=…, markdown=…)``, ``list_json``, ``json_form_of``).
- Its cached copy, shared by every visitor (``catalogue.caching``).

The pages are ``catalogue.web.views`` (one module per domain) and the feeds (``feed``); their
addresses are ``catalogue.addresses``'.
"""

import json as jsonlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property, partial, wraps
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.wsgi import WSGIRequest
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.encoding import escape_uri_path
from django.views.decorators.http import require_safe

from catalogue import caching
from catalogue.addresses import API_ROOT, api_url
from catalogue.web import markdown_forms

# --- reading the query string -------------------------------------------------------

MAX_PARAM = 200  # longer query-string values are cut: nothing we look up is longer
KEYSET = ("after", "before")  # a keyset page's place in its list (catalogue.pagination.keyset)
FLAG_ON = {"1", "true", "on", "yes"}


def param(request, name: str) -> str:
    """A query-string value as text, without NUL bytes, at most MAX_PARAM characters."""
    known = getattr(request, "page_params", None)
    if known is not None and name not in known:
        # cached_page would have sent the reader away without it: the view must name it.
        raise ImproperlyConfigured(f"{request.path} reads ?{name}= but its cached_page(reads=…) omits it")
    return request.GET.get(name, "").replace("\x00", "").strip()[:MAX_PARAM]


def keyset_position(request) -> dict[str, str]:
    """The keyset page asked for (``after=…``, ``before=…``), as keyword arguments of a read."""
    return {name: param(request, name) for name in KEYSET}


def int_param(request, name: str, *, low: int, high: int) -> int | None:
    value = param(request, name)
    if not value.isascii() or not value.isdigit() or len(value) > 9:
        return None
    number = int(value)
    return number if low <= number <= high else None


def flag_param(request, name: str) -> bool:
    return param(request, name).lower() in FLAG_ON


def choice_param(request, name: str, choices) -> str:
    value = param(request, name)
    return value if value in choices else ""


# --- what every page's <head> says ----------------------------------------------------


@dataclass(frozen=True)
class Meta:
    title: str
    description: str
    og_type: str = "website"
    api_url: str = ""  # the API's address of what the page shows (set from cached_page's json=)
    json_url: str = ""  # this page's own JSON form (<page>.json), when it has one
    feed_url: str = ""  # its Atom feed (catalogue.web.feeds), if it has one
    noindex: bool = False


def describe(text: str, limit: int = 200) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def render_page(request, template: str, meta: Meta, **context) -> HttpResponse:
    form = getattr(request, "json_form", None)
    if form is not None and form.api_address:
        meta = replace(meta, api_url=form.api_address, json_url=form.address)
    return render(request, template, {"meta": meta, **context})


# --- one address: its query string, its representations, its cached copy ------------------

JSON_SUFFIX = ".json"
JSON = "application/json"
MARKDOWN_SUFFIX = ".md"


class NoJsonForm(Exception):
    """What the page shows (with these parameters) is not something the API answers: a 406."""


class MovedTo(Exception):
    """The page is at another address (an author's slug: its exact name's): its JSON and Markdown
    forms are sent there too (301 to that page's form), as the page is."""

    def __init__(self, page: str):
        super().__init__(page)
        self.page = page


# A page's JSON form: (request, the page's URL arguments) -> the API's address of what it shows
# (``api_url``), None when it has none; NoJsonForm when its parameters have no counterpart.
JsonForm = Callable[..., str | None]


class _PageJsonForm:
    """The JSON form of the page being rendered, worked out only if the page links it."""

    def __init__(self, request, json_form: JsonForm | None, args, kwargs):
        self.request, self.json_form, self.args, self.kwargs = request, json_form, args, kwargs

    @cached_property
    def api_address(self) -> str:
        try:
            return (self.json_form and self.json_form(self.request, *self.args, **self.kwargs)) or ""
        except (NoJsonForm, MovedTo, Http404):
            return ""

    @property
    def address(self) -> str:
        """This page's ``.json`` address: ``/paper/x.json``, ``/papers.json?task=y``."""
        path = escape_uri_path(self.request.path).rstrip("/") + JSON_SUFFIX
        query = caching.canonical_query(self.request, self.request.page_params)
        return path + (f"?{query}" if query else "")


def cache_bust_params() -> frozenset[str]:
    """CACHE_BUST_PARAM: every page reads it (and keys its copy on it) but nothing shows it, so a
    benchmark can ask for a page nobody has cached. Unset in production: anyone could miss the cache."""
    return frozenset({settings.CACHE_BUST_PARAM} - {""})


def cached_page(
    view=None,
    /,
    *,
    reads: Iterable[str] = (),
    json: JsonForm | None = None,
    markdown: Callable | None = None,
    negotiate: bool = True,
):
    """A public page: its parameters, its JSON form and the shared response cache, for every page.

    - ``reads``: the query parameters the view reads. A request with any other, or with one
      given twice, is sent (301, no query run) to the address without it (with its last value),
      the rest in one order: links carrying someone's tracking parameters (``utm_*``) still
      arrive, and a made-up parameter can neither build a fresh copy nor linger in the links
      the page writes. The pages' cache key holds
      only these (``caching.key_for``).
    - ``json``: where the API answers what the page shows (:data:`JsonForm`). When the client
      prefers JSON (its Accept, q-values weighed as Django does; a browser's prefers HTML) or
      asks for ``<page>.json``, the answer is the API's own response for that address: its
      view, serializers, cache entry, throttle and validators; 406 for a page with no JSON form.
      Every answer says ``Vary: Accept``; HTML copies are kept under the page's address and JSON
      under the API's, so neither is ever served for the other.
    - The Markdown form (``<page>.md``, or a client preferring ``text/markdown``): the same API
      answer written as Markdown (``catalogue.web.markdown_forms``), with the attribution; ``markdown``
      (request, the page's URL arguments) -> Markdown the page adds (a code body's text, where
      its page shows it). A page with no JSON form has none (406).
    - The cache: the key holds ``caching.data_version()`` (one cheap query), so a load or a
      curator's correction shows at once; a change made any other way (an admin edit of a
      task's name) shows within PAGE_CACHE_SECONDS. Pages hold nothing per visitor (no session,
      no CSRF token: every form is a GET), so one copy serves everyone. The cache itself, and
      the ETag / Last-Modified / Cache-Control it sends, are ``catalogue.caching``'s.
    - ``negotiate=False``: the view answers in its own format whatever the Accept or the path's
      suffix (a download such as ``/sota/<slug>/table.json``, a badge): no JSON form, no 406.
    """
    if view is None:
        return partial(cached_page, reads=reads, json=json, markdown=markdown, negotiate=negotiate)
    known = frozenset(reads)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        page_params = known | cache_bust_params()
        repeated = any(len(values) > 1 for _, values in request.GET.lists())
        if repeated or set(request.GET) - page_params:
            response = _to_known_params(request, page_params)
        else:
            request.page_params = page_params
            if negotiate:
                response = _represent(view, json, request, args, kwargs, markdown)
            else:
                response = _cached(view, request, args, kwargs)
        patch_vary_headers(response, ["Accept"])
        return response

    wrapper.public_page = True  # json_form_of serves <page>.json only for these
    wrapper.page_reads = known
    return wrapper


def _to_known_params(request, page_params: frozenset[str]) -> HttpResponse:
    """A 301 to the address with only the parameters the page reads. A parameter given twice
    (?page=1&page=2) is sent away like an unknown one, to the address with only its last value,
    the one the page read: the reader lands on the page they were shown before, at an address
    that says which. The API refuses it (400): people follow links, programs read errors. No
    page reads several values."""
    query = caching.canonical_query(request, page_params, one_each=True)
    return redirect(escape_uri_path(request.path) + (f"?{query}" if query else ""), permanent=True)


def _represent(view, json_form: JsonForm | None, request, args, kwargs, markdown=None) -> HttpResponse:
    if request.path_info.endswith(MARKDOWN_SUFFIX):
        named = _without_suffix(kwargs, MARKDOWN_SUFFIX)
        response = _markdown_response(json_form, markdown, request, args, named)
        if response.status_code != 404 or named == kwargs:
            return response
    if request.path_info.endswith(JSON_SUFFIX):
        # <page>.json: the suffix is on the last URL argument (/paper/<slug>.json), or the page
        # has none and json_form_of found it (/papers.json).
        named = _without_suffix(kwargs)
        response = _json_response(json_form, request, args, named)
        if response.status_code != 404 or named == kwargs:
            return response
        # Nothing by that name: the name itself may end in .json (a repository "x.json"). Its page.
    preferred = request.get_preferred_type(["text/html", JSON, markdown_forms.MARKDOWN])
    if preferred == JSON:
        return _json_response(json_form, request, args, kwargs)
    if preferred == markdown_forms.MARKDOWN:
        return _markdown_response(json_form, markdown, request, args, kwargs)
    request.json_form = _PageJsonForm(request, json_form, args, kwargs)
    return _cached(view, request, args, kwargs)


def _cached(view, request, args, kwargs) -> HttpResponse:
    if not caching.lifetime() or request.method != "GET":
        return view(request, *args, **kwargs)
    key, copy = caching.lookup(request, "page", request.page_params)
    if copy is not None:
        return caching.respond(request, copy)
    return caching.store(request, key, view(request, *args, **kwargs))


def _without_suffix(kwargs: dict, suffix: str = JSON_SUFFIX) -> dict:
    if not kwargs:
        return kwargs
    last, value = list(kwargs.items())[-1]
    if not str(value).endswith(suffix):
        return kwargs
    return {**kwargs, last: value[: -len(suffix)]}


def _markdown_response(json_form: JsonForm | None, markdown, request, args, kwargs) -> HttpResponse:
    """The page's JSON form (the API's answer) written as Markdown; its errors too."""
    answer = _json_response(json_form, request, args, kwargs, MARKDOWN_SUFFIX)
    if 300 <= answer.status_code < 400:
        return answer  # the page is elsewhere (MovedTo): so is its Markdown form
    if hasattr(answer, "render"):
        answer.render()
    data = jsonlib.loads(answer.content or b"null")
    page = escape_uri_path(request.path).removesuffix(MARKDOWN_SUFFIX)
    if answer.status_code != 200:
        detail = data.get("detail", "") if isinstance(data, dict) else ""
        text = markdown_forms.error(answer.status_code, str(detail))
    else:
        extra = markdown(request, *args, **kwargs) if markdown else ""
        text = markdown_forms.render(data, page=page, extra=extra)
    response = HttpResponse(text, content_type=markdown_forms.CONTENT_TYPE, status=answer.status_code)
    for header in ("Retry-After", "Last-Modified", "Cache-Control"):  # not the ETag: other bytes
        if header in answer:
            response[header] = answer[header]
    return response


def _json_response(
    json_form: JsonForm | None, request, args, kwargs, suffix: str = JSON_SUFFIX
) -> HttpResponse:
    try:
        address = json_form(request, *args, **kwargs) if json_form else None
    except MovedTo as moved:
        query = request.META.get("QUERY_STRING", "")
        if not request.path_info.endswith(suffix):
            return redirect(moved.page + (f"?{query}" if query else ""), permanent=True)
        return redirect(moved.page + suffix + (f"?{query}" if query else ""), permanent=True)
    except NoJsonForm as reason:
        return JsonResponse({"detail": str(reason)}, status=406)
    except Http404 as missing:
        return JsonResponse({"detail": str(missing)}, status=404)
    if not address:
        return JsonResponse({"detail": "This page has no JSON form; the API is at " + API_ROOT}, status=406)
    return _api_response(request, address)


def _api_response(request, address: str) -> HttpResponse:
    """The API's own response at ``address`` (``api_url``), to this client, as if it had asked there."""
    path, _, query = address.partition("?")
    environ = {
        **request.environ,
        "PATH_INFO": unquote_to_bytes(path).decode("iso-8859-1"),  # as a WSGI server passes it
        "QUERY_STRING": query,
        "HTTP_ACCEPT": JSON,
    }
    api_request = WSGIRequest(environ)
    match = resolve(api_request.path_info)
    api_request.resolver_match = match
    return match.func(api_request, *match.args, **match.kwargs)


@require_safe
def json_form_of(request, address: str):
    """``<page>.json`` (and ``<page>.md``) where no URL argument can carry the suffix
    (``/papers.json``, ``/about.md``)."""
    for candidate in (f"/{address}", f"/{address}/"):
        try:
            match = resolve(candidate)
        except Resolver404:
            continue
        if getattr(match.func, "public_page", False):
            return match.func(request, *match.args, **match.kwargs)
    raise Http404(f"No page at /{address}")


def list_json(kind: str, **alike: Callable[[str], dict[str, str]]) -> JsonForm:
    """The JSON form of a list page: the API's list ``kind``, filtered by the page's parameters
    that the API list reads alike (``alike``: page parameter -> its API parameters for a value).
    The rows are the API's, in its order; any other parameter the page is given (its sort, its
    keyset place) has no JSON form, and the 406 names it."""

    def json_form(request, *args, **kwargs) -> str:
        query: dict[str, str] = {}
        other = []
        for name in sorted(request.GET):
            value = param(request, name)
            if name in alike and value:
                query.update(alike[name](value))
            elif value and name not in cache_bust_params():
                other.append(name)
        if other:
            raise NoJsonForm(
                f"No JSON form of this list with {', '.join(other)}: the API's list is {api_url(kind)}"
            )
        return api_url(kind, **query)

    return json_form


def same(api_name: str) -> Callable[[str], dict[str, str]]:
    return lambda value: {api_name: value}


def flag(api_name: str) -> Callable[[str], dict[str, str]]:
    """A page's on/off parameter (on: FLAG_ON; anything else is off, no filter)."""
    return lambda value: {api_name: "true"} if value.lower() in FLAG_ON else {}


def feed(view):
    """An Atom feed (``catalogue.web.feeds``) as a view: GET and HEAD only, cached like the pages."""
    return require_safe(cached_page(view))
