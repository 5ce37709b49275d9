"""``Paper.landing_key`` unique only where set: a partial unique index in place of ``unique=True``.

Most papers (every arXiv paper) have no landing key. ``unique=True`` indexed all their NULLs and, on
PostgreSQL, added a second index for LIKE that nothing queries; both were written at every insert
of an archive-size load. Lookups by key (``WHERE landing_key = …``) use the partial index.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0026_authorname_slug'),
    ]

    operations = [
        migrations.AlterField(
            model_name='paper',
            name='landing_key',
            field=models.CharField(blank=True, max_length=1100, null=True),
        ),
        migrations.AddConstraint(
            model_name='paper',
            constraint=models.UniqueConstraint(condition=models.Q(('landing_key__isnull', False)), fields=('landing_key',), name='paper_landing_key_unique'),
        ),
    ]
