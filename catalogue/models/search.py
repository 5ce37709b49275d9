"""What full-text search reads (``catalogue.search`` is the interface)."""

from django.db import models

from catalogue.models.vocabulary import SearchKind, in_choices


class SearchDocument(models.Model):
    """What full-text search reads: one row per paper, code entry and repository.

    The loader rewrites the rows of whatever it changed. The index itself is the
    database's own: a weighted ``tsvector`` column with a GIN index on PostgreSQL, an
    FTS5 table kept in step by triggers on SQLite (migration 0002); ``catalogue.search``
    is the one interface over both.
    """

    Kind = SearchKind

    kind = models.CharField(max_length=8, choices=SearchKind.choices)
    object_id = models.BigIntegerField()
    title = models.TextField()  # weight A
    authors = models.TextField(blank=True)  # weight B
    body = models.TextField(blank=True)  # weight C

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_id"], name="searchdoc_unique_object"),
            models.CheckConstraint(condition=in_choices("kind", SearchKind), name="searchdoc_kind_valid"),
        ]

    def __str__(self):
        return f"{self.kind} {self.object_id}"
