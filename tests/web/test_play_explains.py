"""The play page explains the game (issue #19 deliver 1): each game's glossary page, the terms
and rule summaries of the screen, each choice's preview and "what just happened" since the
seat's last decision."""

import re

import pytest
from django.urls import reverse

from facilitation import services
from tests.conftest import create_peru_game

pytestmark = pytest.mark.django_db


def _play(game, user, cids):
    """``user``'s seat (Shining Path) makes ``cids`` in turn."""
    sp = game.seat_b
    for cid in cids:
        game.session.refresh_from_db()
        services.choice_submit(session=game.session, user=user, seat=sp, choice=cid, seq=game.session.head_seq)
    game.session.refresh_from_db()


@pytest.fixture
def peru(people):
    return create_peru_game(people)


@pytest.mark.parametrize("game", ["peru", "andean_abyss", "tears_of_tyranny"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_game_has_a_glossary_page_in_both_languages(client, game, lang):
    client.cookies["django_language"] = lang
    resp = client.get(reverse("web:glossary", args=[game]), HTTP_ACCEPT_LANGUAGE=lang)
    assert resp.status_code == 200
    page = resp.content.decode()
    import engine

    g = engine.load(game).glossary()
    assert page.count("<dt id=\"gl-") == len(g.terms) and page.count("<dt id=\"rs-") == len(g.rules)
    # every term that names its rule links to that rule's summary on the same page
    for href in re.findall(r'<a href="#(rs-[^"]+)"', page):
        assert f'id="{href}"' in page
    if lang == "es":
        assert "Glosario de" in page and "Reglas en resumen" in page
    else:
        assert "Glossary of" in page and "Rules in brief" in page


def test_an_unknown_game_has_no_glossary(client):
    assert client.get("/games/chess/glossary/").status_code == 404
    assert client.get("/games/peru/glossary/", {"x": "1"}).status_code == 200
    assert client.post("/games/peru/glossary/").status_code == 405


def test_the_question_links_its_terms_and_each_rule_has_its_summary(client, peru):
    """The Directives secret choice: "Guzman Directives Base" in the question is a link to its
    entry in "What the words mean", and the rule 1.4.4 is summarised there."""
    client.force_login(peru.people.student_b)
    page = client.get(reverse("web:play", args=[peru.session.pk])).content.decode()
    h2 = page.split('id="prompt-h">')[1].split("</h2>")[0]
    assert '<a class="term" href="#gl-directives"' in h2
    assert 'href="#rs-1-4-4"' in h2  # the question's rule links to its summary
    terms = page.split('id="terms-here"')[1].split("</details>")[0]
    assert 'id="gl-directives"' in terms and 'id="rs-1-4-4"' in terms and 'id="rs-6-5-3"' in terms
    assert "Only the Shining Path knows which Base it is" in terms


def test_each_choice_links_its_rule_summary_and_shows_its_preview(client, peru):
    _play(peru, peru.people.student_b, ["swap:junin", "box:op_sa"])
    client.force_login(peru.people.student_b)
    page = client.get(reverse("web:play", args=[peru.session.pk])).content.decode()
    choices = page.split('<ul class="choices">')[1].split("</ul>")[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", choices, flags=re.S)
    rally = next(i for i in items if 'value="op:rally"' in i)
    passing = next(i for i in items if 'value="pass"' in i)
    assert 'href="#rs-3-3-1"' in rally and "(Rule 3.3.1 in brief: Rally)" in rally
    # Pass: a certain, public effect, told before the click; Rally's effect comes later (no preview)
    assert "What this changes: Shining Path Resources +1" in passing
    assert "What this changes" not in rally
    terms = page.split('id="terms-here"')[1].split("</details>")[0]
    for rid in ("rs-3-3-1", "rs-3-3-2", "rs-3-3-3", "rs-3-3-4", "rs-2-3-3"):
        assert f'id="{rid}"' in terms
    assert 'id="gl-initiative-track"' in terms and 'id="gl-pass"' in terms  # "Operation & Special Activity", "Pass"
    assert re.search(r"What the words mean \((\d+) entries\)", terms).group(1) == str(terms.count("<dt "))


def test_previews_are_spanish_with_spanish_chosen(client, peru):
    _play(peru, peru.people.student_b, ["swap:junin", "box:op_sa"])
    client.force_login(peru.people.student_b)
    client.cookies["django_language"] = "es"
    page = client.get(reverse("web:play", args=[peru.session.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Lo que cambia: Recursos de Sendero Luminoso +1" in page
    assert "Qué significan las palabras" in page


def test_what_just_happened_since_my_last_decision(client, peru):
    """The Government reads the Shining Path's moves since its own last decision (it has none
    yet: the latest moves), a secret one as a secret, with the changes they made."""
    _play(peru, peru.people.student_b, ["swap:junin", "box:op_sa", "pass"])
    client.force_login(peru.people.student_a)
    page = client.get(reverse("web:play", args=[peru.session.pk])).content.decode()
    recap = page.split('id="recap"')[1].split("</details>")[0]
    assert "Since your last decision" in recap
    assert "Shining Path made a secret decision." in recap  # where the Directives Base is stays hidden
    assert "Junín" not in recap
    assert "Shining Path chose: Pass" in recap
    assert "Changes: Shining Path Resources +1" in recap


def test_the_recap_starts_after_the_seats_own_last_decision(client, peru):
    _play(peru, peru.people.student_b, ["swap:junin", "box:op_sa", "pass"])
    client.force_login(peru.people.student_b)
    page = client.get(reverse("web:play", args=[peru.session.pk])).content.decode()
    recap = page.split('id="recap"')[1].split("</details>")[0] if 'id="recap"' in page else ""
    assert "Shining Path chose: Pass" not in recap  # its own moves are not "what happened since"


def test_the_turn_cue_is_not_a_live_region_and_the_page_has_one_announcer(client, peru):
    """Issue #19.8: the region redrawn by every poll holds no live region (the timer is never
    read out); the page's one polite announcer sits outside the polled region."""
    client.force_login(peru.people.student_b)
    page = client.get(reverse("web:play", args=[peru.session.pk])).content.decode()
    live = page.split('<div id="live"')[1]
    assert 'role="status"' not in live.split('class="turn-cue')[1].split("</p>")[0]
    assert page.count('aria-live="polite"') == 1
    assert page.index('id="announcer"') < page.index('<div id="live"')
