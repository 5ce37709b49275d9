# Issue 37: /papers/?sort=code ("most code") reads a stored count, as ?sort=samples does.

from django.db import migrations, models

# The count as it was when this migration was written (a frozen copy: the migration must not
# change meaning with catalogue.counters.recount_paper_code_links).
COUNT_CODE_LINKS = """
UPDATE catalogue_paper SET n_code_links = c.n
FROM (
    SELECT p.id, COALESCE(l.n, 0) AS n
    FROM catalogue_paper p
    LEFT JOIN (SELECT paper_id, COUNT(*) AS n FROM catalogue_codelink GROUP BY paper_id) l
           ON l.paper_id = p.id
    WHERE p.n_code_links <> 0 OR l.n IS NOT NULL
) AS c
WHERE catalogue_paper.id = c.id AND catalogue_paper.n_code_links <> c.n
"""


def count_existing(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(COUNT_CODE_LINKS)


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
