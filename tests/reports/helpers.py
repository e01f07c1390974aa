"""Helpers for the AAR tests: people and complete games played through the services."""

from __future__ import annotations

import re

TEAM_GOV = "Condor Company"
TEAM_SP = "Red Sierra Cell"


def make_user(username: str, *, role: str | None = None, staff: bool = False):
    from django.contrib.auth import get_user_model

    from facilitation import services

    # no password (tests log in with force_login; hashing costs ~0.3 s per user)
    user = get_user_model().objects.create_user(username=username, first_name=username.capitalize(),
                                                is_staff=staff)
    if role:
        services.user_add_role(user=user, role=role)
    return user


def play_peru_game(*, instructor, students, reviewer=None, title="Peru lab", seed=11, human_moves=6,
                   finish=True, note=True):
    """A Peru session played through the services: intents, a few human decisions
    with rationales and decision times, a facilitator note, then bots to the end."""
    import engine
    from facilitation import services
    from facilitation.models import ClassSession

    course = services.course_create(user=instructor, title=f"COIN course for {title}")
    if reviewer is not None:
        services.course_reviewer_grant(course=course, user=instructor, reviewer=reviewer)
    rules = engine.load("peru")
    seat_ids = rules.seat_ids()
    session = services.session_create(course=course, user=instructor, title=title, scenario_key="peru",
                                      seed=seed, teams=[TEAM_GOV, TEAM_SP],
                                      seats={seat_ids[0]: TEAM_GOV, seat_ids[1]: TEAM_SP})
    teams = {t.name: t for t in session.teams.all()}
    services.team_member_add(team=teams[TEAM_GOV], user=instructor, member=students[0])
    services.team_member_add(team=teams[TEAM_SP], user=instructor, member=students[1])
    services.team_intent_set(session=session, team=teams[TEAM_GOV], user=students[0],
                             statement="Protect Lima and the coast, hunt the Directorate.")
    services.team_intent_set(session=session, team=teams[TEAM_SP], user=students[1],
                             statement="Build bases in the Sierra, then strike at Political Will.")
    session = services.session_start(session=session, user=instructor)
    owners = {seat_ids[0]: students[0], seat_ids[1]: students[1]}
    made = 0
    while made < human_moves:
        session.refresh_from_db()
        if session.status != ClassSession.Status.LIVE:
            break
        from facilitation import eventlog

        state = eventlog.load_state(session, session.head_seq)
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        choice = p.choices_for(seat)[-1 if made % 2 else 0]
        services.choice_submit(session=session, user=owners[seat], seat=seat, choice=choice.id,
                               seq=session.head_seq, rationale=f"Move {made + 1}: {choice.label}",
                               decision_ms=800 + 300 * made)
        made += 1
    if note:
        session.refresh_from_db()
        services.facilitator_note(session=session, user=instructor,
                                  text="Ask the Government team why they left Ayacucho open.")
    if finish:
        session.refresh_from_db()
        services.session_autoplay(session=session, user=instructor)
    session.refresh_from_db()
    return session


#: where the report's own words come from (the engine's and the games' texts are checked by
#: the Spanish browser test)
REPORT_SOURCES = ("templates/reports/", "facilitation/reports/", "facilitation/rendering/aar_maps.py")


def report_english() -> set[str]:
    """The report's own English sentences and headings whose Spanish differs: msgids of the
    report's sources with at least two words and no placeholders (a placeholder's value is
    the log's, e.g. a team's name)."""
    out = set()
    from tests.i18n.po import read

    for e in read():
        if not (e.msgstr and e.msgstr[0] and e.msgstr[0] != e.msgid):
            continue
        if not any(src in c for c in e.comments for src in REPORT_SOURCES):
            continue
        if "{" in e.msgid or "%(" in e.msgid or "[" in e.msgid or len(e.msgid.split()) < 2:
            continue
        out.add(e.msgid)
    return out


def people_words(session) -> list[str]:
    """What people typed (intents, rationales, notes, bookmarks): English stays English."""
    from facilitation.reports import selectors

    b = selectors.report_bundle(session, session.head_seq)
    out = [i["text"] for t in b["teams"] for i in t["intents"]] + [e.get("rationale") or "" for e in b["events"]]
    out += [n["text"] for n in b["notes"]] + [m["label"] for m in b["bookmarks"]]
    return sorted({re.sub(r"\s+", " ", x).strip() for x in out if x and x.strip()}, key=len, reverse=True)
