"""``manage.py check``: the Redis visibility timeout must outlast every task.

With ``acks_late`` a message stays unacknowledged while its task runs; Redis hands it
to another worker once the visibility timeout has passed. A timeout shorter than a
task may run (its hard time limit, plus the longest retry countdown) starts a second
copy of a running report build.
"""

from __future__ import annotations

from django.core.checks import Warning, register


@register("celery", deploy=False)
def visibility_timeout_outlasts_tasks(app_configs=None, **kwargs):
    from coinlab.celery import app
    from facilitation.reports import tasks

    conf = app.conf
    if conf.task_always_eager or not str(conf.broker_url or "").startswith(("redis://", "rediss://")):
        return []
    timeout = (conf.broker_transport_options or {}).get("visibility_timeout", 3600)
    longest = max(conf.task_time_limit or 0, tasks.TIME_LIMIT) + tasks.RETRY_BACKOFF_MAX
    if timeout <= longest:
        return [Warning(
            f"The Redis visibility timeout ({timeout} s) is not longer than a task may run "
            f"({longest} s: the hard time limit plus the longest retry countdown).",
            hint="Set COINLAB_CELERY_VISIBILITY_TIMEOUT above that (default 1200 s), or a second worker "
                 "will start a report build that is still running.",
            id="reports.W001")]
    return []
