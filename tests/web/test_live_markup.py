"""The live region's string builders (facilitation/web/templatetags/live_markup.py, issue #8)
escape everything a user or the game supplies, as the template loops they replace did."""

from django.template import engines
from django.utils import translation

from facilitation.web.templatetags import live_markup as lm

EVIL = '<script>alert("x")</script> & \'q\''
SAFE = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;q&#x27;"


def test_log_escapes_heads_facts_and_rationales_and_marks_phase_breaks():
    log = [{"seq": 12, "head": EVIL, "facts": [EVIL, "Phase 3", "b"], "phase_breaks": [1], "rationale": EVIL},
           {"seq": 11, "head": "", "facts": ["one", EVIL], "phase_breaks": [], "rationale": ""}]
    html = lm.live_log(log)
    assert "<script>" not in html and html.count(SAFE) == 4
    assert '<li class="fact-phase">Phase 3</li>' in html and '<ul class="facts">' in html
    assert f"one {SAFE}" in html and '<span class="rationale">“' in html
    assert html.index("#12") < html.index("#11")
    assert lm.live_log([]) == '<li class="muted">Nothing yet.</li>'


def test_choices_escape_ids_labels_and_details():
    board = {"game_panel": {"choice_cards": {
        'a"b': {"cost": 2, "icon": EVIL, "speed": "s", "range": "r", "target": EVIL, "text": EVIL, "attributes": ""},
        "t": {"tile": {"defense": 3, "defense_parts": EVIL, "units": EVIL, "health": 2, "red": 1, "blue": 0}},
        "o": {"organic": {"icon": "i", "speed": "s", "range": EVIL, "target": "", "steps": [{"met": True, "text": EVIL}]}},
    }}}
    html = lm.live_choices([{"id": 'a"b', "label": EVIL}, {"id": "t", "label": "T"}, {"id": "o", "label": "O"}], board)
    assert "<script>" not in html
    assert 'value="a&quot;b" data-choice="a&quot;b"' in html
    assert html.count(SAFE) == 8 and "Attributes: -" in html and "health 2" in html and f"<br>✓ {SAFE}" in html
    with translation.override("es"):
        assert "defensa" in lm.live_choices([{"id": "t", "label": "T"}], board)


def test_tot_panel_and_tracks_escape_game_text():
    card = {"id": "c1", "cls": "minor", "title": EVIL, "cost": 1, "icon": "", "speed": "", "range": "", "target": "",
            "text": EVIL, "attributes": EVIL}
    g = {"me": {"id": "comrades", "fi": 3, "title": EVIL, "approach": EVIL, "hand": [card], "drawn": [], "played": [card],
                "attributes": [{"n": 2, "name": EVIL}], "organics": [], "special_rules": [EVIL]},
         "table": [{"id": "comrades", "fi": 3, "title": EVIL, "me": True, "played": [card], "used": [EVIL],
                    "attributes": [], "hand": None}],
         "adversary": [{"step": "deploy", "label": "Deploy", "card": "x", "ref": 4, "tiles": [EVIL]}],
         "last_event": {"title": EVIL, "freedom": "", "tyranny": "", "bottom": ""}, "terrain_left": 3}
    html = lm.tot_panel(g)
    assert "<script>" not in html and SAFE in html and 'data-card="c1"' in html and 'data-player-panel="comrades"' in html
    assert "Your hand (1 card, only your team sees it)" in html
    tracks = lm.track_items({"tracks": [{"name": EVIL, "value": 1.5, "pct": 40, "key": True}], "has_key_tracks": True})
    assert SAFE in tracks and '<rect width="40" height="6"/>' in tracks
    with translation.override("es"):
        assert "1,5" in lm.track_items({"tracks": [{"name": "x", "value": 1.5, "pct": None}]})
    ref = engines["django"].from_string("{% load live_markup %}{% more_track_items b %}")
    assert ref.render({"b": {"tracks": [{"name": EVIL, "value": 2, "key": False}]}}).count(SAFE) == 1
