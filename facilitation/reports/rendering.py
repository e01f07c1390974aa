"""Turn a :class:`ReportModel` into files: static SVG charts (kaleido on Debian's
Chromium), interactive HTML (Plotly.js served locally) and PDF (WeasyPrint).

kaleido: one server per worker process (``kaleido_start``/``kaleido_stop``, wired
to ``worker_process_init``/``worker_process_shutdown`` in :mod:`.tasks`); without
a running server, all figures of a report are exported in one browser session.
MathJax is always off (its default loads from a CDN). ``get_chrome`` is never
called: the browser is ``/usr/bin/chromium`` (or ``BROWSER_PATH``).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import threading
from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_noop

from facilitation.reports.builder.charts import data_table
from facilitation.reports.builder.report import ReportModel
from facilitation.reports.builder.whatif import bot_words, strip_svg

log = logging.getLogger(__name__)

KALEIDO_OPTS = {"n": 1, "mathjax": False, "timeout": 60}
_lock = threading.Lock()


class ChartRenderError(RuntimeError):
    """kaleido/Chromium failed to export a chart (usually transient: browser crash, timeout)."""


def kaleido_running() -> bool:
    import kaleido

    return kaleido._global_server.is_running()  # noqa: SLF001 - no public accessor


def kaleido_start() -> None:
    """Start this process's kaleido server (one Chromium tab, MathJax off)."""
    import kaleido

    with _lock:
        if not kaleido_running():
            kaleido.start_sync_server(**KALEIDO_OPTS, silence_warnings=True)


def kaleido_stop() -> None:
    import kaleido

    with _lock:
        if kaleido_running():
            kaleido.stop_sync_server(silence_warnings=True)


def _opts(fig: dict) -> dict:
    lay = fig.get("layout", {})
    return {"format": "svg", "width": lay.get("width", 760), "height": lay.get("height", 300)}


async def _batch(figs: list[dict]) -> list[bytes]:
    import kaleido

    out = []
    async with kaleido.Kaleido(**KALEIDO_OPTS) as k:
        for f in figs:
            out.append(await k.calc_fig(f, opts=_opts(f)))
    return out


def figures_to_svg(figs: list[dict], progress: Callable[[int, int], None] | None = None) -> list[str]:
    """SVG text of every figure, in order."""
    if not figs:
        return []
    try:
        if kaleido_running():
            import kaleido

            out = []
            for i, f in enumerate(figs, 1):
                out.append(kaleido.calc_fig_sync(f, opts=_opts(f)))
                if progress:
                    progress(i, len(figs))
        else:
            box: dict = {}

            def run():
                try:
                    box["v"] = asyncio.run(_batch(figs))
                except BaseException as exc:  # noqa: BLE001 - re-raised below in the caller's thread
                    box["e"] = exc

            t = threading.Thread(target=run, name="kaleido-batch")
            t.start()
            t.join()
            if "e" in box:
                raise box["e"]
            out = box["v"]
            if progress:
                progress(len(figs), len(figs))
    except ChartRenderError:
        raise
    except Exception as exc:  # kaleido/choreographer raise many types; all mean "export failed"
        raise ChartRenderError(f"Chart export failed ({type(exc).__name__}: {exc})") from exc
    return [b.decode("utf-8") if isinstance(b, bytes) else str(b) for b in out]


def _svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


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
            "svg_uri": _svg_data_uri(c.svg) if c.svg else "",
        })
    snaps = [{**s, "svg_uri": _svg_data_uri(s["svg"])} for s in model.snapshots]
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
        "whatifs": [{"w": w, "svg": strip_svg(w), "svg_uri": _svg_data_uri(strip_svg(w)) if w.options else "",
                     "bots": bot_words(w.bots)}
                    for w in model.whatifs],
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
    the comparison table and the discussion prompts (at most 4 pages)."""
    return html_to_pdf(render_html(model, mode="summary" if summary_only else "pdf", generated_at=generated_at))


def html_to_pdf(html: str) -> bytes:
    """WeasyPrint with a fetcher that reads only ``data:`` URIs and the report's own static
    files (:mod:`.pdf_fetcher`): nothing from the network or the rest of the disk."""
    from weasyprint import HTML

    from facilitation.reports.pdf_fetcher import ReportURLFetcher, base_url

    return HTML(string=html, base_url=base_url(), url_fetcher=ReportURLFetcher()).write_pdf()
