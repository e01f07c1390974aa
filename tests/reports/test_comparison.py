"""Issue 17, deliver 6: comparison pages for all three games, with names and a sane width, lines
to the end of each game; comparison inside the AAR with earlier sessions and a bot-only game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from facilitation import services
from facilitation.reports import selectors
from facilitation.reports.builder.baseline import bot_baseline
from facilitation.reports.builder.specs import spec_for


def _session(people, scenario, title, seed=5, moves=40, options=None):
    course = people.get("course") or services.course_create(user=people["instructor"], title="COIN lab")
    people["course"] = course
    import engine

    seats = engine.load(scenario).seat_ids()
    s = services.session_create(course=course, user=people["instructor"], title=title, scenario_key=scenario,
                                seed=seed, options=options or {}, teams=["Team A"], seats={seats[0]: "Team A"})
    s = services.session_start(session=s, user=people["instructor"])
    return services.session_autoplay(session=s, user=people["instructor"], max_events=moves)


@pytest.mark.parametrize("scenario", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_comparison_page_works_for_every_game_with_names_not_keys(fresh_people, client, scenario):
    a = _session(fresh_people, scenario, "First")
    b = _session(fresh_people, scenario, "Second", seed=6)
    client.force_login(fresh_people["instructor"])
    resp = client.get(reverse("reports:compare", args=[scenario]), {"s": [a.pk, b.pk]})
    assert resp.status_code == 200
    page = resp.content.decode()
    spec = spec_for(scenario)
    # the outcome table names measures, never a raw metric key such as "govt_margin"
    for ms in spec.measures:
        if ms.fn is not None:
            continue  # needs the game's set-up (the AAR has it; the comparison page does not)
        assert ms.label.replace("'", "&#x27;") in page
    assert "_margin<" not in page and "tyranny_on_map<" not in page and "political_will<" not in page
    assert 'class="table-scroll"' in page
    # one column per session, not one per metric
    assert page.count("<th>Status</th>") == 1
    data = selectors.comparison([a, b])
    for c in data["charts"]:
        for run, s in zip(c["runs"], (a, b), strict=True):
            if run["x"]:
                last_card = selectors._card_counter(selectors._session_events_light(s), spec)[-1]
                assert run["x"][-1] == last_card, "each line runs to the end of its game"
        assert "width" not in __import__("facilitation.reports.builder.charts", fromlist=["x"]).comparison_chart(
            c["title"], c["title"], c["runs"], c["cs"])["layout"]


def test_bot_baseline_is_deterministic_and_reaches_the_end():
    spec = spec_for("peru")
    one = bot_baseline("peru", 7, {}, spec, {})
    two = bot_baseline("peru", 7, {}, spec, {})
    assert one == two and one["result"] is not None and one["bots"] == "heuristic"
    g = one["series"]["government"]
    assert g["y"][-1] == one["result"]["margins"]["government"]


def test_the_aar_compares_with_earlier_sessions_and_the_bot_game(fresh_people):
    from facilitation.reports.builder.report import build_report

    earlier = _session(fresh_people, "peru", "Monday", seed=3, moves=5000)
    later = _session(fresh_people, "peru", "Tuesday", seed=4, moves=5000)
    assert earlier.status == later.status == "finished"
    model = build_report(selectors.report_bundle(later, later.head_seq, with_snapshots=False))
    names = [r["name"] for r in model.comparison["rows"]]
    assert names[0] == "This session" and any("Monday" in n for n in names)
    assert any(n.startswith("Bots only, same seed") for n in names)
    assert not any("Tuesday" in n for n in names[1:])
    chart = model.comparison_charts[0]
    assert [d["name"] for d in chart.figure["data"]][:2] == ["This session", f"Monday (#{earlier.pk})"]
    own = model.comparison["rows"][0]["finals"]["Government margin (Political Will \u2212 10)"]
    assert own == later.result["margins"]["government"]
    # the earlier session does not see the later one (only earlier sessions are compared)
    first = build_report(selectors.report_bundle(earlier, earlier.head_seq, with_snapshots=False))
    names = [r["name"] for r in first.comparison["rows"]]
    assert len(names) == 2 and names[0] == "This session" and names[1].startswith("Bots only")
    assert "No earlier finished session" in first.comparison["note"]
