"""No internal names on any page (issue #19 deliver 6): every page of every role, for the three
games, in English and Spanish, is scanned for raw keys a person should never read: snake_case
choice, seat or game ids (``limited_op``, ``shining_path``, ``tears_of_tyranny``), choice ids
(``box:op_sa``, ``space:junin``) and bare game keys. The scan reads what a person reads or hears:
the text of the page and its accessible names (aria-label, title, alt), not URLs or data
attributes."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

import engine
from tests.e2e.test_accessibility import _pages, _world

pytestmark = pytest.mark.django_db(transaction=True)

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CHOICE_ID = re.compile(r"\b(?:box|op|sa|space|piece|event|card|tile|swap|pass):[a-z0-9_]+\b")
SPOKEN_ATTRS = ("aria-label", "title", "alt", "placeholder")


class _Readable(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._skip += 1
        for k, v in attrs:
            if k in SPOKEN_ATTRS and v:
                self.parts.append(v)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data)


def readable(html: str) -> str:
    p = _Readable()
    p.feed(html)
    return " ".join(p.parts)


def internal_names(text: str) -> set[str]:
    keys = set(engine.keys())
    found = set(SNAKE.findall(text)) | set(CHOICE_ID.findall(text))
    found |= {k for k in keys if re.search(rf"(?<![\w/]){k}(?![\w/])", text)}
    if re.search(r"""['"]msg['"]\s*:""", text):
        found.add("an engine message shown as a dict")
    return found


def test_the_scanner_finds_raw_keys():
    text = readable('<p>shining_path takes back <b>box:op_sa</b></p><a title="limited_op" href="/x/peru_y">ok</a>'
                    '<script>var tears_of_tyranny = 1;</script>')
    assert internal_names(text) == {"shining_path", "box:op_sa", "op_sa", "limited_op"}
    assert internal_names(readable("<p>The Guerrilla Generation: Peru, at Lima's airport</p>")) == set()
    assert internal_names("{'msg': 'Rally in {space}'}") == {"an engine message shown as a dict"}


def test_no_page_of_any_role_shows_an_internal_name():
    w = _world()
    who = {"anonymous": None, "student": w["students"][0], "instructor": w["inst"], "reviewer": w["reviewer"]}
    found = []
    for lang in ("en", "es"):
        for role, urls in _pages(w).items():
            client = Client(HTTP_ACCEPT_LANGUAGE=lang)
            if who[role] is not None:
                client.force_login(who[role])
            for url in urls:
                # a report in another language sends a Spanish reader to the Spanish report
                r = client.get(url, follow=True)
                assert r.status_code == 200, (url, r.status_code)
                names = internal_names(readable(r.content.decode()))
                if names:
                    found.append(f"[{lang} {role}] {url}: {', '.join(sorted(names))}")
    assert not found, "internal names on pages:\n" + "\n".join(found)
