"""Engine messages rendered at the edge (facilitation.text): pages, live regions, API, exports.

The toy game here speaks only in messages whose templates are in the Spanish catalog
(seat titles, piece and track names, the facilitation layer's own facts), so these tests
check the rendering path, not a game's translations (tests/i18n/test_catalog.py does that).
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from engine import Choice, Prompt, SeatInfo, fact
from engine.core import registry
from engine.core.messages import msg, msg_n
from facilitation import services
from facilitation.text import rendered, tr, with_texts
from facilitation.web.templatetags.live_markup import live_choices, live_log
from tests.web.toy import ToyRules

pytestmark = pytest.mark.django_db


def roundtrip(value):
    """What a message is once stored in the database and read back: plain dicts."""
    return json.loads(json.dumps(value))


TAKES_BACK = msg("{seat} takes back: {choice}", seat=msg("Government"), choice=msg("Troops"))


def test_a_message_read_back_from_json_renders_in_each_language_with_its_parameters_translated():
    stored = roundtrip(TAKES_BACK)
    assert type(stored) is dict
    with translation.override("es"):
        assert tr(stored) == "Gobierno deshace: Tropas"
    with translation.override("en"):
        assert tr(stored) == "Government takes back: Troops"


def test_plural_messages_use_ngettext():
    one, two = roundtrip(msg_n("{count} space", "{count} spaces", 1)), roundtrip(msg_n("{count} space", "{count} spaces", 2))
    assert (tr(one), tr(two)) == ("1 space", "2 spaces")


def test_a_legacy_english_string_is_looked_up_and_otherwise_kept():
    with translation.override("es"):
        assert tr("Government") == "Gobierno"  # a seat title of a game not migrated yet
        assert tr("Some sentence no catalog knows.") == "Some sentence no catalog knows."
        assert tr("") == "" and tr(None) == ""


def test_rendered_replaces_every_message_and_leaves_ids_alone():
    view = {"card": {"id": "c1", "title": roundtrip(msg("Political Will"))},
            "spaces": [{"id": "junin", "markers": [roundtrip(msg("Emergency Zone"))]}], "state": "tyranny"}
    with translation.override("es"):
        out = rendered(view)
    assert out == {"card": {"id": "c1", "title": "Voluntad Política"},
                   "spaces": [{"id": "junin", "markers": ["Zona de Emergencia"]}], "state": "tyranny"}


def test_api_form_keeps_the_text_field_and_adds_the_message():
    fact_ = roundtrip(fact("undo", TAKES_BACK))
    with translation.override("es"):
        out = with_texts({"facts": [fact_], "label": "plain"})
    f = out["facts"][0]
    assert f["text"] == "Gobierno deshace: Tropas"
    assert f["text_msg"] == roundtrip(TAKES_BACK)
    assert out["label"] == "plain" and "label_msg" not in out


def test_the_tr_filter_renders_messages_and_passes_numbers_through():
    t = Template("{% load coinlab_web %}{{ m|tr }} · {{ n|tr }}")
    with translation.override("es"):
        assert t.render(Context({"m": roundtrip(TAKES_BACK), "n": 3})) == "Gobierno deshace: Tropas · 3"


def test_live_string_builders_render_message_dicts_never_their_repr():
    log = [{"seq": 4, "head": "x", "facts": [roundtrip(TAKES_BACK)], "phase_breaks": []}]
    choices = [{"id": "op:a", "label": roundtrip(msg("Police"))}]
    with translation.override("es"):
        html = live_log(log) + live_choices(choices, {})
    assert "Gobierno deshace: Tropas" in html and "Policía" in html
    assert "'msg'" not in html and "&#x27;msg&#x27;" not in html and "{" not in html


class MessageToy(ToyRules):
    """The toy game with every text a message."""

    key = "toy"
    title = "Toy Insurgency"
    seats = (SeatInfo("govt", msg("Government"), "#0072B2"), SeatInfo("rebels", msg("Shining Path"), "#D55E00"))

    def prompt(self, state):
        if state["turn"] >= 4:
            return None
        seat = "govt" if state["turn"] % 2 == 0 else "rebels"
        return Prompt(seats=(seat,), text=msg("Deployment"), rule="3.1", kind="op", turn=str(state["turn"]),
                      choices=[Choice("op:troops", msg("Troops"), help=msg("Police")),
                               Choice("op:police", msg("Police"))])

    def apply_unchecked(self, state, seat, choice_id):
        state["turn"] += 1
        return [fact("op", msg("{seat} takes back: {choice}", seat=msg("Government"),
                               choice=msg("Troops") if choice_id == "op:troops" else msg("Police")))]

    def view(self, state, seat):
        v = super().view(state, seat)
        v["capabilities"] = [msg("Sabotage")]
        return v

    def board_map(self):
        """The toy's map with its factions named as its seats (the board's legend names them)."""
        m = super().board_map()
        names = {s.id: s.title for s in self.seats}
        return dataclasses.replace(m, factions=tuple(dataclasses.replace(f, name=names.get(f.id, f.name))
                                                     for f in m.factions))


@pytest.fixture
def message_toy(monkeypatch, instructor, students):
    monkeypatch.setitem(registry._cache, "toy", MessageToy())
    real_keys = registry.keys
    monkeypatch.setattr(registry, "keys", lambda: sorted({*real_keys(), "toy"}))
    course = services.course_create(user=instructor, title="COIN 101")
    session = services.session_create(course=course, user=instructor, title="Toy game", scenario_key="toy",
                                      seed=3, teams=["Blue", "Red"], seats={"govt": "Blue", "rebels": "Red"})
    blue, red = session.teams.order_by("id")
    services.team_member_add(team=blue, user=instructor, member=students[0])
    services.team_member_add(team=red, user=instructor, member=students[1])
    session = services.session_start(session=session, user=instructor)
    services.choice_submit(session=session, user=students[0], seat="govt", choice="op:troops",
                           seq=session.head_seq)
    session.refresh_from_db()
    return session


def _spanish(client):
    client.post(reverse("web:set_language"), {"language": "es", "next": "/"})


def test_play_page_live_region_console_and_replay_show_messages_in_spanish(client, message_toy, instructor,
                                                                          students):
    try:
        client.force_login(students[1])
        _spanish(client)
        page = client.get(reverse("web:play", args=[message_toy.pk])).content.decode()
        live = client.get(reverse("web:play_live", args=[message_toy.pk])).content.decode()
        client.force_login(instructor)
        _spanish(client)
        console = client.get(reverse("web:manage", args=[message_toy.pk])).content.decode()
        replay = client.get(reverse("web:replay", args=[message_toy.pk])).content.decode()
    finally:
        translation.activate("en")
    for html in (page, live):
        # prompt, choice labels, seat titles, the log's facts and the capabilities in force
        for words in ("Despliegue", "Tropas", "Policía", "Sendero Luminoso", "Gobierno deshace: Tropas", "Sabotaje"):
            assert words in html, words
    for html in (console, replay):
        for words in ("Gobierno", "Sendero Luminoso", "Gobierno deshace: Tropas"):
            assert words in html, words
    for html in (page, live, console, replay):
        assert "&#x27;msg&#x27;" not in html and "'msg'" not in html and '"msg"' not in html


def test_the_live_region_is_kept_per_language(client, message_toy, students):
    client.force_login(students[1])
    try:
        english = client.get(reverse("web:play_live", args=[message_toy.pk])).content.decode()
        _spanish(client)
        spanish = client.get(reverse("web:play_live", args=[message_toy.pk])).content.decode()
    finally:
        translation.activate("en")
    assert "Deployment" in english and "Despliegue" not in english
    assert "Despliegue" in spanish and "Deployment" not in spanish


def test_api_answers_text_in_the_request_language_and_the_message_beside_it(client, message_toy, students):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(students[1])
    url = f"/api/sessions/{message_toy.pk}/seats/rebels/prompt/"
    es = api.get(url, HTTP_ACCEPT_LANGUAGE="es")
    en = api.get(url, HTTP_ACCEPT_LANGUAGE="en")
    translation.activate("en")
    assert es.status_code == 200 and en.status_code == 200
    assert es.json()["prompt"]["text"] == "Despliegue" and en.json()["prompt"]["text"] == "Deployment"
    assert es.json()["prompt"]["text_msg"] == {"msg": "Deployment"}
    assert [c["label"] for c in es.json()["prompt"]["choices"]] == ["Tropas", "Policía"]
    assert es.json()["prompt"]["choices"][0]["help"] == "Policía"
    assert es["ETag"] != en["ETag"], "the ETag holds the language"
    events = api.get(f"/api/sessions/{message_toy.pk}/seats/rebels/events/", HTTP_ACCEPT_LANGUAGE="es").json()
    translation.activate("en")
    texts = [f["text"] for e in events["events"] for f in e["facts"]]
    assert "Gobierno deshace: Tropas" in texts
    assert all(isinstance(t, str) for t in texts)


def test_csv_export_writes_the_choice_label_as_text(message_toy):
    from facilitation.reports.selectors import session_events_csv

    csv_text = session_events_csv(message_toy)
    assert ",Troops," in csv_text
    assert "{'msg'" not in csv_text


def test_report_bundle_holds_text_not_messages(message_toy):
    from facilitation.reports.selectors import report_bundle

    b = report_bundle(message_toy, message_toy.head_seq, with_snapshots=False)
    facts = [f["text"] for e in b["events"] for f in e["facts"]]
    assert "Government takes back: Troops" in facts
    assert [s["title"] for s in b["scenario"]["seats"]] == ["Government", "Shining Path"]
    assert b["events"][-1]["payload"]["label"] == "Troops"


def test_a_refusal_written_as_a_message_reads_in_the_request_language():
    from facilitation.api.errors import exception_handler
    from facilitation.errors import ValidationFailed

    with translation.override("es"):
        exc = ValidationFailed(roundtrip(msg("{seat} takes back a secret decision.", seat=msg("Government"))),
                               code="illegal_choice")
        body = exception_handler(exc, {}).data
    assert exc.message == body["detail"] == "Gobierno deshace una decisión secreta."
    assert body["detail_msg"]["msg"] == "{seat} takes back a secret decision."
    assert "detail_msg" not in exception_handler(ValidationFailed("plain"), {}).data
