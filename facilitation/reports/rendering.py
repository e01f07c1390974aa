"""Turn a :class:`ReportModel` into files: static SVG charts (kaleido on Debian's
Chromium), interactive HTML (Plotly.js served locally) and PDF (WeasyPrint).

In the PDF the map snapshots are JPEG pictures of their SVG, drawn by the same Chromium
(:func:`maps_to_jpeg`), and so are the charts (:func:`rasterize_charts`): WeasyPrint
drawing a map's hundreds of SVG texts and paths cost it about a quarter of a second per map, more than the rest of a map's page, while it embeds a
JPEG as it is (a PNG it would decode and compress again, with its alpha channel apart:
time and tens of MB of the worker's memory). docs/benchmarks.md, AAR build. The HTML keeps
the SVG.

kaleido: one server per worker process (``kaleido_start``/``kaleido_stop``, wired
to ``worker_process_init``/``worker_process_shutdown`` in :mod:`.tasks`); without
a running server, all figures of a report are exported in one browser session. Both
are :class:`.chart_server.ChartServer`: every call has a time limit.
MathJax is always off (its default loads from a CDN). ``get_chrome`` is never
called: the browser is ``/usr/bin/chromium`` (or ``BROWSER_PATH``).
"""

from __future__ import annotations

import base64
import contextlib
import gc
import logging
import re
from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_noop

from facilitation.reports.builder.charts import data_table
from facilitation.reports.builder.report import ReportModel
from facilitation.reports.builder.whatif import bot_words, strip_svg
from facilitation.reports.chart_server import ChartServer

log = logging.getLogger(__name__)

KALEIDO_OPTS = {"n": 1, "mathjax": False, "timeout": 60}
# this process's server (a Celery worker's, started by worker_process_init in .tasks)
_server = ChartServer(KALEIDO_OPTS)


class ChartRenderError(RuntimeError):
    """kaleido/Chromium failed to export a chart (usually transient: browser crash, timeout)."""


def kaleido_running() -> bool:
    return _server.running()


def kaleido_start() -> None:
    """Start this process's kaleido server (one Chromium tab, MathJax off)."""
    _server.start()


def kaleido_stop() -> None:
    _server.stop()


# How many :func:`one_browser` blocks are open in this process.
_shared = 0


@contextlib.contextmanager
def one_browser():
    """Every export inside the block goes through this process's server: started by the first
    export that needs it, kept for the next, stopped when the block ends (left running if it was
    running before, e.g. a Celery worker's). Outside, a process without a server starts a
    browser for each report. ``coinlab demo`` (and ``scripts/run``) builds a report for each
    game's finished session: one Chromium start instead of three."""
    global _shared
    was_running = _server.running()
    _shared += 1
    try:
        yield
    finally:
        _shared -= 1
        if not _shared and not was_running:
            _server.stop()


def _opts(fig: dict, fmt: str = "svg", scale: float = 1) -> dict:
    lay = fig.get("layout", {})
    return {"format": fmt, "width": lay.get("width", 760), "height": lay.get("height", 300), "scale": scale}


class _Export:
    """kaleido's export of figures, all sent at once to the browser's tabs
    (:meth:`.chart_server.ChartServer.submit_many`) through this process's server when it runs,
    else through a browser started for them (stopped when they are done); :meth:`wait` for the
    answers, in order. The browser going silent for the time limit (:mod:`.chart_server`) kills
    it and fails the export with :class:`ChartRenderError`, as any failure of the browser."""

    def __init__(self, figs: list[dict], opts: list[dict]):
        self.own = not _server.running() and not _shared
        self.server = ChartServer(KALEIDO_OPTS) if self.own else _server
        self.batch = None
        try:
            if figs:
                self.batch = self.server.submit_many(
                    "calc_fig", [((f,), {"opts": o}) for f, o in zip(figs, opts, strict=True)])
        except Exception as exc:  # the browser did not start
            self.close()
            raise ChartRenderError(f"Chart export failed ({type(exc).__name__}: {exc})") from exc

    def wait(self, progress: Callable[[int, int], None] | None = None) -> list:
        try:
            return self.batch.wait(progress) if self.batch else []
        except ChartRenderError:
            raise
        except Exception as exc:  # kaleido/choreographer raise many types; all mean "export failed"
            raise ChartRenderError(f"Chart export failed ({type(exc).__name__}: {exc})") from exc
        finally:
            self.close()

    def close(self) -> None:
        if self.batch:
            self.batch.cancel()
        if self.own:
            self.server.stop()


def _export(figs: list[dict], opts: list[dict], progress: Callable[[int, int], None] | None = None) -> list:
    """kaleido's export of every figure, in order (:class:`_Export`)."""
    return _Export(figs, opts).wait(progress)


def figures_to_svg(figs: list[dict], progress: Callable[[int, int], None] | None = None) -> list[str]:
    """SVG text of every figure, in order."""
    out = _export(figs, [_opts(f) for f in figs], progress)
    return [b.decode("utf-8") if isinstance(b, bytes) else str(b) for b in out]


# A map's picture in the PDF: 900 CSS pixels wide at 1.6 device pixels each, 1,440 pixels
# across the 180 mm of an A4 page's text (about 200 dpi).
MAP_PICTURE_WIDTH = 900
MAP_PICTURE_SCALE = 1.6
_SVG_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def _picture_figure(svg: str) -> dict:
    """A Plotly figure that is only ``svg``, as a picture filling the whole figure (its
    own width and height ratio kept), for kaleido to draw as JPEG."""
    m = _SVG_SIZE.search(svg)
    w, h = (float(m.group(1)), float(m.group(2))) if m else (4.0, 3.0)
    height = max(1, round(MAP_PICTURE_WIDTH * h / w))
    axis = {"visible": False, "range": [0, 1], "fixedrange": True}
    return {"data": [], "layout": {
        "width": MAP_PICTURE_WIDTH, "height": height, "margin": {"l": 0, "r": 0, "t": 0, "b": 0, "pad": 0},
        "paper_bgcolor": "#ffffff", "plot_bgcolor": "#ffffff", "xaxis": axis, "yaxis": axis, "showlegend": False,
        "images": [{"source": _svg_data_uri(svg), "xref": "paper", "yref": "paper", "x": 0, "y": 1,
                    "sizex": 1, "sizey": 1, "sizing": "stretch", "xanchor": "left", "yanchor": "top",
                    "layer": "above"}]}}


def _checked_jpegs(out: list, what: str) -> list[bytes]:
    for b in out:
        if not isinstance(b, bytes) or not b.startswith(b"\xff\xd8"):
            raise ChartRenderError(f"{what} export failed (kaleido returned no JPEG)")
    return out


def _jpegs(figs: list[dict], scale: float, what: str) -> list[bytes]:
    return _checked_jpegs(_export(figs, [_opts(f, "jpeg", scale) for f in figs]), what)


def maps_to_jpeg(svgs: list[str]) -> list[bytes]:
    """JPEG pictures of the map snapshots' SVG, drawn by kaleido's Chromium."""
    return _jpegs([_picture_figure(s) for s in svgs], MAP_PICTURE_SCALE, "Map")


# A chart's picture in the PDF: its 760 CSS pixels at 2 device pixels each (about 215 dpi
# across the page's text). WeasyPrint drawing the charts' SVG (Plotly's hundreds of paths,
# texts and clip paths) took more of the worker's CPU than the rest of their pages; a JPEG
# it embeds as it is (docs/benchmarks.md, AAR build). The HTML keeps the live chart and its SVG.
CHART_PICTURE_SCALE = 2


def rasterize_charts(model: ReportModel) -> None:
    """Give each exported chart (one with its SVG) its JPEG (``chart.jpeg``) for the PDF, once."""
    todo = [c for c in model.all_charts if c.svg and not c.jpeg]
    for c, jpeg in zip(todo, _jpegs([c.figure for c in todo], CHART_PICTURE_SCALE, "Chart"), strict=True):
        c.jpeg = jpeg


def rasterize_maps(model: ReportModel) -> None:
    """Give each map snapshot its JPEG (``snapshot["jpeg"]``) for the PDF, once per model."""
    todo = [s for s in model.snapshots if not s.get("jpeg")]
    for s, jpeg in zip(todo, maps_to_jpeg([s["svg"] for s in todo]), strict=True):
        s["jpeg"] = jpeg


class PendingPictures:
    """The pictures of a report being drawn by the browser (:func:`start_pictures`)."""

    def __init__(self, model: ReportModel):
        self.charts = list(model.all_charts)
        self.maps = [s for s in model.snapshots if not s.get("jpeg")]
        pictures = [_picture_figure(s["svg"]) for s in self.maps]
        figs = [c.figure for c in self.charts] * 2 + pictures
        opts = ([_opts(c.figure) for c in self.charts]
                + [_opts(c.figure, "jpeg", CHART_PICTURE_SCALE) for c in self.charts]
                + [_opts(f, "jpeg", MAP_PICTURE_SCALE) for f in pictures])
        self._export = _Export(figs, opts)

    def wait(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Wait for the pictures and give them to the model; ``progress(done, total)`` counts the
        charts (their SVGs are sent first). :class:`ChartRenderError` if the browser failed any."""
        n = len(self.charts)
        out = self._export.wait((lambda done, total: progress(min(done, n), n)) if progress else None)
        for c, svg in zip(self.charts, out[:n], strict=True):
            c.svg = svg.decode("utf-8") if isinstance(svg, bytes) else str(svg)
        jpegs = _checked_jpegs(out[n:], "Picture")
        for c, jpeg in zip(self.charts, jpegs[:n], strict=True):
            c.jpeg = jpeg
        for snap, jpeg in zip(self.maps, jpegs[n:], strict=True):
            snap["jpeg"] = jpeg

    def cancel(self) -> None:
        """Drop what is not drawn yet (the build failed meanwhile)."""
        self._export.close()


def start_pictures(model: ReportModel) -> PendingPictures:
    """Send every picture the report's files need to the browser at once and return at once, so
    that the worker typesets what needs none (the summary PDF) while the browser draws: each
    chart's SVG (``chart.svg``, the HTML's), and for the full PDF each chart's and each map's
    JPEG (``chart.jpeg``, ``snapshot["jpeg"]``; what :func:`rasterize_charts` and
    :func:`rasterize_maps` draw one kind at a time). :meth:`PendingPictures.wait` for them."""
    return PendingPictures(model)


def _svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _map_picture(i: int) -> str:
    """The name of the ``i``-th map's JPEG for the PDF's fetcher (:mod:`.pdf_fetcher`)."""
    return f"map-{i}.jpg"


def _snapshot_uri(i: int, s: dict) -> str:
    if s.get("jpeg"):
        from facilitation.reports.pdf_fetcher import PICTURE_SCHEME

        return PICTURE_SCHEME + _map_picture(i)
    return _svg_data_uri(s["svg"])


def _figure_picture(i: int) -> str:
    """The name of the ``i``-th chart's JPEG (numbered from 1) for the PDF's fetcher."""
    return f"figure-{i}.jpg"


def _whatif_picture(i: int) -> str:
    return f"whatif-{i}.svg"


def _pictures(model: ReportModel) -> dict[str, tuple[bytes, str]]:
    """What the full PDF's fetcher serves by name: the maps' and the charts' JPEGs, the what-if
    strips' SVG. Not ``data:`` URIs in the HTML: WeasyPrint's pure-Python HTML parser reads
    those character by character (the charts' base64 SVG were over half of Andean Abyss's
    HTML; docs/benchmarks.md)."""
    out = {_map_picture(i): (s["jpeg"], "image/jpeg") for i, s in enumerate(model.snapshots) if s.get("jpeg")}
    out.update({_figure_picture(i): (c.jpeg, "image/jpeg") for i, c in enumerate(model.all_charts, 1) if c.jpeg})
    out.update({_whatif_picture(i): (strip_svg(w).encode("utf-8"), "image/svg+xml")
                for i, w in enumerate(model.whatifs, 1) if w.options})
    return out


def _picture_uri(name: str) -> str:
    from facilitation.reports.pdf_fetcher import PICTURE_SCHEME

    return PICTURE_SCHEME + name


def context(model: ReportModel, *, mode: str, generated_at=None) -> dict:
    figs = []
    for i, c in enumerate(model.all_charts, 1):
        figs.append({
            "number": i,
            "key": c.key,
            "title": c.title,
            "description": c.description,
            "figure": c.figure,
            "table": data_table(c.figure),
            "dom_id": f"aar-figure-{i}",
            "svg": c.svg,
            "svg_uri": (_picture_uri(_figure_picture(i)) if mode == "pdf" and c.jpeg
                        else _svg_data_uri(c.svg) if c.svg else ""),
        })
    snaps = [{**s, "svg_uri": _snapshot_uri(i, s) if mode == "pdf" else ""} for i, s in enumerate(model.snapshots)]
    an = model.analysis
    return {
        "mode": mode,
        "m": model,
        "cover": model.cover,
        "intents": model.intents,
        "timelines": figs[: len(model.charts)],
        "decision_time_fig": figs[len(model.charts)] if model.decision_time_chart else None,
        "comparison_figs": figs[len(model.charts) + (1 if model.decision_time_chart else 0):],
        "comparison": model.comparison,
        "summary": model.summary,
        "whatifs": [{"w": w, "svg": strip_svg(w), "bots": bot_words(w.bots),
                     "svg_uri": ("" if not w.options else _picture_uri(_whatif_picture(i)) if mode == "pdf"
                                 else _svg_data_uri(strip_svg(w)))}
                    for i, w in enumerate(model.whatifs, 1)],
        "card_lines": model.card_lines,
        "bot_seats": model.bot_seats,
        "replay_url": model.links.get("replay", ""),
        "events_csv_url": model.links.get("events_csv", ""),
        "decision_times": an.decision_times,
        "rows": an.rows,
        "labels": an.labels,
        "key_moments": an.key_moments,
        "key_moment_groups": key_moment_groups(model),
        "key_moment_method": key_moment_method(model),
        "key_moments_empty": key_moments_empty(model),
        "phases": an.phases,
        "snapshots": snaps,
        "team_summaries": an.team_summaries,
        "notes": model.notes,
        "bookmarks": model.bookmarks,
        "prompts": model.prompts,
        "final_metrics": model.final_metrics,
        "warnings": model.warnings,
        "generated_at": generated_at,
        "n_figures": len(figs),
    }


GROUPS = ((gettext_noop("Team decisions"), ("decision",)), (gettext_noop("Bot decisions"), ("bot",)),
          (gettext_noop("Automatic rule steps"), ("rule",)), (gettext_noop("Dice"), ("die",)),
          (gettext_noop("Cards and events"), ("event",)), (gettext_noop("Facilitator"), ("facilitator",)))


def key_moment_groups(model: ReportModel) -> list[dict]:
    out = []
    for title, cats in GROUPS:
        ks = [k for k in model.analysis.key_moments if k.category in cats]
        if ks:
            out.append({"title": gettext(title), "moments": ks})
    return out


def key_moment_method(model: ReportModel) -> str:
    if model.spec.measures:
        names = "; ".join(dict.fromkeys(ms.label for ms in model.spec.measures))
        return gettext("Moments ranked by how much they moved the measures that decide this game ({names}), "
                       "separated into the teams' own decisions, the bots' decisions, automatic rule steps, dice "
                       "and cards, each credited to its own cause: a team's rationale is shown only with that "
                       "team's decisions. Changes of state that decide games (a capture, an election, a switch to "
                       "tyranny, the control of a big city) are always listed.").format(names=names)
    return gettext("The largest swings of the plotted measures (relative to each measure's range in this game), "
                   "each with its cause.")


def key_moments_empty(model: ReportModel) -> str:
    an = model.analysis
    if not an.steps or len(an.steps) < 2:
        return gettext("No key moments: the log holds no play yet.")
    return gettext("No key moments: no decision, rule step, die or card changed the measures that decide this "
                   "game in the part of the log this report covers.")


def render_html(model: ReportModel, *, mode: str = "html", generated_at=None) -> str:
    return render_to_string("reports/report.html", context(model, mode=mode, generated_at=generated_at))


def render_pdf(model: ReportModel, *, generated_at=None, summary_only: bool = False) -> bytes:
    """The full PDF, or (``summary_only``) the summary: the one-page summary, key moments,
    the comparison table and the discussion prompts (at most 4 pages). The full PDF's maps
    and charts are drawn as JPEG first (:func:`rasterize_maps`, :func:`rasterize_charts`;
    :class:`ChartRenderError` if that fails)."""
    if summary_only:
        return html_to_pdf(render_html(model, mode="summary", generated_at=generated_at))
    rasterize_maps(model)
    rasterize_charts(model)
    return html_to_pdf(render_html(model, mode="pdf", generated_at=generated_at), pictures=_pictures(model))


def html_to_pdf(html: str, pictures: dict[str, tuple[bytes, str]] | None = None) -> bytes:
    """WeasyPrint with a fetcher that reads only ``data:`` URIs, the report's own static
    files and ``pictures`` (:mod:`.pdf_fetcher`): nothing from the network or the rest of the disk."""
    from weasyprint import HTML

    from facilitation.reports.pdf_fetcher import ReportURLFetcher, base_url

    with collector_paused():
        return HTML(string=html, base_url=base_url(), url_fetcher=ReportURLFetcher(pictures)).write_pdf()


@contextlib.contextmanager
def collector_paused():
    """No garbage collection while WeasyPrint typesets, one full pass after. WeasyPrint keeps
    hundreds of thousands of objects alive while it lays a long report out (boxes, styles, lines)
    and allocates far more: the collector's automatic passes walked them again and again, about
    a fifth of the full PDF's CPU (Andean Abyss: 3.1-3.3 s with them, 2.5-2.6 s without, and
    0.35 s for the one pass after; the peak RSS the same; docs/benchmarks.md, AAR build)."""
    if not gc.isenabled():  # a caller's pause: theirs to end
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()
