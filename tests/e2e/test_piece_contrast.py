"""Text on coloured pieces and badges is readable (issue #19 deliver 8): on the play page of
each game, every piece letter drawn on the map and every faction badge reaches 4.5:1 against
the colour it is drawn on (the piece's fill as shown, its transparency blended over the space).
axe-core checks HTML text; this reads the map's SVG text too."""

from __future__ import annotations

import pytest

import engine
from facilitation import services
from tests.conftest import People, create_peru_game, make_user

from .conftest import LAPTOP
from .test_accessibility import _login
from .test_play_keyboard import _contrast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# each piece letter with the colour under it: the chip's fill at its fill-opacity over the
# space's fill (or the map's background); each badge with its own background
_PAIRS = """() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const mix = (top, a, under) => top.map((v, i) => Math.round(v * a + under[i] * (1 - a)));
  const out = [];
  document.querySelectorAll('.piece').forEach(p => {
    const chip = p.querySelector('.chip'), text = p.querySelector('.chip-text');
    if (!chip || !text || !text.textContent.trim()) { return; }
    const cs = getComputedStyle(chip), space = p.closest('.space');
    const shape = space && space.querySelector('.space-shape');
    const under = shape ? rgb(getComputedStyle(shape).fill) : [238, 241, 230];
    const a = parseFloat(cs.fillOpacity || '1');
    out.push({what: 'piece ' + text.textContent.trim() + ' (' + p.getAttribute('class') + ')',
              fg: 'rgb(' + rgb(getComputedStyle(text).fill).slice(0, 3).join(',') + ')',
              bg: 'rgb(' + mix(rgb(cs.fill).slice(0, 3), a, under.slice(0, 3)).join(',') + ')'});
  });
  document.querySelectorAll('.seat-chip, .badge').forEach(b => {
    const cs = getComputedStyle(b);
    if (cs.backgroundColor === 'rgba(0, 0, 0, 0)' || !b.textContent.trim()) { return; }
    out.push({what: 'badge ' + b.textContent.trim(), fg: cs.color, bg: cs.backgroundColor});
  });
  return out;
}"""


def _low(page) -> list[str]:
    pairs = page.evaluate(_PAIRS)
    assert any(p["what"].startswith("piece") for p in pairs) and any(p["what"].startswith("badge") for p in pairs), \
        "no piece or no badge measured"
    return sorted({f"{p['what']}: {_contrast(p['fg'], p['bg']):.2f}:1 ({p['fg']} on {p['bg']})"
                   for p in pairs if _contrast(p["fg"], p["bg"]) < 4.5})


def _session_of(key: str, inst, student):
    course = services.course_create(user=inst, title=f"COIN {key}")
    seat_ids = engine.load(key).seat_ids()
    names = [f"Team {s}" for s in seat_ids]
    session = services.session_create(course=course, user=inst, title=key, scenario_key=key, seed=5,
                                      teams=names, seats=dict(zip(seat_ids, names, strict=True)))
    services.team_member_add(team=session.teams.get(name=names[0]), user=inst, member=student)
    services.session_start(session=session, user=inst)
    return session


def test_piece_letters_and_badges_reach_4_5_to_1(new_context, live_server):
    people = People(instructor=make_user("ines", "instructor"), other_instructor=make_user("otto", "instructor"),
                    student_a=make_user("alma", "student"), student_b=make_user("beto", "student"),
                    reviewer=make_user("rafa", "reviewer"))
    peru = create_peru_game(people)
    sessions = {"peru": peru.session}
    for key in ("andean_abyss", "tears_of_tyranny"):
        sessions[key] = _session_of(key, people.instructor, people.student_a)
    ctx = new_context(viewport=LAPTOP)
    _login(ctx, people.student_a, live_server.url)
    page = ctx.new_page()
    found = {}
    for key, session in sessions.items():
        page.goto(f"/sessions/{session.pk}/play/")
        page.wait_for_selector("[data-turn-cue]")
        low = _low(page)
        if low:
            found[key] = low
    assert not found, found
    # the measure itself: white letters on vermillion (under 4.5:1) are caught
    page.evaluate("""() => document.querySelectorAll('.piece').forEach(p => {
        p.querySelectorAll('.chip-text').forEach(t => t.style.setProperty('fill', '#fff', 'important'));
        p.querySelectorAll('.chip').forEach(c => { c.style.setProperty('fill', '#D55E00', 'important');
                                                   c.style.setProperty('fill-opacity', '1', 'important'); }); })""")
    assert any(x.startswith("piece") for x in _low(page))
