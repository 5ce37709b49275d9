"""API views of what the data names but does not identify: authors and conferences (PwC v1 paths).

An author is an exact name, as papers' author lists give it; conferences and their proceedings
are derived from the proceeding each paper names (``catalogue.conferences``). Papers are
listed in the API's paper order, by id (slug), as /papers/ and /tasks/{id}/papers/ list them;
``ordering=-published`` gives the newest first, as the site's pages do.
"""

from functools import cached_property

from django.http import Http404, HttpResponsePermanentRedirect
from django.urls import reverse
from rest_framework.generics import GenericAPIView

from catalogue import authors, conferences, reads
from catalogue.api import taxonomy_filters
from catalogue.api.rows import Rows
from catalogue.api.serializers.papers import (
    AuthorSerializer,
    ConferenceSerializer,
    ProceedingSerializer,
)
from catalogue.api.views import DetailView, ListOfPapers, ListView
from catalogue.models import Author, AuthorName, Paper

# --- authors --------------------------------------------------------------------------------


class _AuthorChild:
    @cached_property
    def author(self) -> dict:
        return reads.named.author(self.kwargs["author_id"])

    def get(self, request, *args, **kwargs):
        """An id that is no exact name but a name's slug (``yanping-huang``, as Papers with Code
        wrote them) is sent (301) to that name's address (``catalogue.authors.by_slug`` says which
        name when several slug alike); the query string is kept."""
        try:
            self.author  # noqa: B018 (read here so that a slug can be told from an unknown id)
        except Http404:
            found = authors.by_slug(self.kwargs["author_id"])
            if found is None or found == self.kwargs["author_id"]:
                raise
            address = reverse(request.resolver_match.view_name, kwargs={"author_id": found})
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(address + (f"?{query}" if query else ""))
        return super().get(request, *args, **kwargs)


class AuthorList(ListView):
    """Author names: every exact name papers' author lists give, once, in name order. A name is
    not a person (one name may be several people, one person several names), and nothing is
    counted per name here: a name's papers are at /authors/{id}/papers/."""

    serializer_class = AuthorSerializer
    queryset = AuthorName.objects.none()  # the model, for the schema
    filterset_class = taxonomy_filters.AuthorFilter
    cursor_ordering = "name"

    def get_queryset(self):
        return reads.named.author_names()


class AuthorDetail(_AuthorChild, DetailView):
    """An author by id: the exact name (URL-encoded; it may hold slashes)."""

    serializer_class = AuthorSerializer
    queryset = Author.objects.none()  # the model, for the schema

    def get_object(self):
        return self.author


class AuthorPaperList(_AuthorChild, ListOfPapers):
    """Papers whose author list gives exactly this name, by id as the API's paper lists are
    (``ordering=-published``: newest first, as the name's page on the site)."""

    def get_queryset(self):
        return reads.named.author_papers(self.author["name"])


# --- conferences and their proceedings ------------------------------------------------------


class _DerivedFromPapers(GenericAPIView):
    queryset = Paper.objects.none()  # what conferences and proceedings are derived from, for the schema


class _ConferenceChild(_DerivedFromPapers):
    @cached_property
    def conference(self) -> conferences.Conference:
        return conferences.conference(self.kwargs["conference_id"])


class _ProceedingChild(_ConferenceChild):
    @cached_property
    def proceeding(self) -> conferences.Proceeding:
        return conferences.proceeding(self.conference, self.kwargs["proceeding_id"])


class ConferenceList(_DerivedFromPapers, ListView):
    """Conferences, in id order, derived from the proceeding each paper names (the data has no
    conference records).

    A proceeding is a non-empty ``proceeding`` string of the papers (``NeurIPS 2019 12``); its id
    is the string's slug (``neurips-2019-12``), so spellings that differ only by case, spaces or
    punctuation are one proceeding, named by the spelling most of its papers give. In that name,
    the words before the first word of four digits (never the first word) name its conference;
    that word is its year, and the next word its month when it is a whole number from 1 to 12. A
    name with no such year is a conference of its own, with no year or month (null). A
    conference's id is its name's slug (``neurips``), its name the spelling most of its papers
    give. The archive's ``conference`` field is not used: it holds a paper's slug on the
    conference's site, not a conference.
    """

    serializer_class = ConferenceSerializer
    filterset_class = taxonomy_filters.ConferenceFilter
    cursor_ordering = "id"

    def get_queryset(self):
        return Rows(conferences.summaries())  # id and name are all a conference shows here


class ConferenceDetail(_ConferenceChild, DetailView):
    """A conference (derived from papers' proceedings: see the list)."""

    serializer_class = ConferenceSerializer

    def get_object(self):
        return self.conference


class ConferenceProceedingList(_ConferenceChild, ListView):
    """The conference's proceedings, in id order (derived from papers' proceedings: see
    /conferences/)."""

    serializer_class = ProceedingSerializer
    filterset_class = taxonomy_filters.ProceedingFilter
    cursor_ordering = "id"

    def get_queryset(self):
        return Rows(self.conference.proceedings)


class ConferenceProceedingDetail(_ProceedingChild, DetailView):
    serializer_class = ProceedingSerializer

    def get_object(self):
        return self.proceeding


class ConferenceProceedingPaperList(_ProceedingChild, ListOfPapers):
    """Papers that name the proceeding (in any of its spellings), by id as the API's paper lists
    are (``ordering=-published``: newest first)."""

    def get_queryset(self):
        return reads.named.proceeding_papers(self.proceeding.spellings)
