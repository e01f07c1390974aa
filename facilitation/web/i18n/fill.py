"""Fill locale/es/LC_MESSAGES/django.po from :mod:`facilitation.web.i18n.es` (run after makemessages).

    python -m facilitation.web.i18n.fill && python manage.py compilemessages -l es -l en
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .es import ES

PO = Path(__file__).resolve().parents[3] / "locale" / "es" / "LC_MESSAGES" / "django.po"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _unq(lines: str) -> str:
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', lines)
    return "".join(parts).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")


def fill(path: Path = PO) -> list[str]:
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = []
    for i, b in enumerate(blocks):
        m = re.search(r'^msgid ((?:".*"\n?)+)', b, re.M)
        if i == 0 or not m:
            if i == 0:
                b = b.replace('"Language: \\n"', '"Language: es\\n"').replace("#, fuzzy\n", "")
                b = re.sub(r'"Plural-Forms: .*\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', b)
            out.append(b)
            continue
        msgid = _unq(m.group(1))
        tr = ES.get(msgid)
        if tr is None:
            missing.append(msgid)
            out.append(b)
            continue
        b = b.replace("#, fuzzy\n", "").replace("#, fuzzy, ", "#, ")
        b = "\n".join(line for line in b.split("\n") if not line.startswith("#| "))
        head = b.split("\nmsgstr")[0]
        if isinstance(tr, list):
            out.append(head + "\n" + "\n".join(f"msgstr[{n}] {_q(t)}" for n, t in enumerate(tr)))
        else:
            out.append(head + f"\nmsgstr {_q(tr)}")
    path.write_text("\n\n".join(out), encoding="utf-8")
    return missing


if __name__ == "__main__":
    missing = fill()
    for m in missing:
        print("untranslated:", m)
    sys.exit(0)
