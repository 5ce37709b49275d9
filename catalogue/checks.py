"""System checks (``manage.py check``, and every command's start): the document schema names real fields.

``catalogue.loader.schema`` says, for every staged column the merge writes, which model field
it ends in; a renamed or removed field would otherwise surface as a failed load on the first
snapshot that states it. Each problem is an error at start-up, naming the table and column.
"""

from django.apps import apps
from django.core import checks
from django.core.exceptions import FieldDoesNotExist


@checks.register
def schema_matches_models(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    from catalogue.loader.schema import TABLES

    errors = []
    for table in TABLES.values():
        grouped = [c for c in table.columns if c.group]
        if grouped and table.model is None:
            errors.append(
                checks.Error(f"stg_{table.name} merges columns but names no model", id="catalogue.E001")
            )
            continue
        model = apps.get_model("catalogue", table.model) if table.model else None
        for column in grouped:
            try:
                model._meta.get_field(column.field)
            except FieldDoesNotExist:
                errors.append(
                    checks.Error(
                        f"stg_{table.name}.{column.name} is merged into {table.model}.{column.field}, "
                        "which does not exist",
                        hint="Name the model field with Column(to=...), or add the field.",
                        id="catalogue.E002",
                    )
                )
        for group in sorted({c.group for c in grouped}):
            try:
                model._meta.get_field(group)
            except FieldDoesNotExist:
                errors.append(
                    checks.Error(
                        f"stg_{table.name}: the stamp group {group!r} is not a field of {table.model}",
                        id="catalogue.E003",
                    )
                )
    return errors
