"""A small reader of gettext ``.po`` files (enough for checking our own catalogs)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ES_PO = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
ES_MO = ES_PO.with_suffix(".mo")


@dataclass
class Entry:
    msgid: str = ""
    plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(s for s in self.msgstr)


def _string(line: str) -> str:
    return ast.literal_eval(line)  # a C-style quoted string; our catalogs hold no octal escapes


def read(path: Path = ES_PO) -> list[Entry]:
    """The entries of a ``.po`` file (the header, msgid "", left out)."""
    entries: list[Entry] = []
    cur = Entry()
    target: tuple[str, int] | None = None

    def flush():
        nonlocal cur
        if cur.msgid or cur.msgstr:
            if cur.msgid:
                entries.append(cur)
        cur = Entry()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            flush()
            target = None
            continue
        if line.startswith("#~"):
            cur.obsolete = True
            continue
        if line.startswith("#,"):
            cur.flags |= {f.strip() for f in line[2:].split(",")}
            continue
        if line.startswith("#"):
            cur.comments.append(line)
            continue
        m = re.match(r"(msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$", line)
        if m:
            key, idx, text = m.group(1), m.group(2), _string(m.group(3))
            if key == "msgid":
                if cur.msgstr:  # a new entry without a blank line between
                    flush()
                cur.msgid = text
                target = ("msgid", 0)
            elif key == "msgid_plural":
                cur.plural = text
                target = ("plural", 0)
            else:
                i = int(idx) if idx is not None else 0
                while len(cur.msgstr) <= i:
                    cur.msgstr.append("")
                cur.msgstr[i] = text
                target = ("msgstr", i)
            continue
        if line.startswith('"') and target is not None:
            text = _string(line)
            kind, i = target
            if kind == "msgid":
                cur.msgid += text
            elif kind == "plural":
                cur.plural = (cur.plural or "") + text
            else:
                cur.msgstr[i] += text
    flush()
    return [e for e in entries if not e.obsolete]
