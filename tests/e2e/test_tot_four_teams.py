"""Tears of Tyranny with four student teams in four browser contexts (Playwright on Debian's Chromium).

An instructor schedules a four-player Tears of Tyranny session on the schedule page, one team per
faction (Liberators, Advisors, Partisans, Comrades), and starts it; four new students join by their
team's link, each in a separate browser context, and play the whole first turn in the browser:
headquarters, the simultaneous player window (Refit, Gain Resources, Force Management, Select
Capabilities, Execute Immediate), the Adversary Phase (event, influence, dominate, develop, deploy,
terrain shift), phase 4 (Long-Term) and the clean-up, until turn 2 begins. In the simultaneous
phases the teams submit in a different order on every pass and click as soon as their own page
shows their question, without waiting for the other teams' moves to reach them. The instructor's
console watches all four teams deciding at once.

Checked on the way: each team's page shows its own player panel, hand and drawn cards with the
card text, and never another team's hand or drawn cards (the engine's ``view`` gives only hand
sizes; ``facts_for_seat`` hides the draw; the kept card is a secret decision); every decision is
logged with its rationale; the turn advances. Screenshots: test-artifacts/e2e/tot-*.png.
"""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import engine
from engine.scenarios.tears_of_tyranny.data import content
from facilitation import selectors
from facilitation.models import ROLE_INSTRUCTOR, ClassSession, SessionEvent, SubmissionKey

from .conftest import LAPTOP, PROJECTOR

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEATS = ("liberators", "advisors", "partisans", "comrades")
TEAMS = {"liberators": "Team Lima", "advisors": "Team Alfa", "partisans": "Team Papa", "comrades": "Team Charlie"}
PLAYERS = {"liberators": "lena", "advisors": "arun", "partisans": "pia", "comrades": "carlos"}
# every pass over the teams in the simultaneous phases goes in another order
ORDERS = (("comrades", "partisans", "advisors", "liberators"), ("advisors", "comrades", "liberators", "partisans"),
          ("partisans", "liberators", "comrades", "advisors"), ("liberators", "advisors", "partisans", "comrades"))
STALE = "The game has moved on"
DRAWERS = ("comrades", "advisors")
SHOTS = (("Player window", "0-steps"), ("Refit", "1-refit"), ("Keep one", "2-keep"), ("Select capabilities", "3-select"),
         ("Execute your immediate", "4-execute-immediate"), ("Choose the target", "5-target"),
         ("Execute your long-term", "6-long-term"))


def login(page, username, password):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


def choice_ids(page) -> list[str]:
    return page.locator(".choices button").evaluate_all("els => els.map(e => e.dataset.choice)")


def prompt_text(page) -> str:
    return page.inner_text("#prompt-h")


class Student:
    """One team's browser page and the way its students decide."""

    def __init__(self, seat, page):
        self.seat, self.page = seat, page
        self.tried: dict[str, int] = {}
        self.decisions = 0
        self.stale = 0
        self.keys: set[str] = set()
        self.seconds = 0.0  # time from reading the question to the server's answer, summed

    def pick(self, ids: list[str]) -> str:
        """Try what each step is about (a card, a recruit, a target) once, then move on."""
        text = prompt_text(self.page)
        wants = []
        if text.startswith("Refit"):
            # the Comrades and the Advisors draw capability cards; the Liberators add presence, the others
            # take resources
            wants = (["refit:reclaim", "refit:"] if self.seat in DRAWERS else
                     ["refit:presence", "refit:res", "refit:"] if self.seat == "liberators" else ["refit:res", "refit:"])
        elif "which deck" in text:
            wants = ["deck:major", "deck:minor"]
        elif text.startswith(("Keep one", "You kept a major")):
            wants = ["keep:", "forget:"]
        elif text.startswith("Player window"):
            # the step menu (3): the steps in the rulebook's order, then what is paid for, then done
            wants = ["step:refit", "step:income", "step:produce", "step:fm", "step:select", "exec:", "patrol",
                     "special"]
        elif text.startswith("Force management"):
            wants = ["recruit"]
        elif text.startswith("Select capabilities"):
            wants = ["play:"]
        elif text.startswith("Execute your"):
            wants = ["exec:", "patrol", "special"]
        elif text.startswith("Choose the target"):
            wants = ["tile:"]
        elif text.startswith("Add 1 presence"):
            wants = ["presence:"]
        for w in wants:
            hits = [i for i in ids if i.startswith(w)]
            once = w in ("play:", "exec:", "patrol", "special", "recruit", "step:select")
            if hits and not (once and self.tried.get(w)):
                self.tried[w] = self.tried.get(w, 0) + 1
                return hits[0]
        for pref in ("done", "skip", "decline"):
            if pref in ids:
                return pref
        return ids[0]

    def decide(self, rationale_of) -> str:
        t = time.monotonic()
        try:
            return self._decide(rationale_of)
        finally:
            self.seconds += time.monotonic() - t

    def _decide(self, rationale_of) -> str:
        page = self.page
        page.wait_for_selector("[data-turn-cue=yours] >> nth=0")
        for _ in range(3):
            ids = choice_ids(page)
            assert ids, f"{self.seat}: the turn but no choices"
            cid = self.pick(ids)
            page.fill("#id_rationale", rationale_of(self.seat, cid))
            # the region may come from the shared cache with an empty key: play.js gives it one
            key = page.locator("#choice-form input[name=key]").input_value()
            assert re.fullmatch(r"[0-9a-f]{32}", key), (self.seat, key)
            self.keys.add(key)
            sent, failed = [], []
            def on_request(r, sent=sent):
                if "/play/choose/" in r.url:
                    sent.append(r.url)

            def on_failed(r, failed=failed):
                if "/play/choose/" in r.url:
                    failed.append(f"{r.url}: {r.failure}")

            page.on("request", on_request)
            page.on("requestfailed", on_failed)
            try:
                with page.expect_response(lambda r: "/play/choose/" in r.url) as resp:
                    page.click(f".choices button[data-choice='{cid}']")
            except PlaywrightTimeout as exc:  # say what the page showed (issue 20: seen in full-suite runs)
                page.screenshot(path=f"test-artifacts/e2e/failed-decide-{self.seat}.png", full_page=True)
                seen = page.evaluate("""(cid) => {
                    const b = [...document.querySelectorAll('.choices button')].filter(e => e.dataset.choice === cid);
                    return {seq: (document.querySelector('[data-seq]') || {}).dataset,
                    cue: (document.querySelector('[data-turn-cue]') || {}).dataset,
                    prompt: (document.querySelector('#prompt-h') || {}).textContent,
                    buttons: b.map(e => ({disabled: e.disabled, shown: e.offsetParent !== null,
                                          inForm: !!e.closest('#choice-form')})),
                    rationale: (document.getElementById('id_rationale') || {}).value,
                    rationaleError: !((document.getElementById('rationale-err') || {}).hidden ?? true),
                    unprocessedSubmits: window.__coinlabUnprocessedSubmits || 0,
                    pollError: window.__coinlabPollError || null, polls: window.__coinlabPolls}}""", cid)
                # what the click waited for (Playwright's call log), and whether a decision was sent
                raise AssertionError(f"{self.seat}: no answer to the decision {cid!r}; page: {seen}; "
                                     f"decision requests sent {sent}, failed {failed}; "
                                     f"{str(exc)[:1500]}") from None
            finally:
                page.remove_listener("request", on_request)
                page.remove_listener("requestfailed", on_failed)
            assert resp.value.status == 200, resp.value.text()
            if STALE not in resp.value.text():
                self.decisions += 1
                return cid
            self.stale += 1  # the answer carries the fresh question: read it and decide again
        raise AssertionError(f"{self.seat}: three stale answers in a row")


def test_four_teams_play_a_full_turn_of_tears_of_tyranny(new_context, shoot, live_server, django_user_model):
    t0 = time.monotonic()
    cards = content().cards
    teacher = django_user_model.objects.create_user("teacher", password="teach-pass-1")
    teacher.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])

    # ---- the instructor schedules a four-team session and starts it --------------------------------
    ip = new_context(PROJECTOR).new_page()
    # The scheduling page asks for the game's length estimates (the defaults and each preset), each
    # from 6 bot-played four-player games, about 4.3 s of CPU a game, unless the games are kept in
    # the cache already (they are played ahead of time on a deployment: manage.py pace_warm; the
    # test's Redis has them only from an earlier run of the same engine version). In the live server,
    # in the test's process, those requests played games for most of a minute, starving the
    # pages' requests (the schedule form's post once got no answer in 15 s), and outlived the test:
    # their threads held 3 database connections when the test database was dropped ("database is
    # being accessed by other users", issue 20). The estimates are tested in
    # tests/facilitation/test_pacing.py and tests/web/test_schedule_presets.py; here they are
    # answered "No Content" by the browser, so htmx leaves their places as they are.
    estimates = []
    ip.route("**/sessions/pace/**", lambda route: (estimates.append(route.request.url), route.fulfill(status=204)))
    login(ip, "teacher", "teach-pass-1")
    ip.goto("/sessions/new/?scenario=tears_of_tyranny")
    ip.fill("#id_title", "Tears of Tyranny, period 4")
    ip.fill("#id_course_title", "Irregular Warfare 3")
    ip.fill("#id_scheduled_start", "2026-12-01T09:00")
    ip.fill("#id_seed", "3")
    ip.check("#id_require_rationale")  # every decision needs its rationale
    for seat, team in TEAMS.items():
        ip.select_option(f"#id_seat_{seat}_by", "team")
        ip.fill(f"#id_seat_{seat}_team", team)
    asked = 1 + len(engine.load("tears_of_tyranny").presets())  # the defaults' estimate and each preset's
    deadline = time.monotonic() + 15
    while len(estimates) < asked and time.monotonic() < deadline:
        ip.wait_for_timeout(50)  # the route handler runs while the page waits
    assert len(estimates) == asked, estimates
    ip.click("text=Schedule the session")
    ip.wait_for_url(re.compile(r"/sessions/\d+/manage/"))
    session = ClassSession.objects.get(title="Tears of Tyranny, period 4")
    links = {a.get_attribute("data-team"): a.get_attribute("href") for a in ip.locator("a.join-link").all()}
    assert set(links) == set(TEAMS.values())
    ip.click("text=Start")
    ip.wait_for_selector("#session-status.live")

    # ---- four students join, one per team, each in a browser context of its own --------------------
    students = {}
    for seat in SEATS:
        pg = new_context(LAPTOP).new_page()
        pg.goto(links[TEAMS[seat]])
        pg.fill("#id_username", PLAYERS[seat])
        pg.fill("#id_password", f"{PLAYERS[seat]}-secret-9")
        pg.click("button[type=submit]")
        pg.wait_for_url(re.compile(r"/sessions/\d+/play/"))
        assert seat.title() in pg.inner_text("h1")
        students[seat] = Student(seat, pg)
    for seat, st in students.items():
        st.page.wait_for_selector("[data-turn-cue=yours]")
        st.page.wait_for_selector(f"[data-player-panel='{seat}']")
    shoot(students["liberators"].page, "tot-01-headquarters-liberators")

    # ---- the instructor's console: all four teams deciding at once ---------------------------------
    ip.goto("/console/")
    rows = ip.locator(".seat-table tbody tr")
    ip.wait_for_function("() => document.querySelectorAll('.seat-table tr.acting').length === 4")
    assert rows.count() == 4
    console = ip.inner_text(".console")
    for seat, team in TEAMS.items():
        assert team in console and PLAYERS[seat] in console
    shoot(ip, "tot-02-console-four-teams-deciding")
    t_play = time.monotonic()

    def rationale_of(seat, cid):
        return f"{seat.title()}: {cid} fits our plan for quadrant {SEATS.index(seat) + 1}."

    def state_now():
        session.refresh_from_db()
        return selectors.session_state(session)

    checked_drawn = set()
    hands_checked = set()
    saw_table, played_seen = set(), set()
    shots = set()
    passes = 0
    rules, state = state_now()
    while state["turn"] < 2:
        p = rules.prompt(state)
        assert p is not None, "the game ended during the first turn"
        order = ORDERS[passes % len(ORDERS)]
        passes += 1
        for seat in order:
            rules, state = state_now()
            p = rules.prompt(state)
            if state["turn"] >= 2 or p is None:
                break
            if seat not in p.seats:
                continue
            st = students[seat]
            pg = st.page
            pg.wait_for_selector("[data-turn-cue=yours]")
            # ---- private information: the cards this team has drawn are on its page only ----------
            if pg.locator("[data-drawn] [data-card]").count() and seat not in checked_drawn:
                checked_drawn.add(seat)
                drawn = pg.locator("[data-drawn] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
                assert drawn == state["frames"][seat][-1]["drawn"]
                text = pg.inner_text("[data-drawn]")
                for cid in drawn:
                    c = cards[cid]
                    assert c["title"] in text and f"cost {c['cost']}" in text and c["text"].rstrip(".")[:25] in text
                for other, ost in students.items():
                    if other == seat:
                        continue
                    html = ost.page.content()
                    for cid in drawn:
                        assert cards[cid]["title"] not in html, (other, "sees", seat, cid)
                        assert f'data-card="{cid}"' not in html
                shoot(pg, f"tot-03-drawn-cards-{seat}")
            text = prompt_text(pg)
            key = text.split(":")[0].split("(")[0].strip()[:24]
            # ---- in phase 4 every team sees which cards the others paid for this turn -----------------
            if state["phase"] == "long" and seat not in saw_table:
                saw_table.add(seat)
                for other in SEATS:
                    row = pg.inner_text(f"[data-seat-row='{other}']")
                    for cid in state["pl"][other]["played"]:
                        assert cards[cid]["title"] in row, (seat, "does not see what", other, "played")
                played_seen.update(o for o in SEATS if state["pl"][o]["played"])
            # ---- each page holds its own hand, never another team's (once per kind of question) ------
            if (seat, key) not in hands_checked:
                hands_checked.add((seat, key))
                own = set(pg.locator("[data-hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
                assert own == set(state["pl"][seat]["hand"]), seat
                html = pg.content()
                for other in SEATS:
                    if other != seat:
                        for cid in state["pl"][other]["hand"]:
                            assert f'data-card="{cid}"' not in html, (seat, "sees the hand of", other)
            shot = next((name for prefix, name in SHOTS if text.startswith(prefix)), None)
            if shot and shot not in shots:
                shots.add(shot)
                shoot(pg, f"tot-04-{shot}-{seat}")
            if text.startswith("Add 1 presence") and "presence-from-map" not in shots:
                # a tile with two choices (which track row to uncover) shows both in the list when clicked
                if pg.locator("g.space.is-option").count():
                    shots.add("presence-from-map")
                    # another team's move may redraw the region meanwhile: the marks and the focus
                    # stay (play.js; test_poll_race.py redraws it on purpose)
                    pg.locator("g.space.is-option").first.click()
                    pg.locator(".choices button.from-map").nth(1).wait_for()
                    assert pg.locator(".choices button.from-map").count() == 2
                    assert pg.evaluate("document.activeElement.classList.contains('from-map')")
            if text.startswith("Choose the target"):
                # the legal target tiles are highlighted on the map and each says what defends it
                assert pg.locator("g.space.is-choice").count() >= 1
                assert "defense" in pg.inner_text(".choices [data-choice^='tile:'] [data-choice-detail]")
            st.decide(rationale_of)
        rules, state = state_now()
        assert passes < 120, "the first turn should take far fewer passes"

    # ---- turn 2: every page says so and shows what the adversary did -----------------------------------
    t_turn = time.monotonic()
    session.refresh_from_db()
    for st in students.values():
        st.page.wait_for_function("seq => +document.querySelector('[data-seq]').dataset.seq >= seq",
                                  arg=session.head_seq, timeout=6000)
        st.page.wait_for_selector("#tot-phase-h:has-text('Turn 2')")
        assert st.page.locator(".log li.fact-phase", has_text="Adversary phase (turn 1)").count() == 1
        # what the adversary did is summed up next to the phases, open while the next window runs
        summary = st.page.inner_text("[data-last-adversary]")
        assert summary.startswith("Adversary phase (turn 1)") and "Event:" in summary and "terrain card" in summary
    shoot(students["partisans"].page, "tot-05-turn-2-partisans", full_page=True)
    shoot(students["comrades"].page, "tot-06-turn-2-comrades")

    # ---- the log: every decision with its rationale, the phases of the turn in order -----------------
    events = list(SessionEvent.objects.filter(session=session).order_by("seq"))
    decisions = [e for e in events if e.kind == "decision"]
    assert len(decisions) == sum(st.decisions for st in students.values())
    # every page decision went with an idempotency key of its own region (its answer is kept)
    applied = SubmissionKey.objects.filter(session=session)
    assert applied.count() == len(decisions) == applied.values("key").distinct().count()
    for e in decisions:
        assert e.rationale == rationale_of(e.seat, e.payload["choice"]), e.seq
        assert e.actor is not None and e.actor.username == PLAYERS[e.seat]
    window = [e.seat for e in decisions if e.payload.get("turn") == "t1:window"]
    assert set(window) == set(SEATS)
    switches = sum(1 for a, b in zip(window, window[1:], strict=False) if a != b)
    assert switches >= 3 * len(SEATS), f"the four teams' window decisions interleave ({switches} switches)"
    firsts = {}
    for s in window:
        firsts.setdefault(s, len(firsts))
    assert list(firsts) != list(SEATS), "not simply in panel order"
    assert saw_table == set(SEATS) and len(played_seen) >= 2, (saw_table, played_seen)
    assert "presence-from-map" in shots, "a presence question was answered from the map"
    long_term = {e.seat for e in decisions if e.payload.get("turn") == "t1:long"}
    assert long_term == set(SEATS), "every team closed its phase 4"
    types = [f.get("type") for e in events for f in e.facts or []]
    phase_at = types.index("phase")
    adversary = types[phase_at:types.index("turn", phase_at)]
    assert "event" in adversary and "terrain" in adversary and {"develop", "deploy"} & set(adversary), adversary
    _rules, state = state_now()
    assert state["turn"] == 2 and state["phase"] == "window"
    # other teams never read which card a team kept; the keeping team does
    kept = [e for e in decisions if e.payload["choice"].startswith("keep:")]
    assert {e.seat for e in kept} == set(DRAWERS) == checked_drawn
    for e in kept:
        title = cards[e.payload["choice"].split(":", 1)[1]]["title"]
        for seat, st in students.items():
            live = st.page.request.get(f"/sessions/{session.pk}/play/live/?seat={seat}").text()
            assert (f"Keep {title}" in live) == (seat == e.seat), (seat, title)

    # ---- the instructor watches as everyone: all four hands in the table ------------------------------
    ip.goto(f"/sessions/{session.pk}/watch/")
    ip.wait_for_selector("[data-seat-row]")
    assert ip.locator("[data-seat-row]").count() == 4
    shoot(ip, "tot-07-instructor-watch-everyone", full_page=True)
    stale = sum(st.stale for st in students.values())
    took = time.monotonic() - t0
    print(f"\nToT four teams: {len(decisions)} decisions, {stale} stale answers, {took:.1f}s "
          f"(set-up {t_play - t0:.1f}s, the turn {t_turn - t_play:.1f}s of which deciding "
          f"{sum(st.seconds for st in students.values()):.1f}s)")
    assert stale <= 3, "pages one move behind still decide (facilitation.web.simultaneous)"
    # Timing is printed, never asserted: speed is judged by benchmarks, not timed tests.
