""""What just happened" (issue #19 deliver 1, ``facilitation.web.teach.recap``): an automatic
phase is told step by step with its rule and the changes it made, from the facts' causes and
deltas, in the reader's language."""

import random

from django.utils import translation

import engine
from facilitation.rendering.regions import seat_titles
from facilitation.web import teach


def _peru_until_propaganda():
    """Bot moves of a Peru game up to the decision whose facts hold a Propaganda Round, as
    logged events (the facts as the engine gave them)."""
    rules = engine.load("peru")
    state, rng, events = rules.setup(7, {}), random.Random(1), []
    for seq in range(1, 600):
        p = rules.prompt(state)
        seat = p.seats[0]
        c = rng.choice(p.choices_for(seat))
        state, facts = rules.apply(state, seat, c.id)
        events.append({"seq": seq, "kind": "decision", "seat": seat, "payload": {"choice": c.id, "label": c.label},
                       "facts": engine.facts_for_seat(facts, "government")})
        if any((f.get("cause") or {}).get("rule") == "6.3" for f in facts):
            return rules, events
    raise AssertionError("no Propaganda Round in 600 moves")


def test_an_automatic_phase_is_told_step_by_step_with_its_changes():
    rules, events = _peru_until_propaganda()
    assert events[-1]["seat"] == "shining_path"
    titles = seat_titles(rules)
    names = {"political_will": "Political Will", "government_resources": "Government Resources",
             "shining_path_resources": "Shining Path Resources"}
    with translation.override("en"):
        steps = teach.recap(events, "government", titles, names)
    last = steps[-1]
    assert last["head"].startswith("Shining Path chose: ")
    heads = [g["head"] for g in last["groups"]]
    assert "Automatic step: Political Will Phase (rule 6.2)" in heads
    assert "Automatic step: Resources Phase (rule 6.3)" in heads
    # each phase in the order it ran, with what it changed
    assert heads.index("Automatic step: Political Will Phase (rule 6.2)") < heads.index(
        "Automatic step: Resources Phase (rule 6.3)")
    will = last["groups"][heads.index("Automatic step: Political Will Phase (rule 6.2)")]
    assert will["changes"].startswith("Political Will ")
    # the recap starts after the Government's own last decision
    own = max(e["seq"] for e in events if e["seat"] == "government")
    assert [s["seq"] for s in steps] == [e["seq"] for e in events if e["seq"] > own][-12:]
    with translation.override("es"):
        steps_es = teach.recap(events, "government", titles, names)
    assert "Paso automático: Fase de Recursos (regla 6.3)" in [g["head"] for g in steps_es[-1]["groups"]]


def test_changes_name_only_known_metrics_with_a_sign():
    assert teach.changes_text({"political_will": -2, "x_internal": 3, "government_resources": 1.0},
                              {"political_will": "Political Will", "government_resources": "Government Resources"}) \
        == "Political Will −2, Government Resources +1"
    assert teach.changes_text({}, {}) == ""
