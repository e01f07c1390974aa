from django.db import migrations, models


class Migration(migrations.Migration):
    """A report is written in one language: one row per (session, seq, language)."""

    dependencies = [
        ('reports', '0002_report_summary_pdf'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='aarreport',
            name='aarreport_unique_session_seq',
        ),
        migrations.AddField(
            model_name='aarreport',
            name='language',
            field=models.CharField(choices=[('en', 'English'), ('es', 'Español')], default='en',
                                   help_text='The language the report is written in (one of settings.LANGUAGES).',
                                   max_length=8),
        ),
        migrations.AlterField(
            model_name='aarreport',
            name='status',
            field=models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Ready'),
                                            ('failed', 'Failed')], default='queued', max_length=16),
        ),
        migrations.AddConstraint(
            model_name='aarreport',
            constraint=models.UniqueConstraint(fields=('session', 'seq', 'language'),
                                               name='aarreport_unique_session_seq_language'),
        ),
    ]
