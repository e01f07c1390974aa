import pytest
from django.contrib.auth.models import Group

from engine.core import registry
from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR

from .toy import ToyRules


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each web test starts with an empty shared cache: live regions, seat lists and session
    versions are keyed by database ids, which a later test may reuse (a test run right after
    tests that leave keys behind, e.g. tests/hardening, would otherwise read them)."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def toy_rules(monkeypatch):
    rules = ToyRules()
    monkeypatch.setitem(registry._cache, "toy", rules)
    real_keys = registry.keys
    monkeypatch.setattr(registry, "keys", lambda: sorted({*real_keys(), "toy"}))
    return rules


@pytest.fixture
def instructor(django_user_model):
    u = django_user_model.objects.create_user("teacher", password="pw-teacher-1")
    u.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])
    return u


@pytest.fixture
def students(django_user_model):
    return [django_user_model.objects.create_user(f"student{i}", password="pw-student-1") for i in (1, 2)]


@pytest.fixture
def toy_session(toy_rules, instructor, students):
    course = services.course_create(user=instructor, title="COIN 101")
    session = services.session_create(course=course, user=instructor, title="Toy game", scenario_key="toy",
                                      seed=3, teams=["Blue", "Red"], seats={"govt": "Blue", "rebels": "Red"})
    blue, red = session.teams.order_by("id")
    services.team_member_add(team=blue, user=instructor, member=students[0])
    services.team_member_add(team=red, user=instructor, member=students[1])
    return session
