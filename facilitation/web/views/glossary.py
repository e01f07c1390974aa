"""A game's glossary page (issue #19 deliver 1): its terms in plain words and a short summary of
each rule its prompts and choices cite, from the engine's ``Rules.glossary()`` (the same entries
the play page links to), in the reader's language."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

import engine
from facilitation.text import tr
from facilitation.web import teach


@require_GET
def glossary(request, game: str):
    if game not in engine.keys():
        raise Http404("unknown game")
    rules = engine.load(game)
    g = teach.glossary(game)
    if not g["terms"] and not g["rules"]:
        raise Http404("no glossary")
    terms = sorted((dict(t) for t in g["terms"]), key=lambda t: t["name"].casefold())
    for t in terms:
        s = g["glossary"].summary(t["rule"]) if t["rule"] else None
        t["rule_id"] = g["rules"][s.rule]["id"] if s else ""
    return render(request, "web/glossary.html", {"game_title": tr(rules.title), "terms": terms,
                                                 "rules": list(g["rules"].values()), "game": game})
