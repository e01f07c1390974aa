"""The plan form of the play page (issue 16.7; facilitation/web/views/plan.py): Tears of Tyranny's
player window (rule 3: refit 3.A, resources 3.B, force management 3.C, capabilities 3.D) picked
step by step on a draft that nothing stores, then submitted as one decision; labelled controls in
fieldsets, a refusal shown in an alert that names the step, English and Spanish."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from facilitation import selectors, services
from facilitation.models import SessionEvent
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEAT = "liberators"


def _past_headquarters(session, users):
    for seat in TOT_SEATS:
        session.refresh_from_db()
        rules, state = selectors.session_state(session)
        services.choice_submit(session=session, user=users[seat], seat=seat,
                               choice=rules.prompt(state).choices_for(seat)[0].id, seq=session.head_seq)
    session.refresh_from_db()


def _url(session, *steps):
    q = "".join(f"&step={s}" for s in steps)
    return reverse("web:play_plan", args=[session.pk]) + f"?seat={SEAT}{q}"


def test_the_play_page_offers_the_plan_in_the_window_only(client, tot):
    session, users = tot
    client.force_login(users[SEAT])
    play = reverse("web:play", args=[session.pk]) + f"?seat={SEAT}"
    assert "play/plan/" not in client.get(play).content.decode()  # 2.C headquarters: no plan
    _past_headquarters(session, users)
    html = client.get(play).content.decode()
    assert reverse("web:play_plan", args=[session.pk]) + f"?seat={SEAT}" in html


def test_picking_steps_stores_nothing_and_submitting_records_one_decision(client, tot):
    session, users = tot
    _past_headquarters(session, users)
    client.force_login(users[SEAT])
    n, head = SessionEvent.objects.filter(session=session).count(), session.head_seq
    html = client.get(_url(session)).content.decode()
    assert '<fieldset class="plan-next">' in html and 'id="plan-next-legend"' in html
    assert 'name="add" value="step:refit"' in html and "No step yet." in html
    assert re.search(r'<label for="plan-rationale">', html) and 'id="plan-submit"' in html and " disabled>" in html
    html = client.get(_url(session, "step:refit")).content.decode()
    assert "Step 2:" in html and 'value="refit:res3"' in html
    html = client.get(_url(session, "step:refit", "refit:res3")).content.decode()
    assert "<li>Refit (3.A)" in html and "gain 3 resources" in html
    assert "Submit the plan (2 steps) as one decision" in html
    session.refresh_from_db()
    assert (SessionEvent.objects.filter(session=session).count(), session.head_seq) == (n, head)
    # htmx redraws the form alone
    part = client.get(_url(session, "step:refit"), HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<section id="plan"') and "<html" not in part
    r = client.post(_url(session), {"seat": SEAT, "seq": head, "key": "page-1", "rationale": "resources first",
                                    "step": ["step:refit", "refit:res3"]})
    assert r.status_code == 302 and r["Location"].endswith(f"/play/?seat={SEAT}")
    ev = SessionEvent.objects.filter(session=session).order_by("-seq").first()
    assert ev.kind == "decision" and ev.payload["plan"] == ["step:refit", "refit:res3"]
    assert ev.rationale == "resources first"
    page = client.get(r["Location"]).content.decode()
    assert "Your plan of 2 steps was recorded as one decision." in page


def test_a_refused_plan_names_the_step_in_an_alert_and_keeps_the_good_steps(client, tot):
    session, users = tot
    _past_headquarters(session, users)
    client.force_login(users[SEAT])
    n = SessionEvent.objects.filter(session=session).count()
    r = client.post(_url(session), {"seat": SEAT, "seq": session.head_seq, "key": "page-2",
                                    "step": ["step:refit", "refit:nothing-like-it"]})
    html = r.content.decode()
    assert r.status_code == 400 and 'role="alert"' in html and "Step 2 of the plan" in html
    assert "<li>Refit (3.A)" in html  # the legal beginning stays in the draft
    assert SessionEvent.objects.filter(session=session).count() == n
    # a forged draft is refused the same way on a GET
    html = client.get(_url(session, "no-such-step")).content.decode()
    assert 'role="alert"' in html and "Step 1 of the plan" in html and "No step yet." in html


def test_another_team_cannot_draft_or_submit_this_seats_plan(client, tot):
    session, users = tot
    _past_headquarters(session, users)
    client.force_login(users["advisors"])
    n = SessionEvent.objects.filter(session=session).count()
    # a team only reaches its own seat's draft (the seat parameter falls back to its own seat)
    html = client.get(_url(session)).content.decode()
    assert "Advisors" in html and 'value="liberators"' not in html
    r = client.post(_url(session), {"seat": SEAT, "seq": session.head_seq, "step": ["step:refit"]})
    assert r.status_code in (400, 403) and SessionEvent.objects.filter(session=session).count() == n


def test_the_plan_form_in_spanish(client, tot):
    session, users = tot
    _past_headquarters(session, users)
    client.force_login(users[SEAT])
    html = client.get(_url(session, "step:refit"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="es">' in html and "Su plan" in html and "Paso 2:" in html
    assert "Enviar el plan (1 paso) como una sola decisión" in html
