"""The play page explains the game (issue #19 deliver 1): the glossary and rule summaries of
the terms and rules on the screen, each choice's preview, and "what just happened" since the
seat's last decision, step by step with the causes and changes of the facts.

Everything here reads what the seat's live region already holds (its prompt, its redacted log,
its board) plus ``Rules.preview`` on the seat's own legal choices, whose answer the engine
withholds when the effect is random or hidden; nothing depends on the user, so the region
stays shareable by a team (``facilitation.rendering.regions``). Texts are in the active
language (``facilitation.text.tr``), memoized per (game, language).
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.translation import get_language

from engine.core.contract import (
    CAUSE_BOT,
    CAUSE_DECISION,
    CAUSE_DIE,
    CAUSE_EVENT,
    CAUSE_FACILITATOR,
    CAUSE_RULE,
)
from engine.core.glossary import rule_keys
from facilitation.text import gettext_once as _  # looked up once per process and language (issue 20)
from facilitation.text import tr

#: previews asked at most per region (each one applies the choice to a copy of the state)
PREVIEW_LIMIT = 40


def anchor(kind: str, key: str) -> str:
    """An element id for a term ("gl-political-will") or a rule ("rs-3-3-1")."""
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9]+", "-", key).strip("-").lower()


@lru_cache(maxsize=32)
def _glossary(game: str, language: str) -> dict:
    """The game's glossary in ``language``: its terms and rule summaries as text, and one
    pattern that finds the terms in a text (longest name first)."""
    import engine

    g = engine.load(game).glossary()
    terms, names = [], {}
    for t in g.terms:
        entry = {"key": t.key, "id": anchor("gl", t.key), "name": tr(t.name), "text": tr(t.text), "rule": t.rule,
                 "letters": list(t.letters)}
        terms.append(entry)
        base = re.sub(r"\s*\([^)]*\)$", "", entry["name"])  # "Troops (T)" is found as "Troops"
        for n in [entry["name"], base, *(tr(a) for a in t.also)]:
            n = n.strip()
            if len(n) > 2 and n not in names:
                names[n] = entry
    pattern = None
    if names:
        alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        pattern = re.compile(rf"(?<!\w)({alts})(?:s|es)?(?!\w)")
    rules = {r.rule: {"rule": r.rule, "id": anchor("rs", r.rule), "title": tr(r.title), "text": tr(r.text)}
             for r in g.rules}
    return {"terms": terms, "by_name": names, "pattern": pattern, "rules": rules, "glossary": g}


def glossary(game: str) -> dict:
    return _glossary(game, get_language() or "en")


def terms_in(game: str, texts) -> list[dict]:
    """The glossary entries named in ``texts`` (strings), in glossary order, once each."""
    g = glossary(game)
    if g["pattern"] is None:
        return []
    found = set()
    for text in texts:
        if not text:
            continue
        for m in g["pattern"].finditer(str(text)):
            found.add(g["by_name"][m.group(1)]["key"])
    return [t for t in g["terms"] if t["key"] in found]


def summaries(game: str, reference: str) -> list[dict]:
    """The rule summaries (as text) a rule reference cites ("3.2.3, 3.2.4")."""
    g = glossary(game)
    out = []
    for s in g["glossary"].summaries(reference or ""):
        d = g["rules"][s.rule]
        if d not in out:
            out.append(d)
    return out


def link_terms(game: str, text: str) -> list[tuple[str, dict | None]]:
    """``text`` cut into runs: (words, None) and (a term's words, its entry), the first
    occurrence of each term only (for the prompt's question)."""
    g = glossary(game)
    if not text or g["pattern"] is None:
        return [(text or "", None)]
    out, pos, seen = [], 0, set()
    for m in g["pattern"].finditer(text):
        entry = g["by_name"][m.group(1)]
        if entry["key"] in seen:
            continue
        seen.add(entry["key"])
        out.append((text[pos:m.start()], None))
        out.append((m.group(0), entry))
        pos = m.end()
    out.append((text[pos:], None))
    return [(t, e) for t, e in out if t]


@lru_cache(maxsize=32)
def _catalog_metrics(game: str, language: str) -> dict[str, str]:
    import engine

    try:
        metrics = engine.load(game).catalog().get("metrics") or {}
    except Exception:  # a game without a catalog names its tracks only
        metrics = {}
    return {k: tr(m) for k, m in metrics.items()}


def metric_names(rules, board: dict) -> dict[str, str]:
    """Metric id -> its name in the active language: the board's tracks and the game's catalog
    (read once per game and language)."""
    names = {t["id"]: t["name"] for t in (board or {}).get("tracks") or [] if t.get("id")}
    for k, m in _catalog_metrics(rules.key, get_language() or "en").items():
        names.setdefault(k, m)
    return names


def changes_text(deltas: dict, names: dict[str, str]) -> str:
    """"Political Will −1, Government Resources +2" for the named metrics that change."""
    parts = []
    for k, v in (deltas or {}).items():
        if k not in names or not isinstance(v, int | float) or not v:
            continue
        n = int(v) if float(v).is_integer() else round(v, 2)
        parts.append(f"{names[k]} {'+' if n > 0 else '−'}{abs(n)}")
    return ", ".join(parts)


def previews(rules, state, seat: str, choices: list[dict], names: dict[str, str]) -> dict[str, str]:
    """Choice id -> what choosing it changes now, in words, for the choices whose effect the
    engine can tell without revealing anything (``Rules.preview``); games without previews
    give none."""
    if state is None or not rules.has_previews:
        return {}
    ids = [c["id"] for c in choices[:PREVIEW_LIMIT]]
    try:  # the whole list at once (``Rules.previews``: one prompt, one reading of the metrics)
        deltas = rules.previews(state, seat, ids)
    except Exception:  # a preview must never break the page: a failing one is then asked alone
        deltas = {}
        for cid in ids:
            try:
                deltas[cid] = rules.preview(state, seat, cid)
            except Exception:  # that choice is then shown without one
                deltas[cid] = None
    out = {}
    for cid in ids:
        text = changes_text(deltas.get(cid) or {}, names)
        if text:
            out[cid] = text
    return out


def _cause_head(cause: dict, titles: dict) -> str:
    kind = cause.get("kind")
    if kind == CAUSE_RULE:
        step = tr(cause.get("step")) if cause.get("step") else ""
        rule = cause.get("rule", "")
        if step:
            return _("Automatic step: %(step)s (rule %(rule)s)") % {"step": step, "rule": rule}
        return _("Automatic step (rule %(rule)s)") % {"rule": rule}
    if kind == CAUSE_EVENT:
        title = tr(cause.get("title")) if cause.get("title") else str(cause.get("card", ""))
        return _("Event card: %(title)s") % {"title": title}
    if kind == CAUSE_DIE:
        return _("A die roll (rule %(rule)s)") % {"rule": cause.get("rule", "")}
    if kind == CAUSE_BOT:
        seat = titles.get(cause.get("seat", ""), {}).get("title", "")
        return _("%(seat)s (played by the computer)") % {"seat": seat}
    if kind == CAUSE_FACILITATOR:
        return _("The facilitator")
    if kind == CAUSE_DECISION:
        seat = titles.get(cause.get("seat", ""), {}).get("title", "")
        return _("%(seat)s decided") % {"seat": seat}
    return ""


def _cause_key(cause) -> tuple:
    if not isinstance(cause, dict):
        return ("",)
    return (cause.get("kind"), cause.get("seat"), cause.get("rule"), str(cause.get("step")), str(cause.get("card")))


def recap(events: list[dict], seat: str, titles: dict, names: dict[str, str], limit: int = 12) -> list[dict]:
    """"What just happened" since ``seat``'s last decision, oldest first: each move of another
    seat (or the facilitator) with its facts grouped by cause (an automatic phase, an event
    card, a die roll...), each group with the changes it made. ``events`` are the seat's
    redacted log (``selectors.seat_logs``): nothing the seat may not see."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.get("kind") == "decision" and e.get("seat") == seat:
            start = i + 1
            break
    else:
        start = max(0, len(events) - limit)
    out = []
    for ev in events[start:][-limit:]:
        kind = ev.get("kind")
        payload = ev.get("payload") or {}
        who = titles.get(ev.get("seat") or "", {}).get("title", "")
        if kind in ("decision", "bot"):
            if payload.get("secret") and not payload.get("label"):
                head = _("%(seat)s made a secret decision.") % {"seat": who}
            else:
                label = tr(payload.get("label")) if payload.get("label") else ""
                head = (_("%(seat)s chose: %(choice)s") % {"seat": who, "choice": label}) if label else who
        elif kind == "undo":
            head = _("%(seat)s took back a decision.") % {"seat": who}
        elif kind == "facilitator":
            head = _("The facilitator stepped in.")
        else:
            head = _("The game moved on by itself.")
        groups: list[dict] = []
        last_key = None
        for f in ev.get("facts") or []:
            if not f.get("text"):
                continue
            cause = f.get("cause") or {}
            key = _cause_key(cause)
            if key != last_key or not groups:
                own_move = cause.get("kind") == CAUSE_DECISION and kind in ("decision", "bot")
                groups.append({"head": "" if own_move else _cause_head(cause, titles), "facts": [], "deltas": {}})
                last_key = key
            g = groups[-1]
            g["facts"].append(tr(f["text"]))
            for k, v in (f.get("deltas") or {}).items():
                if isinstance(v, int | float):
                    g["deltas"][k] = g["deltas"].get(k, 0) + v
        for g in groups:
            g["changes"] = changes_text(g.pop("deltas"), names)
        out.append({"seq": ev.get("seq"), "kind": kind, "own": ev.get("seat") == seat, "head": head, "groups": groups})
    return out


def legend_texts(board: dict) -> list[str]:
    """The texts of the map's legend, as the board figure writes them."""
    from facilitation.rendering.board_markup import legend_items

    drawing = (board or {}).get("drawing")
    return [txt for _sw, txt in legend_items(board, drawing)] if drawing is not None else []


def legend_terms(game: str, board: dict) -> dict[str, list]:
    """Legend text -> its runs (words, glossary entry or None): each term linked once in the
    legend, at its first mention (the board figure writes the links)."""
    out, seen = {}, set()
    for txt in legend_texts(board):
        runs = []
        for words, entry in link_terms(game, txt):
            if entry is not None and entry["key"] in seen:
                entry = None
            if entry is not None:
                seen.add(entry["key"])
            runs.append((words, entry))
        out[txt] = runs
    return out


def screen(rules, game: str, prompt: dict | None, choices: list[dict], board: dict) -> dict:
    """The glossary entries and rule summaries of what the seat reads on the play page now:
    the question, the choices (labels, help), the map legend and the victory panel's tracks."""
    texts = []
    if prompt:
        texts.append(prompt.get("text"))
    for c in choices:
        texts += [c.get("label"), c.get("help")]
    texts += [x.get("label") for x in (board or {}).get("legend") or []]
    texts += legend_texts(board)
    terms = terms_in(game, [t if isinstance(t, str) else tr(t) for t in texts if t])
    refs = [(prompt or {}).get("rule", "")] + [c.get("rule", "") for c in choices]
    rules_seen: list[dict] = []
    for ref in refs:
        for s in summaries(game, ref):
            if s not in rules_seen:
                rules_seen.append(s)
    choice_rules = {}
    choice_terms = {}
    for c in choices:
        sums = summaries(game, c.get("rule", ""))
        if sums:
            choice_rules[c["id"]] = sums[0]
        label = c.get("label")
        named = terms_in(game, [label if isinstance(label, str) else tr(label)]) if label else []
        if named:
            choice_terms[c["id"]] = named
    return {"terms": terms, "rules": rules_seen, "choice_rules": choice_rules, "choice_terms": choice_terms, "count": len(terms) + len(rules_seen),
            "question": link_terms(game, (prompt or {}).get("text") or ""),
            "prompt_rules": summaries(game, (prompt or {}).get("rule", "")), "has_glossary": bool(glossary(game)["terms"]),
            "rule_keys": rule_keys((prompt or {}).get("rule", ""))}
