"""A game's glossary and rule summaries (contract v2 ``Rules.glossary``, issue #19 deliver 1).

Each game package may hold a ``glossary`` module with ``GLOSSARY``, a :class:`Glossary`: the
game's terms explained in plain words (:class:`Term`) and a short summary of each rulebook
section its prompts and choices cite (:class:`RuleSummary`). Every text is a message
(:mod:`engine.core.messages`), written in the project's own words. The pages link each term
they show and each choice's rule to these entries; :func:`rule_keys` and
:meth:`Glossary.summary` read the rule references the engine writes ("3.2.3, 3.2.4",
"1.G combat (A-57)", "phase 4").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Term:
    """A term of the game: ``key`` (stable, used in links), ``name`` and ``text`` (messages),
    the ``rule`` that defines it, ``also`` (other words that name it on the page: messages,
    e.g. "Underground" for "Underground / Active") and ``letters`` (the map's piece letters)."""

    key: str
    name: Any
    text: Any
    rule: str = ""
    also: tuple = ()
    letters: tuple = ()


@dataclass(frozen=True, slots=True)
class RuleSummary:
    """A rulebook section in one or two sentences: ``rule`` ("3.3.1", "1.G", "phase 4")."""

    rule: str
    title: Any
    text: Any


@dataclass(frozen=True, slots=True)
class Glossary:
    terms: tuple[Term, ...] = ()
    rules: tuple[RuleSummary, ...] = ()
    _by_rule: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        self._by_rule.update({r.rule: r for r in self.rules})

    def summary(self, key: str) -> RuleSummary | None:
        """The summary of rule ``key``, or of the nearest section holding it ("3.3.1" -> "3.3"
        -> "3"); None when there is none."""
        while key:
            # a chapter is written "4" or "4.0": either finds the other
            hit = self._by_rule.get(key) or (self._by_rule.get(key + ".0") if "." not in key else None)
            if hit is not None:
                return hit
            if "." not in key:
                return None
            key = key.rsplit(".", 1)[0]
        return None

    def summaries(self, reference: str) -> list[RuleSummary]:
        """The summaries of every rule a reference cites, once each, in order."""
        out: list[RuleSummary] = []
        for key in rule_keys(reference):
            s = self.summary(key)
            if s is not None and s not in out:
                out.append(s)
        return out

    def to_catalog(self) -> dict:
        """The catalog form (``Rules.catalog()["glossary"]``): JSON dicts of messages."""
        return {"terms": [{"key": t.key, "name": t.name, "text": t.text, "rule": t.rule,
                           "also": list(t.also), "letters": list(t.letters)} for t in self.terms],
                "rules": [{"rule": r.rule, "title": r.title, "text": r.text} for r in self.rules]}


EMPTY = Glossary()

# "3.2.3", "6.5", "3.A", "1.G", "phase 4"; the references in parentheses (A-57: the playbook's
# examples) and card numbers are not sections.
_RULE = re.compile(r"\b(?:phase\s+\d+|\d+(?:\.(?:\d+|[A-Z]))*)(?!\w)")


def rule_keys(reference: str) -> list[str]:
    """The rulebook sections a rule reference cites, in order: "3.2.3, 3.2.4" -> ["3.2.3",
    "3.2.4"]; "1.G combat (A-57)" -> ["1.G"]; "Partisans panel (3.A, A-44)" -> ["3.A"];
    "card 7" -> []."""
    if not reference or not isinstance(reference, str):
        return []
    text = re.sub(r"\bcard\s+\d+", "", reference)
    text = re.sub(r"(?<![\w.])A-\d+", "", text)
    out: list[str] = []
    for m in _RULE.finditer(text):
        k = re.sub(r"\s+", " ", m.group(0))
        if k not in out:
            out.append(k)
    return out
