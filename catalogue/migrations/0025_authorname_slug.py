"""``AuthorName.slug``: the slug form of each author name (``/author/yanping-huang``), indexed, so
an address in Papers with Code's form finds its name in one lookup."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from catalogue.counters import slug_author_names

    with schema_editor.connection.cursor() as cursor:
        slug_author_names(cursor)


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0024_joined_identities")]

    operations = [
        migrations.AddField(
            model_name="authorname",
            name="slug",
            field=models.CharField(db_index=True, max_length=300, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
