"""The live region's longest loops, written by string builders rather than template loops
(issue #8): the log (``{% live_log log %}``), the seat's choices (``{% live_choices choices
board %}``), Tears of Tyranny's panel below the map (``{% tot_panel board.game_panel %}``) and
the tracks of the side column (``{% track_items board %}``, ``{% more_track_items board %}``).
Each writes the markup its former template wrote (same text, same attributes; checked byte for
byte on the load test's positions in both languages); every value is escaped as the template's
autoescaping did, template literals translated as ``{% trans %}`` did, numbers written as
``{{ }}`` wrote them."""

from __future__ import annotations

from html import escape as _html_escape

from django import template
from django.conf import settings
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as django_gettext

from facilitation import text
from facilitation.text import gettext_once as gettext  # the words of a region, looked up once (issue 20)
from facilitation.text import ngettext_once as ngettext

register = template.Library()


def _v(value) -> str:
    """A value as ``{{ value }}`` writes it (localized numbers, escaped text); an engine message
    in the viewer's language (``facilitation.text.tr``), never as a dict."""
    tp = type(value)
    if tp is str:  # plain text (not marked safe): Django's escape() is html.escape()
        return _html_escape(value)
    if isinstance(value, dict):
        return _html_escape(text.tr(value))
    if tp is int and not settings.USE_THOUSAND_SEPARATOR:  # as localize() writes an int then
        return str(value)
    if value is None:
        return "None"
    return conditional_escape(localize(value))


def _tr(text: str) -> str:
    """``{% trans "text" %}``: a literal of the template is safe text, and so is its translation."""
    return django_gettext(text)


@register.simple_tag
def live_log(log):
    """The items of the region's log ("What happened"), newest first."""
    if not log:
        return mark_safe(f'<li class="muted">{_tr("Nothing yet.")}</li>')
    out = []
    w = out.append
    for e in log:
        w(f'\n        <li data-event-seq="{_v(e["seq"])}" data-seat="{_v(e.get("seat") or "")}"><span class="seq">#{_v(e["seq"])}</span>')
        if e.get("head"):
            w(f'<strong>{_v(e["head"])}</strong> ')
        facts = e.get("facts") or []
        breaks = e.get("phase_breaks") or []
        if len(facts) > 2 or breaks:
            w('<ul class="facts">')
            for i, f in enumerate(facts):
                w(f'<li class="fact-phase">{_v(f)}</li>' if i in breaks else f'<li>{_v(f)}</li>')
            w('</ul>')
        else:
            w(" ".join(_v(f) if type(f) is str or isinstance(f, dict) else conditional_escape(f) for f in facts))
        w("\n          ")
        if e.get("rationale"):
            w(f'<span class="rationale">“{_v(e["rationale"])}”</span>')
        w("</li>\n        ")
    return mark_safe("".join(out))


@register.simple_tag
def live_choices(choices, board, teach=None):
    """The items of the seat's list of legal choices, each with its game detail (a card, a tile
    or a panel capability it would use: ``board.game_panel.choice_cards``), what it would change
    (``teach.previews``, issue #19) and, beside it, a link to the summary of its rule
    (``teach.choice_rules``; once per run of choices under the same rule) and a link to each
    glossary term its label names (``teach.choice_terms``; each term once in the list, beside
    the first choice that names it: a link cannot sit inside the choice's button)."""
    cards = ((board or {}).get("game_panel") or {}).get("choice_cards") or {}
    teach = teach or {}
    previews = teach.get("previews") or {}
    choice_rules = teach.get("choice_rules") or {}
    choice_terms = teach.get("choice_terms") or {}
    linked_terms: set[str] = set()
    out = []
    w = out.append
    last_help = None
    last_rule = None
    for n, c in enumerate(choices or [], start=1):
        cid = _v(c.get("id", ""))
        kbd = f'<span class="kbd" aria-hidden="true">{n}</span>' if n < 10 else ""
        cc = cards.get(c.get("id")) if isinstance(cards, dict) else None
        # finishing a step stays in sight at the foot of a long list (issue #19: "Finish the Rally" was 12th)
        li = '<li class="choice-end">' if c.get("kind") in ("done", "pass") else "<li>"
        preview = previews.get(c.get("id"))
        preview = (f'<span class="choice-preview">{_html_escape(gettext("What this changes"))}: '
                   f'{_v(preview)}</span>') if preview else ""
        rs = choice_rules.get(c.get("id"))
        link = ""
        if rs and rs["rule"] != last_rule:
            label = gettext("Rule %(rule)s in brief: %(title)s") % {"rule": rs["rule"], "title": rs["title"]}
            link = (f'<a class="choice-rule-link" href="#{_v(rs["id"])}" data-summary="{_v(rs["id"])}" '
                    f'title="{_v(label)}"><span aria-hidden="true">§</span>{_v(rs["rule"])}'
                    f'<span class="visually-hidden"> ({_v(label)})</span></a>')
        last_rule = rs["rule"] if rs else None
        terms = [t for t in choice_terms.get(c.get("id")) or [] if t["key"] not in linked_terms]
        linked_terms.update(t["key"] for t in terms)
        w(f'\n            {li}<button type="submit" name="choice" value="{cid}" data-choice="{cid}">{kbd} '
          f'{_v(c.get("label", ""))}{choice_cost(c.get("cost"))}{choice_detail(cc) if cc else ""}'
          f'{choice_help(c) if c.get("help") != last_help else ""}{preview}</button>{choice_term_links(terms)}'
          f'{link}</li>\n            ')
        last_help = c.get("help")  # a help shared by a run of choices (Rally in each space) is said once
    return mark_safe("".join(out))


@register.simple_tag
def glossed_question(teach, text):
    """The prompt's question with each glossary term linked to its entry on the page (issue #19)."""
    runs = (teach or {}).get("question")
    if not runs:
        return _v(text or "")
    out = []
    for words, entry in runs:
        if entry is None:
            out.append(_v(words))
        else:
            out.append(f'<a class="term" href="#{_v(entry["id"])}" data-term="{_v(entry["key"])}">{_v(words)}</a>')
    return mark_safe("".join(out))


def choice_term_links(terms: list[dict]) -> str:
    """Links to the glossary entries (on the page, under "What the words mean") of the terms a
    choice's label names, each with its meaning announced as "<term>: what it means"."""
    out = []
    for t in terms:
        hint = gettext("%(term)s: what it means") % {"term": t["name"]}
        out.append(f'<a class="choice-term-link" href="#{_v(t["id"])}" data-term="{_v(t["key"])}" '
                   f'title="{_v(hint)}"><span aria-hidden="true">?</span>{_v(t["name"])}'
                   f'<span class="visually-hidden"> ({_html_escape(gettext("what it means"))})</span></a>')
    return "".join(out)


def choice_cost(cost) -> str:
    """What a choice spends now (contract v2 ``Choice.cost``), before the click (issue #19)."""
    if not cost or not isinstance(cost, dict):
        return ""
    total = sum(n for n in cost.values() if isinstance(n, int | float))
    if not total:
        return ""
    text = ngettext("costs %(n)s Resource", "costs %(n)s Resources", total) % {"n": total}
    return f' <span class="choice-cost">({_html_escape(text)})</span>'


def choice_help(c: dict) -> str:
    """The choice's one-sentence help and its rule (contract v2 ``Choice.help``/``rule``)."""
    help_text = c.get("help")
    if not help_text:
        return ""
    rule = c.get("rule")
    rule_part = f' <span class="choice-rule">({_html_escape(_tr("rule"))} {_v(rule)})</span>' if rule else ""
    return f'<span class="choice-help">{_v(help_text)}{rule_part}</span>'


def choice_detail(cc: dict) -> str:
    """A choice's detail: what a card, a tile or a panel capability would do (formerly the
    partial ``web/partials/games/_choice_detail.html``)."""
    out = ['<span class="choice-detail" data-choice-detail>']
    w = out.append
    if cc.get("organic"):
        o = cc["organic"]
        w(f'{_v(o.get("icon", ""))} {_v(o.get("speed", ""))} · {_v(o.get("range", ""))}')
        if o.get("target"):
            w(f' · {_v(o["target"])}')
        for s in o.get("steps") or []:
            if s.get("met"):
                w(f'<br>✓ {_v(s.get("text", ""))}')
    elif cc.get("tile"):
        t = cc["tile"]
        w(gettext("defense %(d)s (%(parts)s)") % {"d": _v(t.get("defense", "")), "parts": _v(t.get("defense_parts", ""))})
        w(f' · {_v(t.get("units", ""))}')
        if t.get("health"):
            w(" (" + gettext("health %(h)s") % {"h": _v(t["health"])} + ")")
        w(" · " + gettext("civilians: %(r)s red, %(b)s blue") % {"r": _v(t.get("red", "")), "b": _v(t.get("blue", ""))})
    else:
        w(gettext("cost %(cost)s") % {"cost": _v(cc.get("cost", ""))})
        w(f' · {_v(cc.get("icon", ""))} {_v(cc.get("speed", ""))} · {_v(cc.get("range", ""))} · {_tr("target")}: '
          f'{_v(cc.get("target", ""))}<br>{_v(cc.get("text", ""))}<br><em>{_tr("Attributes")}: '
          f'{_v(cc.get("attributes") or "-")}</em>')
    w("</span>\n")
    return "".join(out)


# ---- Tears of Tyranny's panel below the map (web/partials/games/tears_of_tyranny.html) ----------


def _g(d, key):
    """``{{ d.key }}`` of a dict (missing: the empty string), unlocalized (the panel is drawn
    inside ``{% localize off %}``)."""
    value = d.get(key, "") if isinstance(d, dict) else ""
    tp = type(value)
    if tp is str:
        return _html_escape(value)
    if isinstance(value, dict):  # an engine message
        return _html_escape(text.tr(value))
    if tp is int:
        return str(value)
    if value is None:
        return "None"
    return conditional_escape(localize(value, use_l10n=False))


def _join(items, sep: str) -> str:
    """``{{ items|join:sep }}`` (autoescaped)."""
    try:
        return conditional_escape(sep).join(conditional_escape(text.tr(x) if isinstance(x, dict) else x)
                                            for x in items)
    except TypeError:
        return conditional_escape(items)


def tot_card(c) -> str:
    """One card of a hand or a list (``facilitation.web.games``; formerly the partial
    ``web/partials/games/_tot_card.html``)."""
    c = c if isinstance(c, dict) else {}
    cost = gettext("cost %(cost)s") % {"cost": _g(c, "cost")}
    return (f'<li class="tot-card tot-{_g(c, "cls")}" data-card="{_g(c, "id")}">\n'
            f'  <p class="tot-card-head"><strong>{_g(c, "title")}</strong> <span class="badge">{_g(c, "cls")}</span></p>\n'
            f'  <p class="tot-card-meta">{cost} · {_g(c, "icon")} {_g(c, "speed")} · {_g(c, "range")}</p>\n'
            f'  <p class="tot-card-meta">{_tr("Target")}: {_g(c, "target")}</p>\n'
            f'  <p class="tot-card-text">{_g(c, "text")}</p>\n'
            f'  <p class="tot-card-meta">{_tr("Attributes")}: {_v(c.get("attributes") or "-")}</p>\n'
            f'</li>\n')


def _attributes(attrs) -> str:
    return ", ".join(f'{_g(a, "n")}× {_g(a, "name")}' for a in attrs or []) or "-"


@register.simple_tag
def tot_panel(g):
    """Tears of Tyranny below the map: the seat's own player panel (its hand: only in its own
    view), the table of what every player did this turn, the adversary's boxes."""
    g = g if isinstance(g, dict) else {}
    out: list[str] = ['\n<section class="tot" aria-labelledby="tot-table-h" data-game-panel="tears_of_tyranny">\n  ']
    w = out.append
    me = g.get("me")
    if me:
        w(f'\n  <div class="panel tot-me f{_g(me, "fi")}-edge" data-player-panel="{_g(me, "id")}">\n'
          f'    <h2 id="tot-me-h"><span class="seat-chip f{_g(me, "fi")}">{_g(me, "title")}</span> '
          f'{_tr("Your player panel")}</h2>\n'
          f'    <p class="muted">{_g(me, "approach")}</p>\n'
          f'    <dl class="tot-stats">\n'
          f'      <div><dt>{_tr("Resources")}</dt><dd data-stat="resources">{_g(me, "resources")}</dd></div>\n'
          f'      <div><dt>{_tr("Income")}</dt><dd>+{_g(me, "income")}</dd></div>\n'
          f'      <div><dt>{_tr("Cards played / limit")}</dt><dd>{_g(me, "plays")}</dd></div>\n'
          f'      <div><dt>{_tr("Presence on the map")}</dt><dd>{_g(me, "presence")}</dd></div>\n'
          f'      <div><dt>{_tr("Attributes this turn")}</dt><dd>{_attributes(me.get("attributes"))}</dd></div>\n'
          f'    </dl>\n    ')
        if me.get("drawn"):
            w(f'\n    <h3>{_tr("Drawn: keep one (only your team sees these)")}</h3>\n'
              f'    <ul class="tot-cards" data-drawn>{"".join(tot_card(c) for c in me["drawn"])}</ul>\n    ')
        hand = me.get("hand") or []
        n = len(hand)
        cards = "".join(tot_card(c) for c in hand) or '<li class="muted">' + _tr("No cards in hand.") + "</li>"
        w('\n    <h3>' + ngettext("Your hand (%(n)s card, only your team sees it)",
                                 "Your hand (%(n)s cards, only your team sees it)", n) % {"n": n} + '</h3>\n'
          f'    <ul class="tot-cards" data-hand>{cards}</ul>\n    ')
        if me.get("played"):
            w(f'<h3>{_tr("Paid for this turn")}</h3>\n'
              f'    <ul class="tot-cards">{"".join(tot_card(c) for c in me["played"])}</ul>')
        w(f'\n    <h3>{_tr("Panel capabilities (need the attributes of the cards paid this turn)")}</h3>\n'
          f'    <ul class="tot-organics">')
        for o in me.get("organics") or []:
            target = f', {_g(o, "target")}' if o.get("target") else ""
            used = f' · {_tr("used this turn")}' if o.get("used") else ""
            steps = "".join(f'<li class="{"met" if s.get("met") else "unmet"}">{"✓" if s.get("met") else "✗"} '
                            f'{_g(s, "req")}: {_g(s, "text")}</li>' for s in o.get("steps") or [])
            w(f'\n      <li><strong>{_g(o, "icon")} {_g(o, "name")}</strong> <span class="muted">({_g(o, "speed")}, '
              f'{_g(o, "range")}{target}){used}</span>\n        <ul>{steps}</ul></li>\n    ')
        rules = "".join(f"<li>{_v(r)}</li>" for r in me.get("special_rules") or [])
        w('</ul>\n    <details><summary>' + _tr("Your panel's special rules")
          + f'</summary><ul>{rules}</ul></details>\n  </div>\n  ')
    w(f'\n  <div class="panel">\n'
      f'    <h2 id="tot-table-h">{_tr("The table: what each player has done this turn")}</h2>\n'
      f'    <table class="tot-table">\n'
      f'      <thead><tr><th scope="col">{_tr("Player")}</th><th scope="col">{_tr("Resources")}</th>'
      f'<th scope="col">{_tr("Cards in hand")}</th>\n'
      f'        <th scope="col">{_tr("Presence")}</th><th scope="col">{_tr("Played this turn")}</th>'
      f'<th scope="col">{_tr("Attributes")}</th></tr></thead>\n'
      f'      <tbody>')
    for p in g.get("table") or []:
        quadrant = ""
        if p.get("quadrant"):
            quadrant = ('<br><small class="muted">' + gettext("quadrant %(q)s") % {"q": _g(p, "quadrant")}
                        + "</small>")
        hand = ""
        if p.get("hand") is not None and not p.get("me"):
            hand = ": " + ", ".join(_g(c, "title") for c in p["hand"])
        played = ", ".join(f'<span class="tot-played" title="{_g(c, "text")}">{_g(c, "icon")} {_g(c, "title")}</span>'
                           for c in p.get("played") or []) or '<span class="muted">-</span>'
        used = f'<br><small>{_tr("used")}: {_join(p["used"], ", ")}</small>' if p.get("used") else ""
        me_row = ' class="me"' if p.get("me") else ""
        w(f'\n      <tr data-seat-row="{_g(p, "id")}"{me_row}>\n'
          f'        <th scope="row"><span class="seat-chip f{_g(p, "fi")}">{_g(p, "title")}</span>{quadrant}</th>\n'
          f'        <td>{_g(p, "resources")} <small class="muted">(+{_g(p, "income")})</small></td>\n'
          f'        <td>{_g(p, "hand_count")}{hand}</td>\n'
          f'        <td>{_g(p, "presence")}</td>\n'
          f'        <td>{played}\n'
          f'          {used}</td>\n'
          f'        <td>{_attributes(p.get("attributes"))}</td>\n'
          f'      </tr>')
    w('</tbody>\n    </table>\n'
      '    <p class="help">' + _tr("Hover a played card for its effect. Other teams' hands stay hidden; you see "
                                  "only how many cards they hold.") + '</p>\n'
      f'  </div>\n'
      f'  <div class="panel tot-adversary">\n'
      f'    <h2>{_tr("The adversary")}</h2>\n'
      f'    <ul class="tot-boxes">')
    for b in g.get("adversary") or []:
        if b.get("card"):
            box = (gettext("terrain card reference %(ref)s") % {"ref": _g(b, "ref")}
                   + f' → {_join(b.get("tiles") or [], "; ") or "-"}')
        else:
            box = f'<span class="muted">{_tr("empty")}</span>'
        w(f'\n      <li data-box="{_g(b, "step")}"><strong>{_g(b, "label")}</strong>: {box}</li>\n    ')
    stage = g.get("terrain_next_stage") or "-"
    w('</ul>\n    <p class="help">'
      + gettext("Terrain deck: %(n)s card(s) left, next from stage %(stage)s. The players lose when a deploy must "
                "draw from an empty deck.") % {"n": _g(g, "terrain_left"), "stage": _g({"s": stage}, "s")}
      + f'</p>\n    <details><summary>{_tr("How an attack resolves (1.G)")}</summary>\n'
      f'      <p class="help">{_tr(ATTACK_HELP)}</p>\n    </details>\n    ')
    ev = g.get("last_event")
    if ev:
        bottom = f' · {_g(ev, "bottom")}' if ev.get("bottom") else ""
        w(f'<p><strong>{_tr("Last event")}: {_g(ev, "title")}</strong><br>\n'
          f'      <small>{_tr("In freedom")}: {_g(ev, "freedom")} · {_tr("In tyranny")}: {_g(ev, "tyranny")}{bottom}'
          f'</small></p>')
    w('\n  </div>\n</section>\n')
    return mark_safe("".join(out))


ATTACK_HELP = ("The adversary's defense in a tile is its terrain modifier + 1 per red civilian + 5 if the tile is "
               "under tyranny. Damage beyond the defense hits the units (health: cell 1, outpost 2, garrison 3; "
               "destroying an outpost earns 1 influence, a garrison 2). Damage beyond all their health kills "
               "civilians: collateral damage, which costs the attacking Liberators 2 and Advisors 3 influence per "
               "civilian. The Advisors drive units out instead of destroying them.")


# ---- the tracks of the side column (web/partials/sidebar_info.html) ----------------------------


def _track(t: dict) -> str:
    return f'<li><span class="track-name">{_v(t.get("name", ""))}</span> <strong class="track-val">{_v(t.get("value", ""))}</strong>'


@register.simple_tag
def track_items(board):
    """The items of the tracks list: the key tracks (all of them when none is a key track)."""
    board = board or {}
    tracks = board.get("tracks") or []
    if not tracks:
        return mark_safe("<li>-</li>")
    every = not board.get("has_key_tracks")
    out = []
    for t in tracks:
        if t.get("key") or every:
            bar = ('<svg class="track-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">'
                   f'<rect width="{_v(t.get("pct"))}" height="6"/></svg>') if t.get("pct") is not None else ""
            out.append(f"\n    {_track(t)}\n      {bar}</li>\n  ")
    return mark_safe("".join(out))


@register.simple_tag
def more_track_items(board):
    """The items of the "More figures" list: the tracks that are not key tracks."""
    return mark_safe("".join(f"{_track(t)}</li>" for t in (board or {}).get("tracks") or [] if not t.get("key")))
