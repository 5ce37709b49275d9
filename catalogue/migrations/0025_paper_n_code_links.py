# Issue 37: /papers/?sort=code ("most code") reads a stored count, as ?sort=samples does.

from django.db import migrations, models


def count_existing(apps, schema_editor):
    # Raw SQL over the tables as they stand: the same recount a load ends with.
    from catalogue.counters import recount_paper_code_links

    with schema_editor.connection.cursor() as cursor:
        recount_paper_code_links(cursor)


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0024_joined_identities'),
    ]

    operations = [
        migrations.AddField(
            model_name='paper',
            name='n_code_links',
            field=models.PositiveIntegerField(db_default=0, editable=False),
        ),
        migrations.AddIndex(
            model_name='paper',
            index=models.Index(fields=['-n_code_links', '-id'], name='paper_by_code_links'),
        ),
        migrations.RunPython(count_existing, migrations.RunPython.noop, elidable=True),
    ]
