"""What the query vocabularies of the model modules share."""

import json

from django.db.models import Exists, OuterRef, Q


def related_exists(model, relation: str, *conditions: Q, **where) -> Exists:
    """EXISTS a row of ``model``'s reverse relation ``relation`` (by its name) for the outer row.

    ``Paper``'s ``related_exists(Paper, "samples", status="ran")`` is "the paper has a place that
    is ran". The related model is found through the relation, so that a model's vocabulary
    needs no import of the module that defines the other side.
    """
    rel = model._meta.get_field(relation)
    return Exists(
        rel.related_model._default_manager.filter(*conditions, **{rel.field.name: OuterRef("pk")}, **where)
    )


def through_exists(relation, **where) -> Exists:
    """EXISTS a row of a many-to-many relation's table (``Paper.tasks``) for the outer paper.

    By the other side's id: PostgreSQL then knows from the column's statistics whether it is
    common (72,556 papers for the busiest task at 500,000: walk the order's index and probe) or
    rare (fetch its papers, then sort). A join on the task's slug hid that and always fetched
    and sorted them all: 0.6 s at 500,000 papers.
    """
    return Exists(relation.through.objects.filter(paper_id=OuterRef("pk"), **where))


def present(condition, wanted: bool = True):
    """``condition`` when ``wanted``, its negation otherwise: how every yes/no filter reads."""
    return condition if wanted else ~condition


def words_in(words: list[str], *fields: str) -> Q:
    """Every one of ``words`` (as ``catalogue.search.words`` splits a query) occurs, in any case,
    in one of ``fields``: how every name filter (tasks, methods, datasets, areas) reads."""
    condition = Q()
    for word in words:
        in_a_field = Q()
        for field in fields:
            in_a_field |= Q(**{f"{field}__icontains": word})
        condition &= in_a_field
    return condition


def list_holds(field: str, value: str) -> Q:
    """The JSON list in ``field`` holds the string ``value`` as an item, whatever the case of its
    ASCII letters (``Images`` finds ``["images"]``; ``Text`` does not find ``["Texts"]``).

    Portable, as SQLite has no JSON ``contains``: the stored text holds the item as JSON text,
    quotes included. SQLite keeps non-ASCII letters escaped, PostgreSQL as they are: either
    form is looked for.
    """
    condition = Q()
    for text in dict.fromkeys([json.dumps(value), json.dumps(value, ensure_ascii=False)]):
        condition |= Q(**{f"{field}__icontains": text})
    return condition
