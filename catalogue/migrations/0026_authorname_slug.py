"""``AuthorName.slug``: the slug form of each author name (``/author/yanping-huang``), indexed, so
an address in Papers with Code's form finds its name in one lookup. Later loads keep it
(``catalogue.counters.slug_author_names``); the rule is frozen here as it was when this was
written, so the migration does not change meaning with ``catalogue.authors.slug``."""

from django.db import migrations, models
from django.utils.text import slugify


def _slug(name: str) -> str:
    return slugify(name.replace("_", " "))[:280].strip("-")


def fill(apps, schema_editor):
    AuthorName = apps.get_model("catalogue", "AuthorName")
    batch = []
    for pk, name in AuthorName.objects.filter(slug=None).values_list("pk", "name").iterator(chunk_size=5000):
        batch.append(AuthorName(pk=pk, slug=_slug(name)))
        if len(batch) == 5000:
            AuthorName.objects.bulk_update(batch, ["slug"])
            batch = []
    AuthorName.objects.bulk_update(batch, ["slug"])


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0025_paper_n_code_links")]

    operations = [
        migrations.AddField(
            model_name="authorname",
            name="slug",
            field=models.CharField(db_index=True, max_length=300, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
