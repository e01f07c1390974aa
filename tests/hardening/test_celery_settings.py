"""The Celery settings a killed worker's recovery depends on (docs/operations.md, "Failures")."""

from __future__ import annotations

import pytest


def test_visibility_timeout_outlasts_every_task_and_its_retry_countdown():
    from coinlab.celery import app
    from facilitation.reports.tasks import RETRY_BACKOFF_MAX, build_aar_report

    conf = app.conf
    timeout = conf.broker_transport_options["visibility_timeout"]
    assert build_aar_report.time_limit < conf.task_time_limit
    assert timeout > conf.task_time_limit + RETRY_BACKOFF_MAX
    assert timeout > build_aar_report.time_limit + build_aar_report.retry_backoff_max
    # publishing still gives up within seconds when Redis is down (503, not a hang)
    assert conf.broker_transport_options["max_retries"] <= 2


def test_worker_loss_settings():
    from coinlab.celery import app
    from facilitation.reports.tasks import build_aar_report

    conf = app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    assert build_aar_report.acks_late and build_aar_report.reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    assert conf.worker_cancel_long_running_tasks_on_connection_loss is True
    assert conf.broker_connection_max_retries is None
    assert conf.task_acks_on_failure_or_timeout is True  # a build killed by its time limit is not redelivered


@pytest.mark.parametrize("timeout,warned", [(300, True), (660, True), (661, False), (1200, False)])
def test_check_warns_about_a_short_visibility_timeout(monkeypatch, timeout, warned):
    from coinlab.celery import app
    from facilitation.reports.checks import visibility_timeout_outlasts_tasks

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setitem(app.conf, "broker_url", "redis://cache.internal:6379/0")
    monkeypatch.setitem(app.conf, "broker_transport_options",
                        {**app.conf.broker_transport_options, "visibility_timeout": timeout})
    found = visibility_timeout_outlasts_tasks()
    assert [w.id for w in found] == (["reports.W001"] if warned else [])


def test_the_default_settings_pass_the_check():
    from facilitation.reports.checks import visibility_timeout_outlasts_tasks

    assert visibility_timeout_outlasts_tasks() == []
