"""Every game in Spanish in a real browser: no English game text on the page (issue 13.1, 19.3).

For each installed game a student team plays the first seat (bots play the others), with
Spanish chosen, and makes a few decisions on the play page; the instructor's session page
(console, log) is read too. After each step the page's visible text is scanned for English
game text:

- the English catalog: every game text of the Spanish catalog (the games' data texts and
  the engine's message templates without parameters) whose Spanish differs from the English;
- the texts the engine gave this page (prompt, choice labels, the seat's facts, seat titles),
  rendered in English: each one whose Spanish rendering differs, or that is not a message
  yet and so has no Spanish at all (a game not migrated to messages fails here).

Short texts (under 4 letters) and numbers are not scanned. Screenshots:
test-artifacts/e2e/es-<game>-<step>.png.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from django.utils import translation

import engine
from engine.core import registry
from engine.core.messages import field_names, is_msg, render
from facilitation import selectors, services
from facilitation.game_texts import all_texts
from facilitation.models import ROLE_INSTRUCTOR, SessionEvent
from tests.i18n.po import read

from .conftest import LAPTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DECISIONS = 3


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def _found(text: str, page_text: str) -> bool:
    if text not in page_text:  # the pattern below matches only where the text is: most are not (2,000-3,000
        return False           # candidates a page, each a regex search of up to 70,000 characters: 2 s)
    # "¡Propaganda!" is Spanish: an opening ¡ or ¿ starts a word like a letter would
    return re.search(r"(?<![\w¡¿])" + re.escape(text) + r"(?!\w)", page_text) is not None


def english_catalog() -> set[str]:
    """Game texts of the Spanish catalog whose Spanish differs from the English (no parameters)."""
    spanish = {e.msgid: e for e in read()}
    game = {t.singular for t in all_texts()}
    out = set()
    for m, e in spanish.items():
        if e.msgstr and e.msgstr[0] != m and _letters(m) >= 4 and not field_names(m) and "%(" not in m:
            # site strings are checked by the page tests; here the games' words and templates
            if m in game or e.comments and any("engine/" in c for c in e.comments):
                out.add(m)
    return out


#: msgids whose Spanish is the same words (names such as "FARC" or "Rondas")
SAME: set[str] = set()


def engine_texts(rules, state, seat: str, session) -> set[str]:
    """The English texts this page shows from the engine, that Spanish must replace."""
    items = [s.title for s in rules.seats]
    p = rules.prompt(state)
    if p is not None and seat in p.seats:
        d = p.to_dict(seat)
        items += [d["text"], *(c["label"] for c in d["choices"]), *(c.get("help") for c in d["choices"])]
    for e in SessionEvent.objects.filter(session=session).order_by("-seq")[:20]:
        items += [f.get("text") for f in engine.facts_for_seat(e.facts or [], seat)]
        if e.seat == seat:
            items.append((e.payload or {}).get("label"))
    out = set()
    for item in items:
        if item is None or item == "":
            continue
        en = render(item)
        with translation.override("es"):
            es = render(item, translation.gettext, translation.ngettext) if is_msg(item) else translation.gettext(en)
        if _letters(en) < 4 or en == es and (is_msg(item) or en in SAME):
            continue  # the same words in both languages
        out.add(en)
    return out


def english_on(page_text: str, candidates: set[str]) -> list[str]:
    # names the Spanish catalog keeps as they are (the title "Tears of Tyranny", "FARC") are not
    # English leaking through: blank them first, so a word inside them ("Tyranny") is not counted
    for same in sorted((m for m in SAME if " " in m), key=len, reverse=True):
        page_text = page_text.replace(same, " ")
    return sorted(t for t in candidates if _found(t, page_text))


@pytest.fixture(scope="module", autouse=True)
def _same_words():
    SAME.clear()
    SAME.update(e.msgid for e in read() if e.msgstr and e.msgstr[0] == e.msgid)


def _setup(key: str, django_user_model):
    teacher = django_user_model.objects.create_user(f"t-{key}", password="pw-teacher-1")
    teacher.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])
    student = django_user_model.objects.create_user(f"s-{key}", password="pw-student-1")
    rules = registry.load(key)
    seat = rules.seat_ids()[0]
    course = services.course_create(user=teacher, title="Curso")
    session = services.session_create(course=course, user=teacher, title=f"{key} es", scenario_key=key, seed=5,
                                      teams=["Equipo"], seats={seat: "Equipo"})
    services.team_member_add(team=session.teams.get(), user=teacher, member=student)
    session = services.session_start(session=session, user=teacher)
    return session, seat, student, teacher


def _spanish_page(new_context, live_server, username: str):
    ctx = new_context(LAPTOP, locale="es-ES")
    ctx.add_cookies([{"name": "django_language", "value": "es", "url": live_server.url}])
    page = ctx.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-student-1" if username.startswith("s-") else "pw-teacher-1")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    return page


@pytest.mark.parametrize("key", [k for k in registry.keys() if registry.load(k).texts_are_messages])
def test_a_game_played_in_spanish_shows_no_english_game_text(key, new_context, live_server, shoot,
                                                             django_user_model):
    session, seat, student, teacher = _setup(key, django_user_model)
    catalog = english_catalog()
    page = _spanish_page(new_context, live_server, student.username)
    page.goto(f"/sessions/{session.pk}/play/")
    page.wait_for_selector("html[lang=es]")
    found: dict[str, list[str]] = {}
    for step in range(DECISIONS + 1):
        page.wait_for_selector("[data-turn-cue]")
        session.refresh_from_db()
        rules, state = selectors.session_state(session)
        text = page.inner_text("body")
        shoot(page, f"es-{key}-{step}")
        bad = english_on(text, catalog | engine_texts(rules, state, seat, session))
        if bad:
            found[f"play, step {step}"] = bad
        if step == DECISIONS or page.locator("[data-turn-cue=yours]").count() == 0:
            break
        ids = page.locator(".choices button").evaluate_all("els => els.map(e => e.dataset.choice)")
        if not ids:
            break
        before = session.head_seq
        with page.expect_response(lambda r: "/play/choose/" in r.url) as resp:
            page.click(f".choices button[data-choice='{ids[0]}']")
        assert resp.value.status == 200
        page.wait_for_function("seq => +document.querySelector('[data-seq]').dataset.seq > seq", arg=before)
    console = _spanish_page(new_context, live_server, teacher.username)
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    texts = catalog | engine_texts(rules, state, seat, session)
    for name, url in (("console", f"/sessions/{session.pk}/manage/"), ("replay", f"/sessions/{session.pk}/replay/")):
        console.goto(url)
        console.wait_for_selector("html[lang=es]")
        shoot(console, f"es-{key}-{name}")
        bad = english_on(console.inner_text("body"), texts)
        if bad:
            found[name] = bad
    assert not found, f"{key}: English game text on Spanish pages: {found}"


def aar_engine_texts(session) -> set[str]:
    """The English game texts an AAR of ``session`` may show: every event's facts and choice
    labels (a review shows every seat's), each whose Spanish differs."""
    items: list = []
    for e in SessionEvent.objects.filter(session=session).order_by("seq"):
        items += [f.get("text") for f in e.facts or []]
        items += [(e.payload or {}).get(k) for k in ("label", "reason", "reason_message")]
    out = set()
    for item in items:
        if not is_msg(item):
            continue
        en = render(item)
        with translation.override("es"):
            es = render(item, translation.gettext, translation.ngettext)
        if _letters(en) >= 4 and en != es:
            out.add(en)
    return out


@pytest.mark.parametrize("key", [k for k in registry.keys() if registry.load(k).texts_are_messages])
def test_the_review_pages_and_the_aar_in_spanish_show_no_english(key, new_context, live_server, shoot, artifacts,
                                                                  django_user_model, settings, kaleido_server):
    """The reviewer's pages (reports, the session's reports, a report's page, the comparison)
    and the interactive AAR of a game played a while, with Spanish chosen (issue 19.3). The
    scanned text of each page: test-artifacts/e2e/es-<game>-<page>.txt."""
    from facilitation.reports import services as report_services
    from tests.reports.helpers import people_words, report_english

    settings.COINLAB_AAR_WHATIF_DECISIONS = 1  # one road not taken (its section must be scanned too)
    settings.COINLAB_AAR_WHATIF_ROLLOUTS = 1
    session, seat, student, teacher = _setup(key, django_user_model)
    rules = registry.load(key)
    for n in range(3):  # the team's own decisions, with rationales in Spanish
        session.refresh_from_db()
        _rules, state = selectors.session_state(session)
        p = rules.prompt(state)
        if p is None or seat not in p.seats:
            break
        services.choice_submit(session=session, user=student, seat=seat, choice=p.choices_for(seat)[0].id,
                               seq=session.head_seq, rationale=f"Jugada {n + 1}", decision_ms=900)
    session.refresh_from_db()
    services.session_autoplay(session=session, user=teacher, max_events=150)
    session.refresh_from_db()
    english = report_english()
    report = report_services.report_request(session, user=teacher, enqueue=False)  # the site's language
    report = report_services.report_build(report.pk)
    assert report.status == "done" and report.language == "en", report.error
    texts = english_catalog() | aar_engine_texts(session) | english
    typed = people_words(session)
    # every bot's reason is a message (engine.bots.base.BotDecision.because): scanned like the rest
    assert all(is_msg((e.payload or {}).get("reason_message"))
               for e in SessionEvent.objects.filter(session=session, kind="bot")), "a bot reason without a message"
    page = _spanish_page(new_context, live_server, teacher.username)
    found: dict[str, list[str]] = {}

    def scan(name: str, url: str, ready: str = "html[lang=es]") -> None:
        page.goto(url)
        page.wait_for_selector(ready)
        shoot(page, f"es-{key}-{name}")
        text = page.inner_text("body")
        (artifacts / f"es-{key}-{name}.txt").write_text(text, encoding="utf-8")  # what was scanned
        for words in typed:
            text = text.replace(words, " ")
        bad = english_on(text, texts)
        if bad:
            found[name] = bad

    scan("reports", "/reports/")
    scan("session-reports", f"/reports/sessions/{session.pk}/")
    # the English report's page sends a Spanish reader to the Spanish report, built here
    page.goto(f"/reports/{report.pk}/")
    spanish = report.session.aar_reports.get(seq=report.seq, language="es")
    assert page.url.endswith(f"/reports/{spanish.pk}/")
    report_services.report_build(spanish.pk)
    scan("report-page", f"/reports/{spanish.pk}/", "#aar-files:not([hidden])")
    scan("aar", f"/reports/{spanish.pk}/report.html", "html[lang=es] #prompts")
    scan("compare", f"/reports/compare/{key}/")
    assert not found, f"{key}: English on Spanish review pages: {found}"
