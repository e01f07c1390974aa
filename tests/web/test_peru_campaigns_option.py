"""Peru's ``campaigns`` option (issue 18) through the scheduling form: the posted text becomes
the whole number the engine takes, and the rulebook default is left out."""

from __future__ import annotations

import engine
from facilitation.web.forms import ScheduleForm


def _form(campaigns: str) -> ScheduleForm:
    rules = engine.load("peru")
    data = {"title": "Week 3", "course_title": "COIN 101", "timer_expiry": "warn", "opt_campaigns": campaigns,
            "seat_government_by": "team", "seat_government_team": "Blue",
            "seat_shining_path_by": "team", "seat_shining_path_team": "Red"}
    return ScheduleForm(data, rules=rules, bot_kinds=list(rules.bot_kinds()))


def test_two_campaigns_reach_the_engine_as_a_number_that_sets_up_an_18_card_deck():
    form = _form("2")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["options"] == {"campaigns": 2}
    assert len(engine.load("peru").setup(1, form.cleaned_data["options"])["deck"]) == 18


def test_the_rulebook_default_is_not_stored_and_a_value_off_the_list_is_refused():
    form = _form("3")
    assert form.is_valid(), form.errors
    assert "campaigns" not in form.cleaned_data["options"]
    assert not _form("5").is_valid()
