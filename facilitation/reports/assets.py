"""The scripts and style sheets of the AAR report file, linked or inlined.

The report HTML is stored once, as the site serves it: it links its style sheets and
scripts from ``/static/reports/`` (``<link ... data-aar-asset="reports/x.css">``,
``<script src=... data-aar-asset="reports/x.js">``), so ``/reports/ID/report.html`` runs
under the site's Content-Security-Policy (``script-src 'self'``, no inline script or
style) and the browser caches Plotly.js once for every report.

The download (``report.html?download=1``) must work as one file opened from disk,
offline: :func:`standalone` puts the text of each of those files in place of its tag.
Only the files named in :data:`ASSETS` (all in this app's ``static/`` folder) are ever
inlined; report text written by users is escaped by the template, so it cannot forge
such a tag.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from django.templatetags.static import static
from django.utils.html import escape

STATIC_DIR = Path(__file__).resolve().with_name("static")

# Every file a report links, in the order the report links them.
ASSETS = ("reports/aar-report.css", "reports/plotly-base.css", "reports/plotly-maplibre.css",
          "reports/plotly.min.js", "reports/aar-charts.js")

_TAG = re.compile(r'<(?P<tag>link|script)\b(?P<attrs>[^>]*?)\bdata-aar-asset="(?P<path>[^"]+)"(?P<rest>[^>]*)>'
                  r'(?:</script>)?')
_ATTR = re.compile(r'\b(id|class)="([^"]*)"')


@functools.cache
def asset_text(path: str) -> str:
    if path not in ASSETS:
        raise ValueError(f"{path} is not a report asset")
    text = (STATIC_DIR / path).read_text(encoding="utf-8")
    closing = "</style" if path.endswith(".css") else "</script"
    if closing in text.lower() or "<!--" in text:
        raise ValueError(f"{path} cannot be inlined in an HTML file as it is")
    return text


def asset_tag(path: str, *, element_id: str = "", css_class: str = "") -> str:
    """The ``<link>``/``<script>`` tag of one asset, marked for :func:`standalone`."""
    if path not in ASSETS:
        raise ValueError(f"{path} is not a report asset")
    extra = (f' id="{escape(element_id)}"' if element_id else "") + (f' class="{escape(css_class)}"' if css_class else "")
    url = escape(static(path))
    if path.endswith(".css"):
        return f'<link rel="stylesheet" href="{url}"{extra} data-aar-asset="{path}">'
    return f'<script src="{url}"{extra} data-aar-asset="{path}"></script>'


def plotly_tags() -> str:
    """Plotly.js with its style sheets as files, marked so that it inserts no ``<style>``
    element of its own (see :mod:`.plotly_css`), then the script that draws the charts."""
    from facilitation.reports.plotly_css import MAPLIBRE_STYLE_ID

    return "\n".join([
        asset_tag("reports/plotly-base.css", element_id="plotly.js-style-global", css_class="no-inline-styles"),
        asset_tag("reports/plotly-maplibre.css", element_id=MAPLIBRE_STYLE_ID),
        asset_tag("reports/plotly.min.js"),
        asset_tag("reports/aar-charts.js"),
    ])


def standalone(html: str) -> str:
    """The report as one self-contained file: every linked asset inlined."""

    def inline(m: re.Match) -> str:
        path = m.group("path")
        if path not in ASSETS:
            return m.group(0)
        attrs = dict(_ATTR.findall(m.group("attrs") + m.group("rest")))
        extra = "".join(f' {k}="{v}"' for k, v in attrs.items())
        if m.group("tag") == "link":
            return f"<style{extra}>\n{asset_text(path)}</style>"
        return f"<script{extra}>\n{asset_text(path)}</script>"

    return _TAG.sub(inline, html)
