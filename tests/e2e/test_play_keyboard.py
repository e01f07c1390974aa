"""The play page by keyboard and screen reader (issue #19 deliver 8) and the game explaining
itself (deliver 1), in Debian's Chromium:

- a whole Peru turn played with Tab, Enter and Space only (no mouse), the focus never left on
  the page body, the focus ring at least 3:1 and drawn inside the scrolling choice list;
- a live update (the other team's move arriving by a poll) keeps "Board as text" open, the
  log's scroll position and the keyboard focus, and the move is announced once in the page's
  polite live region (outside the polled region; the timer is not in it);
- a term of the question and a choice's rule lead, by keyboard, to their explanation on the page;
- every glossary term a choice's label or the map's legend names has a link (beside the
  choices, in the legend; each term once there), in English and in Spanish, that leads by
  keyboard to its explanation;
- projector mode (larger type) is a toggle remembered by the browser, and the decision still
  starts on the first screen at 1920x1080;
- axe-core finds no WCAG 2.1 A/AA violation with the explanations open.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from facilitation import services
from tests.conftest import People, create_peru_game, make_user

from .conftest import FAST_POLL_MS, LAPTOP, PROJECTOR, polls_answered, wait_polls
from .test_accessibility import WCAG_AA, _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _people() -> People:
    return People(instructor=make_user("ines", "instructor"), other_instructor=make_user("otto", "instructor"),
                  student_a=make_user("alma", "student"), student_b=make_user("beto", "student"),
                  reviewer=make_user("rafa", "reviewer"))


def _sp_moves(game, cids):
    for cid in cids:
        game.session.refresh_from_db()
        services.choice_submit(session=game.session, user=game.people.student_b, seat=game.seat_b, choice=cid,
                               seq=game.session.head_seq)
    game.session.refresh_from_db()


def _tab_to(page, selector: str, limit: int = 250) -> None:
    """Press Tab (only Tab) until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _answer(resp) -> str:
    """What a decision's answer said, for a failure's message: its status, the seq of its region
    and the messages it carried (a refusal says why)."""
    text = resp.text()
    seq = re.search(r'data-seq="(\d+)"', text)
    msgs = re.findall(r'<ul class="messages".*?</ul>', text, flags=re.S) if resp.status == 200 else [
        " ".join(re.sub(r"<[^>]+>", " ", text).split())[:300]]
    headers = {k: v for k, v in resp.request.headers.items() if k.lower().startswith(("x-csrf", "hx-"))}
    return (f"answer {resp.status}, region seq {seq.group(1) if seq else '?'}, posted {resp.request.post_data}, "
            f"headers {headers}, {msgs}")


def _focus_on_body(page) -> bool:
    return page.evaluate("document.activeElement === document.body || !document.activeElement")


def _luminance(rgb: str) -> float:
    parts = [float(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]

    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in parts)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_a_whole_peru_turn_by_keyboard_only(new_context, live_server, shoot):
    """The Shining Path's first turn: hide the Directives Base, take the Limited Operation box,
    Rally, choose Lima, place the Guerrilla: Tab to each choice, Enter or Space to choose."""
    people = _people()
    game = create_peru_game(people)
    ctx = new_context(viewport=LAPTOP)
    _login(ctx, people.student_b, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{game.session.pk}/play/")
    page.wait_for_selector("[data-turn-cue=yours]")
    steps = [("swap:junin", "Enter"), ("box:limited_op", "Space"), ("op:rally", "Enter"),
             ("space:lima", "Space"), ("rally:1", "Enter")]
    for n, (cid, key) in enumerate(steps):
        sel = f'.choices button[data-choice="{cid}"]'
        page.wait_for_selector(sel)
        _tab_to(page, sel)
        if n == 0:
            # the focus ring: solid, at least 3 px, 3:1 against the button, drawn inside the scrolling list
            ring = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
                const list = e.closest('.choices').getBoundingClientRect(), r = e.getBoundingClientRect();
                return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), offset: parseFloat(s.outlineOffset),
                        color: s.outlineColor, bg: s.backgroundColor, inside: r.left >= list.left && r.right <= list.right}; }""")
            assert ring["style"] == "solid" and ring["width"] >= 3, ring
            assert ring["offset"] + ring["width"] <= 0 and ring["inside"], f"the ring would be clipped: {ring}"
            bg = ring["bg"] if "rgba(0, 0, 0, 0)" not in ring["bg"] else "rgb(255, 255, 255)"
            assert _contrast(ring["color"], bg) >= 3, ring
            shoot(page, "keyboard-peru-focus-ring")
        seq = game.session.head_seq
        with page.expect_response(lambda r: "/play/choose/" in r.url) as answer:
            page.keyboard.press(key)
        game.session.refresh_from_db()
        assert game.session.head_seq > seq, f"{cid}: nothing was decided, {_answer(answer.value)}"
        page.wait_for_function("seq => +document.querySelector('#live [data-seq]').getAttribute('data-seq') > seq",
                               arg=seq)
        assert not _focus_on_body(page), f"after {cid} the focus fell to the page body"
    page.wait_for_selector("[data-turn-cue=waiting]")
    assert not _focus_on_body(page)
    last = list(game.session.events.order_by("seq").values_list("payload", flat=True))
    assert [p.get("choice") for p in last if p.get("choice")][-5:] == [c for c, _ in steps]


def test_a_live_update_keeps_the_place_and_announces_the_other_teams_move(new_context, live_server, shoot):
    people = _people()
    game = create_peru_game(people)
    _sp_moves(game, ["swap:junin", "box:limited_op", "op:rally"])
    # the page polls every FAST_POLL_MS (served: 1.5 s): what is tested is what a poll's redraw
    # keeps and announces, not how often it comes
    ctx = new_context(viewport=LAPTOP, poll_ms=FAST_POLL_MS)
    _login(ctx, people.student_a, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{game.session.pk}/play/")
    page.wait_for_selector("[data-turn-cue=waiting]")
    # Board as text open, the log scrolled, the focus on the table's summary (by keyboard)
    _tab_to(page, "details.board-text > summary")
    page.keyboard.press("Enter")
    assert page.eval_on_selector("details.board-text", "d => d.open")
    page.eval_on_selector(".play-side .log", "e => { e.style.maxHeight = '4rem'; e.scrollTop = 30; }")
    scrolled = page.eval_on_selector(".play-side .log", "e => e.scrollTop")
    assert scrolled > 0
    before = page.eval_on_selector("#live [data-seq]", "e => +e.getAttribute('data-seq')")
    _sp_moves(game, ["space:lima"])  # the other team moves; this page learns it from its poll
    page.wait_for_function("s => +document.querySelector('#live [data-seq]').getAttribute('data-seq') > s", arg=before)
    assert page.eval_on_selector("details.board-text", "d => d.open"), "the live update collapsed Board as text"
    page.eval_on_selector(".play-side .log", "e => { e.style.maxHeight = '4rem'; }")
    assert page.eval_on_selector(".play-side .log", "e => e.scrollTop") == scrolled, "the log jumped back"
    assert page.evaluate("document.activeElement.matches('details.board-text > summary')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    # the move is told once in the polite region outside the polled region; the timer never is
    page.wait_for_function("() => document.getElementById('announcer').textContent.includes('Shining Path')")
    told = page.eval_on_selector("#announcer", "e => e.textContent")
    assert "Rally in Lima" in told or "Lima" in told, told
    assert page.evaluate("document.querySelectorAll('[aria-live], [role=status], [role=alert]').length") == 1
    n_told = page.eval_on_selector("#announcer", "e => e.childElementCount")
    wait_polls(page, polls_answered(page), 2)  # two more polls with nothing new: nothing is announced again
    assert page.eval_on_selector("#announcer", "e => e.childElementCount") == n_told
    # the Shining Path's last step makes it the Government's turn: announced, focus on a choice
    _sp_moves(game, ["rally:1"])
    page.wait_for_selector("[data-turn-cue=yours]")
    page.wait_for_function("() => document.getElementById('announcer').textContent.includes('Your turn')")
    assert not _focus_on_body(page)
    shoot(page, "live-update-kept-place")


def test_terms_and_rules_lead_to_their_explanation_by_keyboard(new_context, live_server, shoot):
    people = _people()
    game = create_peru_game(people)
    ctx = new_context(viewport=LAPTOP, poll_ms=FAST_POLL_MS)  # the moves below reach the page by a poll
    _login(ctx, people.student_b, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{game.session.pk}/play/")
    page.wait_for_selector("[data-turn-cue=yours]")
    _tab_to(page, '#prompt-h a.term[data-term="directives"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'gl-directives'")
    assert page.eval_on_selector("#terms-here", "d => d.open")
    assert "Only the Shining Path knows" in page.eval_on_selector("#gl-directives + dd", "e => e.textContent")
    _sp_moves(game, ["swap:junin", "box:op_sa"])
    page.wait_for_selector('.choices button[data-choice="op:rally"]')
    assert page.eval_on_selector("#terms-here", "d => d.open"), "the open explanations closed on the update"
    _tab_to(page, 'a.choice-rule-link[href="#rs-3-3-1"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rs-3-3-1'")
    pass_text = page.eval_on_selector('.choices button[data-choice="pass"]', "e => e.textContent")
    assert "What this changes: Shining Path Resources +1" in pass_text
    shoot(page, "explanations-open")
    # with the explanations and the recap open, axe-core finds nothing
    page.evaluate("document.querySelectorAll('#live details').forEach(d => d.open = true)")
    violations = Axe().run(page, options=WCAG_AA).response["violations"]
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]


def test_projector_mode_enlarges_the_type_and_keeps_the_decision_on_screen(new_context, live_server, shoot):
    people = _people()
    game = create_peru_game(people)
    ctx = new_context(viewport=PROJECTOR)
    _login(ctx, people.student_b, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{game.session.pk}/play/")
    page.wait_for_selector("[data-turn-cue=yours]")
    normal = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    _tab_to(page, "button[data-projector]")
    page.keyboard.press("Space")
    assert page.get_attribute("button[data-projector]", "aria-pressed") == "true"
    big = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert big >= normal * 1.15, (normal, big)
    page.reload()
    page.wait_for_selector("[data-turn-cue=yours]")
    assert page.evaluate("document.documentElement.classList.contains('projector')")
    for sel in ("#prompt-h", ".choices li:first-child button"):
        assert page.eval_on_selector(sel, "e => { const r = e.getBoundingClientRect(); "
                                          "return r.top >= 0 && r.bottom <= window.innerHeight; }"), sel
    shoot(page, "projector-mode-1920")


def test_a_whole_andean_abyss_turn_by_keyboard_only(new_context, live_server):
    """The AUC (1st Eligible on the first card): Operation Rally, Bogotá, place a Guerrilla, Done:
    Tab to each choice, Enter or Space to choose; the focus never falls to the page body."""
    import engine
    from facilitation.models import ROLE_INSTRUCTOR, ROLE_STUDENT

    inst, student = make_user("ines", ROLE_INSTRUCTOR), make_user("alma", ROLE_STUDENT)
    course = services.course_create(user=inst, title="COIN 101")
    seat_ids = engine.load("andean_abyss").seat_ids()
    names = [f"Team {s}" for s in seat_ids]
    session = services.session_create(course=course, user=inst, title="AA", scenario_key="andean_abyss", seed=5,
                                      teams=names, seats=dict(zip(seat_ids, names, strict=True)))
    auc_team = session.teams.get(name="Team auc")
    services.team_member_add(team=auc_team, user=inst, member=student)
    services.session_start(session=session, user=inst)
    ctx = new_context(viewport=LAPTOP)
    _login(ctx, student, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{session.pk}/play/?seat=auc")
    page.wait_for_selector("[data-turn-cue=yours]")
    steps = [("op:rally", "Enter"), ("space:bogota", "Space"), ("place", "Enter"), ("done", "Space")]
    for cid, key in steps:
        sel = f'.choices button[data-choice="{cid}"]'
        page.wait_for_selector(sel)
        _tab_to(page, sel)
        session.refresh_from_db()
        seq = session.head_seq
        with page.expect_response(lambda r: "/play/choose/" in r.url) as answer:
            page.keyboard.press(key)
        session.refresh_from_db()
        assert session.head_seq > seq, f"{cid}: nothing was decided, {_answer(answer.value)}"
        page.wait_for_function("seq => +document.querySelector('#live [data-seq]').getAttribute('data-seq') > seq",
                               arg=seq)
        assert not _focus_on_body(page), f"after {cid} the focus fell to the page body"
    page.wait_for_selector("[data-turn-cue=waiting]")
    assert not _focus_on_body(page)


def _keyboard_choose(page, cid: str, key: str, session) -> None:
    sel = f'.choices button[data-choice="{cid}"]'
    _tab_to(page, sel)
    session.refresh_from_db()
    seq = session.head_seq
    with page.expect_response(lambda r: "/play/choose/" in r.url) as answer:
        page.keyboard.press(key)
    session.refresh_from_db()
    assert session.head_seq > seq, f"{cid}: nothing was decided, {_answer(answer.value)}"
    page.wait_for_function("seq => +document.querySelector('#live [data-seq]').getAttribute('data-seq') > seq",
                           arg=seq)
    assert not _focus_on_body(page), f"after {cid} the focus fell to the page body"


def test_a_whole_tears_of_tyranny_window_by_keyboard_only(new_context, live_server, tot_four):
    """The Liberators place their headquarters, then play their whole player window (refit,
    the other steps, done) with Tab, Enter and Space only, choosing what the page offers: the
    window's "done" as soon as it is offered, the resource refit options, else the first choice."""
    session, student = tot_four.session, tot_four.users["liberators"]
    ctx = new_context(viewport=LAPTOP, poll_ms=FAST_POLL_MS)  # the other teams' headquarters come by a poll
    _login(ctx, student, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{session.pk}/play/")
    page.wait_for_selector("[data-turn-cue=yours]")
    first = page.eval_on_selector(".choices button", "b => b.dataset.choice")
    assert first.startswith("hq:")
    _keyboard_choose(page, first, "Enter", session)
    for seat in ("advisors", "partisans", "comrades"):  # the other teams place theirs
        from facilitation import selectors

        session.refresh_from_db()
        rules, state = selectors.session_state(session)
        cid = rules.prompt(state).choices_for(seat)[0].id
        services.choice_submit(session=session, user=tot_four.users[seat], seat=seat, choice=cid,
                               seq=session.head_seq)
    # the page decides from the position after the other teams' headquarters, which comes by a
    # poll: until then it may still show its own turn at the older seq (issue 20: a decision
    # sent from it was refused, "the game has moved on", in a full-suite run)
    session.refresh_from_db()
    page.locator(f"#live [data-seq='{session.head_seq}']").wait_for(state="attached")
    page.wait_for_selector("[data-turn-cue=yours]")
    made = []
    for n in range(25):
        page.wait_for_selector(".choices button")
        ids = page.eval_on_selector_all(".choices button", "bs => bs.map(b => b.dataset.choice)")
        cid = ("done" if "done" in ids and made else
               next((i for i in ids if i.startswith("refit:res")), None) or ids[0])
        _keyboard_choose(page, cid, "Space" if n % 2 else "Enter", session)
        made.append(cid)
        if cid == "done":
            break
    assert made[-1] == "done" and "step:refit" in made, made
    page.wait_for_selector("[data-turn-cue=waiting]")
    assert not _focus_on_body(page)


def _legend_terms(page) -> set[str]:
    """The glossary terms the legend shows (its text as the browser shows it, read by the glossary)."""
    from facilitation.web import teach

    texts = page.eval_on_selector_all("#board-caption .legend-item", "els => els.map(e => e.textContent)")
    return {t["key"] for t in teach.terms_in("peru", texts)}


def _label_terms(game, language: str) -> set[str]:
    """The glossary terms the seat's choice labels name now, in ``language`` (the server's view)."""
    from django.utils import translation

    from facilitation import selectors
    from facilitation.text import tr
    from facilitation.web import teach

    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    with translation.override(language):
        labels = [tr(c.label) for c in p.choices_for(game.seat_b)]
        return {t["key"] for t in teach.terms_in("peru", labels)}


def test_the_terms_of_the_choices_and_the_legend_lead_to_their_meaning_by_keyboard(new_context, live_server, shoot):
    from django.conf import settings
    from django.utils import translation

    people = _people()
    game = create_peru_game(people)
    _sp_moves(game, ["swap:junin", "box:op_sa"])
    for language in ("en", "es"):
        expected = _label_terms(game, language)
        assert expected, f"{language}: no glossary term in the choices' labels: nothing to link"
        ctx = new_context(viewport=LAPTOP, locale="es-ES" if language == "es" else "en-US")
        ctx.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
        _login(ctx, people.student_b, live_server.url)
        page = ctx.new_page()
        page.goto(f"/sessions/{game.session.pk}/play/")
        page.wait_for_selector(f"html[lang={language}] .choices button[data-choice]")
        linked = page.eval_on_selector_all(".choices a.choice-term-link", "as => as.map(a => a.dataset.term)")
        assert set(linked) == expected and len(linked) == len(set(linked)), (language, linked, expected)
        # each link's target is the term's entry on the page
        for key in expected:
            assert page.locator(f'#terms-here dt[id="gl-{key}"]').count() == 1, key
        first = linked[0]
        _tab_to(page, f'.choices a.choice-term-link[data-term="{first}"]')
        page.keyboard.press("Enter")
        page.wait_for_function("id => document.activeElement && document.activeElement.id === id", arg=f"gl-{first}")
        assert page.eval_on_selector("#terms-here", "d => d.open")
        shoot(page, f"choice-terms-{language}")
        # the legend: every term it names is linked there once, and leads to its meaning
        with translation.override(language):
            in_legend = _legend_terms(page)
        legend_links = page.eval_on_selector_all("#board-caption a.term", "as => as.map(a => a.dataset.term)")
        assert in_legend and set(legend_links) == in_legend and len(legend_links) == len(in_legend), (
            language, legend_links, in_legend)
        for key in in_legend:
            assert page.locator(f'#terms-here dt[id="gl-{key}"]').count() == 1, key
        page.evaluate("document.querySelector('#terms-here').open = false")
        _tab_to(page, f'#board-caption a.term[data-term="{legend_links[0]}"]')
        page.keyboard.press("Enter")
        page.wait_for_function("id => document.activeElement && document.activeElement.id === id",
                               arg=f"gl-{legend_links[0]}")
        assert page.eval_on_selector("#terms-here", "d => d.open")
        violations = Axe().run(page, options=WCAG_AA).response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
        ctx.close()
