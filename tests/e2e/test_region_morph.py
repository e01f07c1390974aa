"""The live region is redrawn in place (issue 20): play.js's morph keeps every node that is equal
to its new version and replaces the others, and the region it leaves is the new HTML node for
node, as setting innerHTML would have left it.

The morph's own rules are checked on a plain page (play.js alone, no server): random trees and
random changes of them, the nodes kept, form fields. Then on a live play page: a poll's redraw
and the page's own decision answer (htmx, ``hx-swap="morph"``) keep the board's unchanged nodes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_poll_race import _peru_page

pytestmark = [pytest.mark.e2e]

PLAY_JS = Path(__file__).resolve().parents[2] / "facilitation" / "web" / "static" / "web" / "js" / "play.js"


@pytest.fixture
def bare(page):
    """A page with an empty ``#live`` and play.js (no server, no htmx)."""
    page.set_content('<!doctype html><html lang="en"><body><main><div id="live"></div></main></body></html>')
    page.add_script_tag(path=str(PLAY_JS))
    assert page.evaluate("() => typeof window.coinlabMorphInto") == "function"
    return page


# Random trees and random changes of them, in the page (a seeded generator, so a failure repeats):
# each case draws tree A, changes a copy into B (attributes set or dropped, texts changed,
# children added, removed, moved or retagged, ids changed, form fields), shows A, morphs to B
# and compares the region with B parsed on its own (node for node: the DOM's isEqualNode, which
# compares attributes as sets; a kept element keeps its attributes' order).
RANDOM_CASES = """(cases) => {
  let s = 12345;  // mulberry32
  const rnd = n => { s = (s + 0x6D2B79F5) | 0; let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return (((t ^ (t >>> 14)) >>> 0) % n); };
  const tags = ['div', 'span', 'p', 'ul', 'li', 'section', 'details', 'button'];
  function tree(depth) {
    const el = document.createElement(tags[rnd(tags.length)]);
    if (rnd(3) === 0) el.setAttribute('class', 'c' + rnd(4));
    if (rnd(4) === 0) el.id = 'i' + rnd(6);
    const n = depth > 0 ? rnd(5) : 0;
    for (let i = 0; i < n; i++) {
      if (rnd(3) === 0) el.appendChild(document.createTextNode('t' + rnd(5)));
      else if (rnd(8) === 0) { const f = document.createElement(rnd(2) ? 'input' : 'textarea'); f.setAttribute('name', 'f' + rnd(3)); el.appendChild(f); }
      else el.appendChild(tree(depth - 1));
    }
    return el;
  }
  function change(root) {
    const all = [root, ...root.querySelectorAll('*')];
    const el = all[rnd(all.length)];
    switch (rnd(7)) {
      case 0: el.setAttribute('data-x', String(rnd(3))); break;
      case 1: el.removeAttribute('class'); break;
      case 2: el.appendChild(tree(1)); break;
      case 3: if (el.firstChild) el.removeChild(el.firstChild); break;
      case 4: if (el !== root && el.parentNode) { const t = document.createElement(tags[rnd(tags.length)]); t.append(...el.childNodes); el.replaceWith(t); } break;
      case 5: el.id = 'i' + rnd(6); break;
      case 6: el.appendChild(document.createTextNode('n' + rnd(5))); break;
    }
  }
  const live = document.getElementById('live');
  const bad = [];
  let changed = 0;
  for (let c = 0; c < cases; c++) {
    const a = document.createElement('div');
    for (let k = 0; k < 3; k++) a.appendChild(tree(4));
    const b = a.cloneNode(true);
    const changes = rnd(4);
    for (let k = 0; k < changes; k++) change(b);
    live.innerHTML = a.innerHTML;
    window.coinlabMorphInto(live, b.innerHTML);
    const want = document.createElement('template');
    want.innerHTML = b.innerHTML;
    const got = document.createElement('template');
    got.innerHTML = live.innerHTML;
    if (!got.content.isEqualNode(want.content)) bad.push(c);  // attributes compared as sets (their order may differ)
    if (a.innerHTML !== b.innerHTML) changed++;
  }
  return {bad, changed};
}"""


def test_the_morph_ends_on_the_new_html_node_for_node(bare):
    result = bare.evaluate(RANDOM_CASES, 400)
    assert result["bad"] == []
    assert result["changed"] > 250  # most cases are a change (some draw none, or one that changes nothing)


def test_equal_nodes_stay_in_place_and_the_others_are_redrawn(bare):
    before = ('<div data-etag="a" data-seq="4" hidden></div><div class="play"><div class="play-main">'
              '<svg id="map"><g id="s1"><title>One</title></g><g id="s2"><title>Two</title></g>'
              '<g id="s3"><title>Three</title></g></svg></div>'
              '<aside class="play-side"><ol class="log"><li>x</li></ol></aside></div>')
    after = before.replace('data-etag="a" data-seq="4"', 'data-etag="b" data-seq="5"') \
                  .replace("<title>Two</title>", "<title>Two</title><circle r='2'></circle>") \
                  .replace("<li>x</li>", "<li>y</li><li>x</li>")
    kept = bare.evaluate("""([a, b]) => {
        const live = document.getElementById('live');
        live.innerHTML = a;
        const old = {s1: document.getElementById('s1'), s2: document.getElementById('s2'),
                     svg: document.getElementById('map'), meta: live.firstElementChild,
                     log: live.querySelector('.log'), li: live.querySelector('.log li')};
        window.coinlabMorphInto(live, b);
        return {s1: old.s1 === document.getElementById('s1'),
                s2: old.s2 === document.getElementById('s2'), svg: old.svg === document.getElementById('map'),
                meta: old.meta === live.firstElementChild, seq: live.firstElementChild.getAttribute('data-seq'),
                log: old.log === live.querySelector('.log'), li: old.li === live.querySelector('.log li'),
                circles: document.querySelectorAll('#s2 circle').length, items: live.querySelectorAll('.log li').length};
    }""", [before, after])
    assert kept == {"s1": True, "s2": True, "svg": True, "meta": True, "seq": "5", "log": True,
                    "li": False, "circles": 1, "items": 2}


def test_a_filled_field_is_replaced_and_a_textarea_being_typed_in_is_kept(bare):
    html = ('<form><input type="hidden" name="key" value=""><textarea id="why" name="rationale"></textarea>'
            '<input type="text" name="other"></form>')
    result = bare.evaluate("""(h) => {
        const live = document.getElementById('live');
        live.innerHTML = h;
        live.querySelector('[name=key]').value = 'k1';          // filled by play.js (its attribute too)
        live.querySelector('#why').value = 'Hold the capital';   // typed: the property only
        const why = live.querySelector('#why');
        window.coinlabMorphInto(live, h);
        return {key: live.querySelector('[name=key]').value, why: live.querySelector('#why').value,
                sameWhy: why === live.querySelector('#why')};
    }""", html)
    assert result == {"key": "", "why": "Hold the capital", "sameWhy": True}
    changed = bare.evaluate("""(h) => {
        const live = document.getElementById('live');
        live.innerHTML = h;
        live.querySelector('#why').value = 'typed';
        window.coinlabMorphInto(live, h.replace('<textarea id="why"', '<textarea id="why" data-required="1"'));
        return [live.querySelector('#why').value, live.querySelector('#why').getAttribute('data-required')];
    }""", html)
    assert changed == ["", "1"]  # a field that differs is a new field (play.js puts typed text back itself)


@pytest.mark.django_db(transaction=True)
def test_a_poll_and_the_pages_own_answer_keep_the_unchanged_board(new_context, live_server, django_user_model):
    """A live Peru page: a facilitator's note (a new version of the region, the board unchanged,
    drawn by a poll) and the page's own decision (htmx's answer) both redraw the region in
    place: the board's SVG and the spaces whose pieces did not change are the nodes that were
    there before."""
    from facilitation import services

    page, session, teacher = _peru_page(new_context, django_user_model)

    def mark():
        page.evaluate("""() => { window.__svg = document.querySelector('.board-svg');
            window.__spaces = Array.from(document.querySelectorAll('.board-svg g.space[id]')); }""")

    def kept():
        return page.evaluate("""() => ({svg: window.__svg === document.querySelector('.board-svg'),
            spaces: window.__spaces.filter(g => g.isConnected).length, of: window.__spaces.length})""")

    mark()
    polls = page.evaluate("() => window.__coinlabPollsAnswered || 0")
    services.facilitator_note(session=session, user=teacher, text="Mind the hills")
    session.refresh_from_db()
    page.locator(f"[data-seq='{session.head_seq}']").wait_for(state="attached")
    assert page.evaluate("() => window.__coinlabPollsAnswered || 0") > polls  # drawn by a poll
    by_poll = kept()
    assert by_poll == {"svg": True, "spaces": by_poll["of"], "of": by_poll["of"]} and by_poll["of"] > 10, by_poll

    mark()
    seq = session.head_seq
    page.route("**/play/live/**", lambda route: route.abort())  # no poll draws it: only the answer
    page.locator(".choices button").first.click()  # the page's own decision, answered through htmx
    page.wait_for_function("(s) => Number(document.querySelector('[data-seq]').dataset.seq) > s", arg=seq)
    by_answer = kept()
    assert by_answer["svg"], "the decision's answer rebuilt the board"
    assert by_answer["spaces"] >= by_answer["of"] - 4, by_answer  # a move changes a few spaces at most
