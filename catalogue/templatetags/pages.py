"""Template helpers for the public pages: badges, labels, links and safe JSON-LD."""

import html
import json
from calendar import month_name
from functools import lru_cache

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.template.base import render_value_in_context
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import yesno
from django.urls import get_script_prefix, reverse
from django.utils import dateformat
from django.utils.html import format_html
from django.utils.safestring import SafeString

from catalogue import authors, identities, markup
from catalogue.addresses import address_with, href_to, parts_around, repo_path, url_to, web_url
from catalogue.models import RepoKind, Status

register = template.Library()

_INSTRUMENT = set(Status.instrument_failures())
INSTRUMENT_NOTE = "a failure of Syntology's instrument, not of the code"
# What json_script escapes, plus the line separators some parsers take for line ends:
# no string in the data can close the <script> element or start a comment.
_JSON_ESCAPES = {
    ord("<"): "\\u003C",
    ord(">"): "\\u003E",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
_LICENCE_LABELS = {"NONE": "no licence", "NOASSERTION": "licence not asserted"}


def _esc(value) -> str:
    """``conditional_escape(value)``, the same text, without its lazy-string wrapper: most of its
    cost where a list of places escapes a dozen values per row."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def status_explanation(status: str) -> str:
    try:
        label = Status(status).label
    except ValueError:
        return "unknown status"
    return f"{label} ({INSTRUMENT_NOTE})" if status in _INSTRUMENT else label


# What an instrument failure's badge says in visible words, beside its status.
INSTRUMENT_WORDS = "instrument failure"


@register.simple_tag
def status_badge(status: str) -> SafeString:
    """A status as a badge that explains itself; the same markup for the same status (a place
    list draws one per row), made once per status."""
    return _status_badge(str(status))


@lru_cache(maxsize=64)
def _status_badge(status: str) -> SafeString:
    """A status as a badge that explains itself (title text); instrument failures say so in words.

    The status is the vocabulary's own word, as the API, the filters and the legend give it.
    The gear is decoration for the eye (hidden from screen readers, who hear the words).
    A simple tag, not an include: a place list draws one per row.
    """
    instrument = status in _INSTRUMENT
    return format_html(
        '<span class="badge status status-{}{}" title="{}"><span class="status-word">{}</span>{}</span>',
        status,
        " status-instrument" if instrument else "",
        status_explanation(status),
        status,
        format_html(
            ' <span class="status-note"><span aria-hidden="true">⚙ </span>{}</span>', INSTRUMENT_WORDS
        )
        if instrument
        else "",
    )


@register.filter
def link_label(url: str, what: str) -> str:
    """A paper's link named by what it is: "arXiv abstract", "PDF", "DOI", "OpenReview", "ACL
    Anthology", or "abstract" / "PDF" elsewhere (``what``: what the field is meant to hold)."""
    kind = identities.link_kind(url)
    if kind == "arXiv":
        return "arXiv abstract" if what == "abstract" else "arXiv"
    if kind == "other":
        return what.capitalize() if what == "abstract" else what
    return kind if kind != "PDF" or what == "PDF" else "PDF"


@register.filter
def body_link(sha: str) -> SafeString:
    """A code body's prefix, linked to every place the body appears."""
    return SafeString(_body_link_at(href_to("code_body", str(sha)), sha))


def _body_link_at(href: str, sha: str) -> str:
    return f'<a class="mono" href="{href}" title="Every place this body of code appears">{_esc(sha)}</a>'


@register.simple_tag
def code_link(sample) -> SafeString:
    """A place's link to its body's text on the body's page, where that page shows one
    (``code_shown``, from ``Sample.objects.with_code_links()``). A pointer-only place links
    there too, and says it may not show the code itself: the text is never on its row."""
    if not getattr(sample, "code_shown", False):
        return SafeString("")
    return _code_link(sample.body.sha256_prefix, sample.inline_ok)


def _code_link(body_prefix: str, inline_ok: bool) -> SafeString:
    return SafeString(_code_link_at(href_to("code_body", body_prefix), inline_ok))


def _code_link_at(body_href: str, inline_ok: bool) -> str:
    if inline_ok:
        return f'<a class="code-link" href="{body_href}#code">show code</a>'
    return (
        f'<a class="code-link" href="{body_href}#code" title="This place may only point to its code; '
        'another place of the same body may show it">shown at another place</a>'
    )


@register.filter
def explain_status(status: str) -> str:
    return status_explanation(status)


@register.filter
def repo_url(repo) -> str:
    return repo_path(repo)


@register.filter
def month_label(month: str) -> str:
    """``2018-11`` → ``November 2018`` (anything else as given)."""
    if len(month or "") == 7 and month[:4].isdigit() and month[5:].isdigit() and 1 <= int(month[5:]) <= 12:
        return f"{month_name[int(month[5:])]} {month[:4]}"
    return month or ""


@register.filter
def licence_label(spdx) -> str:
    if not spdx:
        return "unknown"
    return _LICENCE_LABELS.get(spdx, spdx)


@register.filter
def repo_kind_label(kind) -> str:
    try:
        return RepoKind(kind).label
    except ValueError:
        return kind or "unknown"


@register.filter
def get(mapping, key):
    """``mapping[key]`` in a template (None when missing)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def ld_json(data) -> SafeString:
    """``data`` as a JSON-LD script element that no string in it can break out of."""
    text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False).translate(_JSON_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', SafeString(text))


@register.simple_tag(takes_context=True)
def keyset_url(context, cursor: str, direction: str, prefix: str = "") -> str:
    """This page's address with ``<prefix>after`` (or ``before``) set to ``cursor``, the other dropped."""
    query = context["request"].GET.copy()
    for name in ("after", "before"):
        query.pop(prefix + name, None)
    query[prefix + direction] = cursor
    return "?" + query.urlencode()


@register.simple_tag(takes_context=True)
def first_page_url(context, prefix: str = "") -> str:
    query = context["request"].GET.copy()
    for name in ("after", "before"):
        query.pop(prefix + name, None)
    return "?" + query.urlencode() if query else context["request"].path


@register.simple_tag(takes_context=True)
def toggle_url(context, name: str, value: str) -> str:
    """The search page with facet ``name`` set to ``value`` (or cleared when it already is)."""
    query = context["request"].GET.copy()
    query.pop("page", None)
    if query.get(name) == str(value):
        query.pop(name)
    else:
        query[name] = value
    return "?" + query.urlencode()


@register.simple_tag(takes_context=True)
def page_url(context, number: int) -> str:
    query = context["request"].GET.copy()
    query["page"] = number
    return "?" + query.urlencode()


@register.simple_tag
def status_values() -> list[str]:
    return list(Status.values)


@register.filter
def breakable(text) -> SafeString:
    """Escaped ``text`` with line-break opportunities after ``/``, ``_`` and ``.`` (long paths, names)."""
    return SafeString(_line_breaks(_esc(text or "")))


def _line_breaks(escaped: str) -> str:
    return escaped.replace("/", "/<wbr>").replace("_", "_<wbr>").replace(".", ".<wbr>")


register.filter(web_url)


@register.filter
def description(markdown) -> SafeString:
    """A description of the archive (method, task, dataset) rendered as its pages showed it:
    Markdown and math, sanitised (``catalogue.markup.render``)."""
    return markup.render(str(markdown or ""))


@register.filter
def author_link(name: str) -> SafeString:
    """An author's name linked to its page; as text where the name has none (``catalogue.authors``)."""
    if authors.has_page(name):
        return SafeString(f'<a href="{href_to("author", name)}">{_esc(name)}</a>')
    return SafeString(_esc(name))


@register.filter
def shown_authors(names) -> list[str]:
    """The names of an author list (names, or ``Author`` rows) worth showing, in order
    (``catalogue.authors.shown``: blank ones left out)."""
    return authors.shown(getattr(name, "name", name) for name in names)


@register.filter
def proceeding_id(name: str) -> str:
    """The id of the proceeding a paper names (``catalogue.conferences``)."""
    from catalogue import conferences

    return conferences.slug(name)


@register.simple_tag
def correction_note(correction, snapshot: str, paper_slug: str) -> SafeString:
    """A corrected value's mark: who corrected it and when, why, and what the snapshot says.

    ``snapshot`` is the snapshot's value now (the loader keeps it up to date under the
    correction); the mark links the correction in the paper's public history.
    """
    if correction is None:
        return SafeString("")
    history = f"{reverse('corrections')}?paper={paper_slug}#correction-{correction.pk}"
    reason = format_html(": “{}”", correction.reason) if correction.reason else ""
    return format_html(
        '<span class="correction-note"><a class="badge badge-corrected" href="{}">corrected</a> '
        '<span class="small">by {} on <time datetime="{}">{}</time>{}. '
        "The snapshot says: <q>{}</q>.</span></span>",
        history,
        correction.by,
        correction.created_at.date().isoformat(),
        dateformat.format(correction.created_at, "j F Y"),  # as the pages write dates
        reason,
        snapshot,
    )


_POINTER_ONLY_BADGE = SafeString(
    ' <span class="badge badge-pointer" title="The code may only be pointed to, never shown here">'
    "pointer only</span>"
)


@register.simple_tag
def place_rows(places, hide_paper=False, hide_entry=False, hide_repo=False, hide_body=False) -> SafeString:
    """The rows of includes/places_table.html, one per place, written here rather than by a
    ``{% for %}`` of the template: a page of 25 places made some 600 variable lookups and 300
    filter calls, most of the code-entry page's time (bench/README.md, "Issue 16"). The markup,
    whitespace included, is the loop's as it was; tests/web/pages/test_template_tags.py compares the two."""
    return SafeString("".join(_place_row(s, hide_paper, hide_entry, hide_repo, hide_body) for s in places))


def _place_row(s, hide_paper, hide_entry, hide_repo, hide_body) -> str:
    esc = _esc
    paper = s.paper
    cells = ["\n      <tr>\n        "]
    if not hide_paper:
        month = f' <span class="muted">{esc(paper.month)}</span>' if paper.month else ""
        url = href_to("paper", paper.slug)
        cells.append(f'<td><a href="{url}">{esc(paper.title or paper.slug)}</a>{month}</td>')
    cells.append("\n        ")
    if not hide_entry:
        entry = s.entry
        cells.append(
            f'<td><a class="mono" href="{esc(entry.get_absolute_url())}">{breakable(entry.name)}</a></td>'
        )
    cells.append("\n        <td>\n          ")
    if not hide_repo:
        if s.repo:
            cells.append(f'<a href="{esc(repo_url(s.repo))}">{esc(s.repo.full_name)}</a>')
        else:
            cells.append('<span class="muted">no repository</span>')
        cells.append("<br>")
    cells.append("\n          ")
    if s.path:
        if s.file_url:
            link = esc(s.file_url)
            cells.append(
                f'<a class="mono path" href="{link}" rel="nofollow noopener">{breakable(s.path)}</a>'
            )
        else:
            cells.append(f'<span class="mono path">{breakable(s.path)}</span>')
    cells.append(f"\n        </td>\n        <td>{status_badge(s.status)}")
    if s.status_corrected:
        cells.append(f" {correction_note(s.status_correction, s.status_upstream, paper.slug)}")
    cells.append(f"</td>\n        <td>{esc(licence_label(s.licence))}")
    if not s.inline_ok:
        cells.append(_POINTER_ONLY_BADGE)
    cells.append("</td>\n        ")
    if not hide_body:
        cells.append(f"<td>{body_link(s.body.sha256_prefix)} {code_link(s)}</td>")
    cells.append("\n      </tr>\n    ")
    return "".join(cells)


_PLACES_HEAD = (
    '<thead><tr><th scope="col">Entry</th><th scope="col">Path</th><th scope="col">Status</th>'
    '<th scope="col">Checks</th><th scope="col">Licence</th><th scope="col">Code body</th></tr></thead>'
)


@register.simple_tag
def paper_place_groups(groups, paper_slug: str) -> SafeString:
    """The paper page's places (catalogue/paper_detail.html): a heading and a table per repository
    (``PaperPage.samples_by_repo``), a row per ``reads.paper_page.PaperPlace``, written here rather than by
    two nested ``{% for %}`` of the template, whose lookups and filter calls per group and per row
    were most of the page's rendering (a paper has up to some 150 places in as many repositories).
    The markup, whitespace included, is the loops' as they were;
    tests/web/pages/test_template_tags.py compares."""
    rows = _PaperPlaceRows(paper_slug)
    return SafeString("".join(_paper_place_group(repo, places, rows) for repo, places in groups))


def _paper_place_group(repo, places, rows: "_PaperPlaceRows") -> str:
    if repo:
        name = _esc(repo.full_name)
        heading = (
            f'<a href="{_esc(repo_url(repo))}">{name}</a> '
            f'<span class="muted small">licence {_esc(licence_label(repo.spdx))}</span>'
        )
    else:
        name, heading = "no repository", "No repository"
    count = len(places)
    return (
        f'\n        <h3 class="repo-group">{heading} <span class="muted small">({count} sample'
        f"{'' if count == 1 else 's'})</span></h3>\n"
        '        <div class="table-scroll">\n        <table class="places">\n'
        f'          <caption class="visually-hidden">Samples from {name}</caption>\n'
        f"          {_PLACES_HEAD}\n          <tbody>\n          {''.join(map(rows.row, places))}\n"
        "          </tbody>\n        </table>\n        </div>\n      "
    )


class _PaperPlaceRows:
    """Writes the rows of one paper's places. A row's cells were each a filter or tag call; here
    what a page repeats is worked out once per page (the addresses around an entry's and a body's
    slug, the checks and licence cells, a handful of distinct values over up to 150 rows), and
    the rest in one pass per row. Each cell is what ``breakable``, ``href_to``, ``body_link`` and
    ``status_badge`` write (tests/web/pages/test_template_tags.py compares the whole against the
    template loops)."""

    __slots__ = ("body_around", "cells", "entry_around", "paper_slug")

    def __init__(self, paper_slug: str):
        self.paper_slug = paper_slug
        prefix = get_script_prefix()
        self.entry_around = parts_around("code_entry", prefix, 1, True)
        self.body_around = parts_around("code_body", prefix, 1, True)
        self.cells: dict[tuple, str] = {}

    def _checks(self, level, contract, tier) -> str:
        key = ("checks", level, contract, tier)
        cell = self.cells.get(key)
        if cell is None:
            cell = f'<span title="Verification level">level {_esc(level)}</span>'
            if contract:
                cell += f'<br><span title="Contract check">contract: {_esc(contract)}</span>'
            if tier:
                cell += f'<br><span title="Metamorphic tier">metamorphic: {_esc(tier)}</span>'
            self.cells[key] = cell
        return cell

    def _licence(self, licence, inline_ok) -> str:
        key = ("licence", licence, inline_ok)
        cell = self.cells.get(key)
        if cell is None:
            cell = self.cells[key] = _esc(licence_label(licence)) + ("" if inline_ok else _POINTER_ONLY_BADGE)
        return cell

    def row(self, s) -> str:
        entry_url = address_with("code_entry", (s.entry_slug,), True, self.entry_around)
        entry = f'<a class="mono" href="{entry_url}">{_line_breaks(html.escape(s.entry_name))}</a>'
        if s.file_url:
            path = (
                f'<a class="mono path" href="{_esc(s.file_url)}" rel="nofollow noopener">'
                f"{_line_breaks(html.escape(s.path or 'file'))}</a>"
            )
        else:
            path = f'<span class="mono path">{_line_breaks(html.escape(s.path or "—"))}</span>'
        status = _status_badge(str(s.status))
        if s.status_corrected:
            status += f" {correction_note(s.status_correction, s.status_upstream, self.paper_slug)}"
        prefix = s.body_prefix
        body_url = address_with("code_body", (prefix,), True, self.body_around)
        body = _body_link_at(body_url, prefix) + " "
        if s.code_shown:
            body += _code_link_at(body_url, s.inline_ok)
        checks = self._checks(s.verification_level, s.contract_check, s.metamorphic_tier)
        return (
            "\n            <tr>\n"
            f"              <td>{entry}</td>\n"
            f"              <td>{path}</td>\n"
            f"              <td>{status}</td>\n"
            f'              <td class="checks">{checks}</td>\n'
            f"              <td>{self._licence(s.licence, s.inline_ok)}</td>\n"
            f"              <td>{body}</td>\n"
            "            </tr>\n          "
        )


@register.simple_tag(takes_context=True)
def board_rows(context, results, metric_names, metric, start=1, code=None) -> SafeString:
    """The rows of a leaderboard's table (catalogue/leaderboard_detail.html), written here rather
    than by two nested ``{% for %}`` of the template: a row per result and a cell per metric made
    the loops most of the page's build. Each value is rendered as the template rendered it
    (``render_value_in_context``: localized, escaped); tests/web/pages/test_template_tags.py compares the two.
    ``start`` is the first row's rank on the whole board (101 on its second page); a row that
    carries its own ``board_rank`` (a filtered board: "with code only") shows that instead.
    ``code`` (``catalogue.reads.leaderboards.code_of_papers_on``), when given, adds the code column."""
    out = []
    for counter, r in enumerate(results, start=start):
        out.append(_board_row(context, getattr(r, "board_rank", counter), r, metric_names, metric, code))
    return SafeString("".join(out))


def _code_cell(show, r, code) -> str:
    from catalogue.reads.leaderboards import row_code  # the tag library loads before the models

    chosen = row_code(r, code)
    if chosen is None:
        return '\n      <td><span class="muted">none known</span></td>'
    framework = f' <span class="muted small">{show(chosen.framework)}</span>' if chosen.framework else ""
    why = ' <span class="badge badge-official">official</span>' if chosen.why == "official" else ""
    return (
        f'\n      <td><a href="{show(chosen.url)}" rel="nofollow noopener">{show(chosen.label)}</a>'
        f"{why}{framework}</td>"
    )


def _board_row(context, counter, r, metric_names, metric, code=None) -> str:
    def show(value) -> str:
        return render_value_in_context(value, context)

    paper = r.paper
    if paper:
        url = url_to("paper", paper.slug)
        source = (
            f'<a href="{_esc(url)}">{show(paper.title or paper.slug)}</a> '
            f'<span class="muted">{show(paper.month)}</span>'
        )
    elif r.paper_url:
        source = (
            f'<a href="{show(r.paper_url)}" rel="nofollow noopener">{show(r.paper_title or r.paper_url)}</a> '
            f'<span class="muted">{show(date_filter(r.paper_date, "Y-m"))}</span>'
        )
    elif r.paper_title:
        source = f'{show(r.paper_title)} <span class="muted">{show(date_filter(r.paper_date, "Y-m"))}</span>'
    else:
        source = '<span class="muted">no paper</span>'
    cells = []
    for name in metric_names:
        value = get(r.metrics, name)
        sorted_mark = " sorted" if name == metric else ""
        cells.append(f'<td class="num{sorted_mark}">{show("—" if value is None else value)}</td>')
    if r.rank_in_archive_order:
        rank = show(r.rank_in_archive_order) + (f" of {show(r.of)}" if r.of else "")
    else:
        rank = "—"
    extra = show(yesno(r.uses_additional_data, "yes,no,not stated"))
    return (
        f"\n    <tr>\n      <td>{show(counter)}</td>\n      <td>{show(r.model)}</td>\n"
        f"      <td>{source}</td>{'' if code is None else _code_cell(show, r, code)}\n"
        f"      {''.join(cells)}\n      <td>{extra}</td>\n"
        f"      <td>{rank}</td>\n    </tr>\n  "
    )
