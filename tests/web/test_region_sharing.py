"""Drawing several seats' live regions at once shares what does not depend on the seat
(issue #8: ``predraw_regions`` -> ``_live_contexts``, ``selectors.seat_prompts``,
``selectors.seat_logs``, the board's per-process memo) and nothing else: every seat gets
exactly the region a draw of that seat alone gives, and never another seat's hidden data."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpRequest
from django.test import Client
from django.utils import translation

from facilitation import live, selectors, services
from facilitation.rendering import regions as live_regions
from facilitation.web.views import play

from .test_pages import _start
from .test_tot_pages import SEATS as TOT_SEATS
from .test_tot_pages import _prompt, _submit

pytestmark = pytest.mark.django_db


def _request():
    r = HttpRequest()
    r.method = "GET"
    r.user = AnonymousUser()
    return r


def _alone(session, seat, lang="en"):
    """The seat's region drawn by itself (as a poll that finds no cached region draws it)."""
    session.refresh_from_db()
    with translation.override(lang):
        return live_regions.unpersonal(live_regions.shared_region(_request(), session, seat))


def _predrawn(session, seats):
    """Every seat's region as ``predraw_regions`` stores it (cache emptied first)."""
    cache.clear()
    assert live_regions.predraw_regions(session.pk) == len(seats)
    session.refresh_from_db()
    with translation.override("en"):
        keys = {seat: live.fragment_key(session.pk, live_regions.etag(session, seat)) for seat in seats}
    return {seat: play.gzip.decompress(cache.get(k)).decode() for seat, k in keys.items()}


def _hq_and_a_few_moves(session, users, moves=6):
    """Every team places its headquarters, then a few first choices of whoever must act."""
    for seat in TOT_SEATS:
        _rules, _state, p = _prompt(session)
        _submit(session, users, seat, p.choices_for(seat)[0].id, rationale=f"<b>why</b> {seat} & more")
    for i in range(moves):
        _rules, _state, p = _prompt(session)
        if p is None:
            break
        seat = p.seats[i % len(p.seats)]
        _submit(session, users, seat, p.choices_for(seat)[-1].id)


def test_predraw_gives_each_tot_seat_exactly_its_own_single_draw(tot):
    session, users = tot
    _hq_and_a_few_moves(session, users)
    _rules, state, _p = _prompt(session)
    assert all(state["pl"][seat]["hand"] for seat in TOT_SEATS), "each team holds cards"
    regions = _predrawn(session, TOT_SEATS)
    for seat in TOT_SEATS:
        assert regions[seat] == _alone(session, seat), seat
    # the multi-seat contexts, in any order and subset, equal the single-seat ones
    session.refresh_from_db()
    with translation.override("en"):
        together = live_regions.live_contexts(session, list(reversed(TOT_SEATS)))
        for seat in TOT_SEATS:
            alone = live_regions.live_context(_request(), session, seat)
            for k in ("submit_key", "intent_form"):
                together[seat].pop(k), alone.pop(k)
            # the board's markup memo is a cache handle (shared by the seats drawn together; none
            # for a seat drawn alone), not content: the regions above are compared byte for byte
            together[seat]["board"].pop("markup_memo"), alone["board"].pop("markup_memo")
            assert together[seat]["data"].pop("server_time") and alone["data"].pop("server_time")
            assert together[seat] == alone, seat
    for seat, html in regions.items():
        assert f'data-player-panel="{seat}"' in html
        for other in TOT_SEATS:
            for cid in state["pl"][other]["hand"]:
                assert (f'data-card="{cid}"' in html) == (other == seat), (seat, other, cid)
        # a rationale is shown to its own seat only, escaped
        assert ("&lt;b&gt;why&lt;/b&gt; " + seat + " &amp; more") in html
        assert "<b>why</b>" not in html
        for other in TOT_SEATS:
            if other != seat:
                assert f"why&lt;/b&gt; {other} &amp;" not in html, (seat, other)


def test_predraw_with_a_secret_event_keeps_it_from_the_other_seat(toy_session, instructor, students):
    """The toy rebels move their hidden cache (a fact visible to the rebels only): drawn together
    or alone, the government's region never names it, the rebels' region does."""
    _start(Client(), instructor, toy_session)
    for seat, choice, user in (("govt", "op:pass", students[0]), ("rebels", "op:march", students[1]),
                               ("rebels", "space:capital", students[1])):
        toy_session.refresh_from_db()
        services.choice_submit(session=toy_session, user=user, seat=seat, choice=choice, seq=toy_session.head_seq)
    regions = _predrawn(toy_session, ["govt", "rebels"])
    for seat in ("govt", "rebels"):
        assert regions[seat] == _alone(toy_session, seat), seat
    assert "The cache is moved to capital." in regions["rebels"]
    assert "cache is moved" not in regions["govt"] and "hidden cache" not in regions["govt"].lower()
    assert "cache_location" not in regions["govt"].lower() and "cache location" not in regions["govt"].lower()


def test_seat_logs_redact_each_seat_as_session_events_does(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    for seat, choice, user in (("govt", "op:march", students[0]), ("govt", "space:hills", students[0]),
                               ("rebels", "op:march", students[1]), ("rebels", "space:jungle", students[1])):
        toy_session.refresh_from_db()
        services.choice_submit(session=toy_session, user=user, seat=seat, choice=choice, seq=toy_session.head_seq,
                               rationale=f"{seat} reasons")
    toy_session.refresh_from_db()
    for after, limit in ((0, 500), (2, 3)):
        logs = selectors.seat_logs(toy_session, ["rebels", "govt"], after=after, limit=limit)
        for seat in ("govt", "rebels"):
            one = selectors.session_events(toy_session, seat_key=seat, after=after, limit=limit)
            assert logs[seat] == [{k: v for k, v in e.items() if k != "metrics"} for e in one], seat
    logs = selectors.seat_logs(toy_session, ["govt", "rebels"])
    assert not any("cache" in f.get("text", "") for e in logs["govt"] for f in e["facts"])
    assert any("cache is moved" in f.get("text", "") for e in logs["rebels"] for f in e["facts"])
    assert {e["rationale"] for e in logs["govt"] if e["seat"] == "rebels"} == {""}


def test_seat_prompts_equal_seat_prompt_per_seat(tot):
    session, users = tot
    _hq_and_a_few_moves(session, users, moves=2)
    session.refresh_from_db()
    together = selectors.seat_prompts(session, TOT_SEATS)
    for seat in TOT_SEATS:
        alone = selectors.seat_prompt(session, seat)
        together[seat].pop("server_time"), alone.pop("server_time")
        assert together[seat] == alone, seat
        assert together[seat]["seat"] == seat
        mine = {c["id"] for c in (together[seat]["prompt"] or {}).get("choices", [])}
        assert mine == {c["id"] for c in (alone["prompt"] or {}).get("choices", [])}


def test_regions_drawn_in_spanish_alone_equal_a_second_draw(tot):
    """The per-process memo of drawn board parts is kept per language: a Spanish draw after an
    English one (and the reverse) is the draw a fresh process makes."""
    session, users = tot
    _hq_and_a_few_moves(session, users, moves=2)
    from facilitation.rendering import board

    seat = TOT_SEATS[0]
    en, es = _alone(session, seat, "en"), _alone(session, seat, "es")
    board.clear_memo()
    assert _alone(session, seat, "es") == es and _alone(session, seat, "en") == en
    assert en != es and re.search(r'data-etag="[^"]+"', es)


def test_board_memo_forgets_its_oldest_entries_when_full(monkeypatch):
    """The per-process memo is bounded: when full, the oldest quarter goes, the newest stays,
    and a board drawn after that is the board a fresh process draws."""
    import engine
    from facilitation.rendering import board, board_markup

    monkeypatch.setattr(board_markup, "_MEMO_MAX", 8)
    board.clear_memo()
    for i in range(8):
        board_markup.remember(board_markup.SPACES, ("k", i), i)
    board_markup.remember(board_markup.SPACES, ("k", 8), 8)
    assert list(board_markup.SPACES) == [("k", i) for i in range(2, 9)]

    class Racing(dict):
        def __iter__(self):  # another thread forgot the oldest key between the count and the deletes
            yield ("gone",)
            yield from super().__iter__()

    memo = Racing({("k", i): i for i in range(8)})
    board_markup.remember(memo, ("k", 8), 8)  # no KeyError: a key already gone is passed over
    assert set(dict.keys(memo)) == {("k", i) for i in range(1, 9)}  # the oldest present one forgotten
    board.clear_memo()
    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=5, options={})
    seat = rules.prompt(state).seats[0]
    first = board.markup(board.build(rules, rules.view(state, seat), metrics=rules.metrics(state)))
    assert len(board_markup.SPACES) <= 8 and len(board_markup.MARKUP) <= 8
    again = board.markup(board.build(rules, rules.view(state, seat), metrics=rules.metrics(state)))
    board.clear_memo()
    monkeypatch.setattr(board_markup, "_MEMO_MAX", 6000)
    assert first == again == board.markup(board.build(rules, rules.view(state, seat), metrics=rules.metrics(state)))


def test_seats_that_see_the_same_map_without_a_choice_on_it_draw_it_once(tot, monkeypatch):
    """Issue 20: drawing a position's seats together, the seats whose typed views show the same
    spaces and who have no choice on the map get one drawing of the spaces and one figure
    (``board.build``'s ``shared``, ``board_markup.markup``'s memo); a seat with choices on the
    map draws its own. What each seat gets is its own single draw (the test above)."""
    from facilitation.rendering import board, board_markup

    session, users = tot
    _hq_and_a_few_moves(session, users)
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    figures = []
    real = board_markup._markup
    monkeypatch.setattr(board_markup, "_markup", lambda b, **kw: figures.append(b["spaces"]) or real(b, **kw))
    with translation.override("en"):
        contexts = live_regions.live_contexts(session, list(TOT_SEATS), (rules, state))
        for seat in TOT_SEATS:
            live_regions.shared_region(_request(), session, seat, contexts[seat])
    on_map = {seat for seat in TOT_SEATS
              if any(board.choice_space(c) for c in contexts[seat]["choices"])}
    plain = [seat for seat in TOT_SEATS if seat not in on_map]
    assert len(plain) >= 2, "the position has seats without a choice on the map"
    groups: dict[int, list[str]] = {}
    for seat in plain:
        groups.setdefault(id(contexts[seat]["board"]["spaces"]), []).append(seat)
    views = {seat: rules.board_view_of(contexts[seat]["data"]["view"], seat).spaces for seat in plain}
    for members in groups.values():  # seats given one drawing saw equal spaces
        assert all(views[s] == views[members[0]] for s in members), members
    for a in plain:  # seats that saw equal spaces were given one drawing
        for b in plain:
            if views[a] == views[b]:
                assert contexts[a]["board"]["spaces"] is contexts[b]["board"]["spaces"], (a, b)
    assert len(groups) < len(plain), "no two seats shared their map"
    for seat in on_map:  # a seat with choices on the map draws its own spaces and figure
        assert all(contexts[seat]["board"]["spaces"] is not contexts[s]["board"]["spaces"] for s in plain)
    assert len(figures) == len(groups) + len(on_map), "one figure per drawing of the spaces"


def test_a_board_with_other_spaces_is_never_given_anothers_drawing(tot):
    """Two positions' views built with one ``shared`` dict: the second view's spaces differ, so it
    is drawn as if alone (equal to its own draw), never given the first one's spaces."""
    from facilitation.rendering import board

    session, users = tot
    seat = TOT_SEATS[0]
    session.refresh_from_db()
    rules, before = selectors.session_state(session)
    _hq_and_a_few_moves(session, users, moves=2)
    session.refresh_from_db()
    _rules, after = selectors.session_state(session)
    first, second = rules.view(before, seat), rules.view(after, seat)
    assert rules.board_view_of(first, seat).spaces != rules.board_view_of(second, seat).spaces
    shared: dict = {}
    with translation.override("en"):
        a = board.build(rules, first, shared=shared)
        b = board.build(rules, second, shared=shared)
        alone = board.build(rules, second)
    assert b["spaces"] is not a["spaces"] and b["markup_memo"] is not a["markup_memo"]
    assert b["spaces"] == alone["spaces"]
    with translation.override("en"):
        assert board.markup(b) == board.markup(alone)
