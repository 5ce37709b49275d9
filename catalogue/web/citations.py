"""How to cite a paper: a BibTeX entry, and the ``citation_*`` meta tags Google Scholar reads.

Both are built from what the catalogue holds of the paper (its shown title, authors in order,
date or month, arXiv id, proceeding, links) and nothing else: a field the data lacks is left out
rather than guessed.
"""

import re
import unicodedata

from catalogue import authors as author_names
from catalogue import conferences
from catalogue.models import Paper

# Characters BibTeX (and LaTeX behind it) treat as markup; each is written escaped.
_BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_BIBTEX_SPECIAL = re.compile("|".join(re.escape(c) for c in _BIBTEX_ESCAPES))
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# BibTeX reads an author field as names separated by the word "and" (in any case) outside braces,
# a comma in a name as "Last, First", and a name "others" as "et al.".
_SPLITS_A_NAME = re.compile(r"(?:^|\s)and(?:\s|$)|,", re.IGNORECASE)
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _bibtex_text(value: str) -> str:
    """``value`` as a BibTeX field's text: one line, markup characters escaped."""
    value = " ".join(_CONTROL.sub("", value).split())
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_ESCAPES[m[0]], value)


def _bibtex_name(name: str) -> str:
    """One author as BibTeX reads one name: braced whole where BibTeX would split it or read it
    otherwise ("Smith and Sons Ltd" stays one author, as the data gives it)."""
    text = _bibtex_text(name)
    return "{" + text + "}" if _SPLITS_A_NAME.search(text) or text.lower() == "others" else text


def _ascii_word(value: str) -> str:
    """Letters and digits of ``value`` in ASCII (accents dropped), for a citation key."""
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]", "", folded)


def _year_month(paper: Paper) -> tuple[str, str]:
    """(year, month number) as far as the paper's date or month says; "" where it does not."""
    if paper.date:
        return f"{paper.date.year:04d}", f"{paper.date.month:02d}"
    if paper.month:
        year, _, month = paper.month.partition("-")
        return year, month
    return "", ""


def citation_key(paper: Paper, authors: list[str], year: str) -> str:
    """``<first author's last name><year><first word of the title>``, as Google Scholar keys them;
    the paper's slug where none of those give letters."""
    last_name = _ascii_word(authors[0].split()[-1]).lower() if authors and authors[0].split() else ""
    first_word = next(
        (w for w in (_ascii_word(word).lower() for word in (paper.title or "").split()) if len(w) > 3),
        "",
    )
    key = f"{last_name}{year if year.isdigit() else ''}{first_word}"
    return key if last_name or first_word else _ascii_word(paper.slug.replace("-", "_")) or f"paper{paper.pk}"


def bibtex(paper: Paper, authors: list[str], url: str) -> str:
    """The paper as one BibTeX entry: ``@inproceedings`` where it names its proceeding, else
    ``@misc`` (arXiv's own choice for a preprint). ``authors``: their names in order; ``url``:
    its page's absolute address."""
    authors = author_names.shown(authors)
    year, month = _year_month(paper)
    fields = [("title", "{" + _bibtex_text(paper.title or paper.slug) + "}")]
    if authors:
        fields.append(("author", " and ".join(map(_bibtex_name, authors))))
    if paper.proceeding:
        # "NeurIPS 2019 12" is NeurIPS, 2019, December (catalogue.conferences): the
        # proceedings' year and month, not the preprint's, date a paper published there
        conference, in_year, in_month = conferences.parts(paper.proceeding)
        booktitle = f"{conference} {in_year}" if in_year else paper.proceeding
        fields.append(("booktitle", _bibtex_text(booktitle)))
        if in_year:
            year, month = str(in_year), f"{in_month:02d}" if in_month else ""
    if year.isdigit():
        fields.append(("year", year))
    if month.isdigit() and 1 <= int(month) <= 12:
        fields.append(("month", MONTHS[int(month) - 1]))
    if paper.arxiv_id:
        fields += [("eprint", paper.arxiv_id), ("archivePrefix", "arXiv")]
    fields.append(("url", _bibtex_text(paper.url_abs or url)))
    if paper.url_abs and url != paper.url_abs:
        fields.append(("note", "Code and samples: " + _bibtex_text(url)))
    kind = "inproceedings" if paper.proceeding else "misc"
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{citation_key(paper, authors, year)},\n{body}\n}}\n"


def meta_tags(paper: Paper, authors: list[str]) -> list[tuple[str, str]]:
    """``(name, content)`` of the ``citation_*`` meta tags (Google Scholar's inclusion guidelines),
    in their order: title, each author (``authors``: their names in order), date, then what
    identifies and locates the paper."""
    tags = [("citation_title", paper.title or paper.slug)]
    tags += [("citation_author", name) for name in author_names.shown(authors)]
    if paper.date:
        tags.append(("citation_publication_date", paper.date.strftime("%Y/%m/%d")))
    elif paper.month:
        tags.append(("citation_publication_date", paper.month.replace("-", "/")))
    if paper.proceeding:
        tags.append(("citation_conference_title", paper.proceeding))
    if paper.arxiv_id:
        tags.append(("citation_arxiv_id", paper.arxiv_id))
    if paper.url_abs:
        tags.append(("citation_abstract_html_url", paper.url_abs))
    if paper.url_pdf:
        tags.append(("citation_pdf_url", paper.url_pdf))
    return tags
