"""Plotly.js's own base style sheet as a file, so no page needs ``style-src 'unsafe-inline'``.

Plotly.js inserts its base rules (the stacking of its SVG layers, the mode bar, the
hover notes) into a ``<style id="plotly.js-style-global">`` element it creates at run
time. A Content-Security-Policy without ``'unsafe-inline'`` in ``style-src`` refuses
that element. Plotly.js skips the insertion when an element with that id and the class
``no-inline-styles`` is already on the page, so the AAR pages link the same rules as a
static file::

    <link rel="stylesheet" id="plotly.js-style-global" class="no-inline-styles" href=".../plotly-base.css">

The bundle also carries MapLibre's style sheet (for map traces, which the AAR does not
draw) and inserts it, when loaded, into a ``<style>`` element with a fixed id unless an
element with that id exists: the pages link it as ``plotly-maplibre.css`` with that id.

Both files are generated from the ``plotly.min.js`` served next to them (never written
by hand), and a test checks that they still agree; after upgrading Plotly run::

    python -m facilitation.reports.plotly_css
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PLOTLY_JS = Path(__file__).with_name("static") / "reports" / "plotly.min.js"

# The rules object starts with this key; its selectors use X for ".js-plotly-plot .plotly"
# and Y for ".plotly-notifier" (replaced by Plotly.js before inserting each rule).
_FIRST_KEY = '"X,X div":'
_ENTRY = re.compile(r"""(?:"(?P<qkey>[^"]*)"|(?P<key>[A-Za-z_$][\w$]*))\s*:\s*(?:'(?P<sq>[^']*)'|"(?P<dq>[^"]*)")\s*[,}]""")


def _rules_object(js: str) -> str:
    start = js.find(_FIRST_KEY)
    if start < 0:
        raise ValueError("Plotly.js base style rules not found (has the Plotly.js build changed?)")
    start = js.rfind("{", 0, start)
    depth = 0
    for i in range(start, len(js)):
        if js[i] == "{":
            depth += 1
        elif js[i] == "}":
            depth -= 1
            if depth == 0:
                return js[start:i + 1]
    raise ValueError("unterminated Plotly.js style rules object")


def plotly_css(js: str) -> str:
    """The CSS text of Plotly.js's base rules, found in the text of ``plotly.min.js``."""
    body = _rules_object(js)
    version = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", js)
    lines = [f"/* Plotly.js {version.group(1) if version else ''} base rules (MIT licence, Plotly, Inc.), "
             "generated from plotly.min.js by facilitation/reports/plotly_css.py: do not edit. */"]
    pos = 1
    n = 0
    while pos < len(body) - 1:
        m = _ENTRY.match(body, pos)
        if m is None:
            raise ValueError(f"unexpected text in the Plotly.js style rules at {body[pos:pos + 60]!r}")
        key = m.group("qkey") if m.group("qkey") is not None else m.group("key")
        selector = (key.replace("X", ".js-plotly-plot .plotly").replace("Y", ".plotly-notifier")
                    if key else key)
        if selector.startswith(","):
            selector = " " + selector
        value = m.group("sq") if m.group("sq") is not None else m.group("dq")
        lines.append(f"{selector} {{{value}}}")
        n += 1
        pos = m.end()
    if n < 10:
        raise ValueError(f"only {n} Plotly.js style rules found")
    return "\n".join(lines) + "\n"


# Plotly.js 4.1.1 (its MapLibre bundle): the id of the element it puts MapLibre's style sheet in.
MAPLIBRE_STYLE_ID = "9f215cf04c5486422605d13261cb87401f4e7763b6296af81e98efbc0130da53"
_MAPLIBRE = re.compile(r"""if\(!document\.getElementById\("(?P<id>[0-9a-f]{16,})"\)\)\{var (?P<v>\w+)="""
                       r"""document\.createElement\("style"\);(?P=v)\.id="(?P=id)",(?P=v)\.textContent='(?P<css>[^'\\]*)'""")


def maplibre_css(js: str) -> tuple[str, str]:
    """``(element id, CSS text)`` of the MapLibre style sheet Plotly.js inserts when loaded."""
    m = _MAPLIBRE.search(js)
    if m is None:
        raise ValueError("MapLibre style sheet not found in Plotly.js (has the Plotly.js build changed?)")
    return m.group("id"), m.group("css") + "\n"


def generated_files(js: str) -> dict[str, str]:
    """The static files generated from ``plotly.min.js``: name -> text."""
    return {"plotly-base.css": plotly_css(js), "plotly-maplibre.css": maplibre_css(js)[1]}


def main() -> None:
    js = PLOTLY_JS.read_text(encoding="utf-8")
    element_id, _css = maplibre_css(js)
    if element_id != MAPLIBRE_STYLE_ID:
        sys.exit(f"set MAPLIBRE_STYLE_ID = {element_id!r} in {__file__}")
    for name, text in generated_files(js).items():
        (PLOTLY_JS.parent / name).write_text(text, encoding="utf-8")
        sys.stdout.write(f"wrote {PLOTLY_JS.parent / name}\n")


if __name__ == "__main__":
    main()
