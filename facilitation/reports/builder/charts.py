"""Plotly figure dicts for the AAR timelines (pure data; no Plotly runtime needed).

The same dict drives Plotly.js in the interactive HTML and kaleido's static SVG
in the PDF.
"""

from __future__ import annotations

from dataclasses import dataclass

from facilitation.reports.builder.analysis import Analysis, metric_value
from facilitation.reports.builder.specs import PALETTE, ChartSpec, RefLine, ScenarioSpec, Series
from facilitation.reports.builder.translation import decimal_separator, gettext

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
WIDTH, HEIGHT = 760, 300


def plotly_text(text) -> str:
    """User text (team names, session titles) as a Plotly label: Plotly reads ``<a href>``,
    ``<b>`` ... in labels as markup (a team name became a link in the chart's SVG: issue 14
    item 12), so ``&``, ``<`` and ``>`` go as entities, which Plotly shows as the characters."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass
class Chart:
    key: str
    title: str
    description: str
    figure: dict
    series: list[str]  # metric keys plotted
    svg: str = ""
    jpeg: bytes = b""  # the full PDF's picture of it (rendering.rasterize_charts)


def _base_layout(title: str, ytitle: str, cards: int, xlabel: str = "") -> dict:
    return {
        # Plotly's decimal and thousands marks, in the report's language ("," and "." in Spanish)
        "separators": ",." if decimal_separator() == "," else ".,",
        "title": {"text": title, "font": {"size": 15}, "x": 0.01, "xanchor": "left"},
        "width": WIDTH,
        "height": HEIGHT,
        "margin": {"l": 55, "r": 20, "t": 40, "b": 75},
        "font": {"family": FONT, "size": 11, "color": "#212121"},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "xaxis": {"title": {"text": xlabel or gettext("Card")}, "range": [0, max(cards, 1) + 1], "gridcolor": "#eeeeee",
                  "zeroline": False, "showline": True, "linecolor": "#9e9e9e", "dtick": _dtick(cards)},
        "yaxis": {"title": {"text": ytitle}, "gridcolor": "#eeeeee", "zeroline": False,
                  "showline": True, "linecolor": "#9e9e9e"},
        "legend": {"orientation": "h", "x": 0, "y": -0.28, "yanchor": "top"},
        "shapes": [],
        "annotations": [],
        "showlegend": True,
    }


def _dtick(cards: int) -> int:
    for d in (1, 2, 5, 10, 20, 50):
        if cards / d <= 25:
            return d
    return 100


def _series_xy(an: Analysis, names: tuple[str, ...], cards: list | None = None) -> tuple[list[float], list[float]]:
    """The series' points; ``cards`` (if given) receives the exact card of each point, for the
    tooltips (x is the card plus the event's place within it, so rounding x is wrong)."""
    xs, ys = [], []
    for s in an.steps:
        v = metric_value(s.metrics, names)
        if v is None:
            continue
        if ys and ys[-1] == v and xs[-1] == s.x:
            continue
        xs.append(s.x)
        ys.append(v)
        if cards is not None:
            cards.append([s.card, s.seq])
    # the line runs on to the end of the game, not to its last change
    if xs and an.steps and xs[-1] < an.steps[-1].x:
        xs.append(an.steps[-1].x)
        ys.append(ys[-1])
        if cards is not None:
            cards.append([an.steps[-1].card, an.steps[-1].seq])
    return xs, ys


def _markers(layout: dict, an: Analysis, y_top_ref: str = "paper") -> None:
    for p in an.phases:
        layout["shapes"].append({"type": "line", "xref": "x", "yref": "paper", "x0": p["x"], "x1": p["x"],
                                 "y0": 0, "y1": 1, "line": {"color": "#757575", "width": 1, "dash": "dash"}})
        layout["annotations"].append({"x": p["x"], "y": 1.0, "xref": "x", "yref": "paper",
                                      "text": f"P{p['number']}", "showarrow": False, "yanchor": "bottom",
                                      "font": {"size": 9, "color": "#616161"}})
    for k in an.key_moments:
        layout["shapes"].append({"type": "line", "xref": "x", "yref": "paper", "x0": k.row.x_end, "x1": k.row.x_end,
                                 "y0": 0, "y1": 1, "line": {"color": "#ef6c00", "width": 1, "dash": "dot"}})
        layout["annotations"].append({"x": k.row.x_end, "y": 0.0, "xref": "x", "yref": "paper",
                                      "text": f"K{k.number}", "showarrow": False, "yanchor": "bottom",
                                      "font": {"size": 9, "color": "#ef6c00"}})


def _expand(spec: ChartSpec, metric_names: list[str], labels: dict | None = None) -> tuple[Series, ...]:
    series = list(spec.series)
    if spec.series_prefix:
        for m in metric_names:
            if m.startswith(spec.series_prefix):
                label = (labels or {}).get(m) or m[len(spec.series_prefix):].replace("_", " ").title()
                series.append(Series(label, (m,)))
    return tuple(s for s in series if all(n in metric_names for n in s.metrics))


def timeline(spec: ChartSpec, an: Analysis, xlabel: str = "") -> Chart | None:
    series = _expand(spec, an.metric_names, an.labels)
    if not series:
        return None
    layout = _base_layout(spec.title, spec.yaxis or spec.title, an.cards, xlabel)
    data = []
    plotted = []
    for i, s in enumerate(series):
        cards: list = []
        xs, ys = _series_xy(an, s.metrics, cards)
        color = s.color or PALETTE[i % len(PALETTE)]
        line = {"shape": "hv", "color": color, "width": 2}
        if s.dash:
            line["dash"] = s.dash
        data.append({"type": "scatter", "mode": "lines", "name": s.label, "x": xs, "y": ys, "line": line,
                     "customdata": cards,
                     "hovertemplate": f"{s.label}: %{{y}}<br>{(xlabel or gettext('Card')).lower()} "
                                      f"%{{customdata[0]}}, {gettext('event')} %{{customdata[1]}}<extra></extra>"})
        plotted.append(s.key)
        # key moments on this series
        kx, ky, kt = [], [], []
        for k in an.key_moments:
            if k.metric in s.metrics:
                kx.append(k.row.x_end)
                ky.append(metric_value(next(st.metrics for st in an.steps if st.seq == k.row.last_seq),
                                       s.metrics))
                kt.append(k.summary)
        if kx:
            data.append({"type": "scatter", "mode": "markers+text", "x": kx, "y": ky, "showlegend": False,
                         "marker": {"color": "#ef6c00", "size": 8, "symbol": "diamond"},
                         "text": [f"K{k.number}" for k in an.key_moments if k.metric in s.metrics],
                         "textposition": "top center", "textfont": {"size": 9, "color": "#ef6c00"},
                         "hovertext": kt, "hoverinfo": "text"})
    for band in spec.bands:
        layout["shapes"].append({"type": "rect", "xref": "paper", "yref": "y", "x0": 0, "x1": 1,
                                 "y0": band.y0, "y1": band.y1, "fillcolor": band.color, "line": {"width": 0},
                                 "layer": "below"})
        layout["annotations"].append({"xref": "paper", "yref": "y", "x": 0.995, "y": (band.y0 + band.y1) / 2,
                                      "text": band.label, "showarrow": False, "xanchor": "right",
                                      "font": {"size": 9, "color": "#424242"}})
    for ref in spec.lines:
        if ref.metric and ref.metric in an.metric_names:
            xs, ys = _series_xy(an, (ref.metric,))
            data.append({"type": "scatter", "mode": "lines", "name": ref.label, "x": xs, "y": ys,
                         "line": {"shape": "hv", "color": ref.color, "width": 1.5, "dash": "dash"}})
            continue
        y = ref.y
        if y is None and ref.y_by_players:
            players = sum(1 for m in an.metric_names if ref.players_prefix and m.startswith(ref.players_prefix))
            y = ref.y_by_players.get(players)
        if y is not None:
            ref = RefLine(ref.label, y=y, color=ref.color)
            layout["shapes"].append({"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1,
                                     "y0": ref.y, "y1": ref.y, "line": {"color": ref.color, "width": 1.5,
                                                                          "dash": "dash"}})
            layout["annotations"].append({"xref": "paper", "yref": "y", "x": 0.995, "y": ref.y,
                                          "text": ref.label, "showarrow": False, "xanchor": "right",
                                          "yanchor": "bottom", "font": {"size": 9, "color": ref.color}})
    if spec.y_range:
        layout["yaxis"]["range"] = [spec.y_range[0] - 0.5, spec.y_range[1] + 0.5]
    else:
        ys_all = [y for d in data for y in d.get("y", []) if y is not None]
        ys_all += [sh["y0"] for sh in layout["shapes"] if sh.get("yref") == "y" and sh["type"] == "line"]
        if ys_all:
            lo, hi = min(ys_all), max(ys_all)
            pad = max((hi - lo) * 0.08, 0.5)
            layout["yaxis"]["range"] = [min(lo - pad, 0) if lo >= 0 else lo - pad, hi + pad]
    _markers(layout, an)
    return Chart(key=spec.key, title=spec.title, description=spec.description, figure={"data": data,
                 "layout": layout}, series=plotted)


def timelines(sspec: ScenarioSpec, an: Analysis) -> list[Chart]:
    charts = [c for c in (timeline(cs, an, sspec.x_label) for cs in sspec.charts) if c is not None]
    if not charts:  # unknown scenario, or no spec metric present: every numeric metric
        for m in an.metric_names:
            if m in ("card", "cards_played", "card_number"):
                continue
            cs = ChartSpec(key=m, title=an.labels.get(m, m), yaxis=an.labels.get(m, m),
                           series=(Series(an.labels.get(m, m), (m,)),))
            c = timeline(cs, an, sspec.x_label)
            if c is not None:
                charts.append(c)
    return charts


def decision_time_chart(an: Analysis) -> Chart | None:
    data = []
    for i, t in enumerate(an.decision_times):
        if not t["times_ms"]:
            continue
        data.append({"type": "box", "name": plotly_text(t["team"]), "y": [ms / 1000 for ms in t["times_ms"]],
                     "boxpoints": "outliers", "marker": {"color": PALETTE[i % len(PALETTE)]},
                     "line": {"color": PALETTE[i % len(PALETTE)]}})
    if not data:
        return None
    layout = _base_layout(gettext("Decision time per team"), gettext("Seconds per decision"), an.cards)
    layout["xaxis"] = {"title": {"text": gettext("Team")}, "showline": True, "linecolor": "#9e9e9e"}
    layout["showlegend"] = False
    layout["margin"]["b"] = 50
    return Chart(key="decision_time", title=gettext("Decision time per team"),
                 description=gettext("Time from prompt to decision for every choice, per team."),
                 figure={"data": data, "layout": layout}, series=[])


def comparison_chart(title: str, ytitle: str, runs: list[dict], spec: ChartSpec | None = None,
                     xlabel: str = "") -> dict:
    """Overlaid timelines of several sessions: runs = [{"name", "x": [...], "y": [...]}]."""
    layout = _base_layout(title, ytitle, max((max(r["x"]) if r["x"] else 0) for r in runs) if runs else 1,
                          xlabel)
    layout.pop("width", None)  # the page's width (a fixed 760 px figure), never one point per pixel
    layout["autosize"] = True
    data = [{"type": "scatter", "mode": "lines", "name": plotly_text(r["name"]), "x": r["x"], "y": r["y"],
             "line": {"shape": "hv", "color": PALETTE[i % len(PALETTE)], "width": 2}}
            for i, r in enumerate(runs)]
    if spec is not None:
        for band in spec.bands:
            layout["shapes"].append({"type": "rect", "xref": "paper", "yref": "y", "x0": 0, "x1": 1,
                                     "y0": band.y0, "y1": band.y1, "fillcolor": band.color,
                                     "line": {"width": 0}, "layer": "below"})
        for ref in spec.lines:
            if ref.y is not None:
                layout["shapes"].append({"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1,
                                         "y0": ref.y, "y1": ref.y,
                                         "line": {"color": ref.color, "width": 1.5, "dash": "dash"}})
    return {"data": data, "layout": layout}


def outcome_comparison_charts(spec: ScenarioSpec, an: Analysis, comparison: dict, params: dict,
                              sides: set | None = None, max_charts: int = 2) -> list[Chart]:
    """This session's outcome measures against earlier sessions of the same game and scenario and
    a bot-only game from the same seed, card by card (one small chart per measure)."""
    from facilitation.reports.builder.baseline import measure_series
    from facilitation.reports.builder.whatif import bot_words

    if not comparison or not spec.measures:
        return []
    own = measure_series([(s.card, s.metrics) for s in an.steps], spec, params)
    charts: list[Chart] = []
    shown: list = []
    for ms in spec.measures:
        if ms.key not in own or len(charts) >= max_charts:
            continue
        if sides and ms.side not in sides:
            continue
        if any(o.terms and [(m, -w) for m, w in o.terms] == list(ms.terms) for o in shown):
            continue  # the mirror of a zero-sum margin already drawn (Peru)
        shown.append(ms)
        runs = [{"name": gettext("This session"), "x": own[ms.key]["x"], "y": own[ms.key]["y"], "width": 3, "color": "#212121"}]
        for i, r in enumerate(comparison.get("earlier") or []):
            if ms.key in r["series"]:
                runs.append({"name": r["name"], **r["series"][ms.key], "color": PALETTE[(i + 1) % len(PALETTE)]})
        base = comparison.get("baseline")
        if base and ms.key in base["series"]:
            runs.append({"name": gettext("Bots only, same seed ({bots} bots)").format(bots=bot_words(base["bots"])),
                         **base["series"][ms.key],
                         "color": "#9e9e9e", "dash": "dash"})
        xmax = max((max(r["x"]) for r in runs if r["x"]), default=1)
        title = gettext("{measure}: this session and others").format(measure=ms.label)
        layout = _base_layout(title, ms.label, xmax, spec.x_label)
        layout["height"] = 260
        if ms.side and ms.fn is None:  # a margin: above 0 that side wins
            layout["shapes"].append({"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": 0, "y1": 0,
                                     "line": {"color": "#424242", "width": 1}})
        data = []
        for r in runs:
            line = {"shape": "hv", "color": r["color"], "width": r.get("width", 2)}
            if r.get("dash"):
                line["dash"] = r["dash"]
            data.append({"type": "scatter", "mode": "lines", "name": r["name"], "x": r["x"], "y": r["y"],
                         "line": line, "hovertemplate": f"{r['name']}: %{{y}}<br>{spec.x_label.lower()} %{{x}}"
                                                        f"<extra></extra>"})
        charts.append(Chart(key=f"compare-{ms.key}", title=title,
                            description=gettext("Earlier finished sessions of this game and scenario in the course, "
                                                "and a bot-only game from the same seed."), figure={"data": data, "layout": layout},
                            series=[]))
    return charts


def data_table(figure: dict) -> dict | None:
    """A chart's text alternative (issue #19 item 8): its data as a table.

    Line charts: one row per card, one column per named line, each line's value at the end of
    that card (``None`` before its first point). Box plots (decision time): one row per box with its count, median, lowest and
    highest value. Unnamed traces (the key-moment labels) are left out. ``kind`` says which."""
    import html
    import statistics

    traces = figure.get("data") or []
    layout = figure.get("layout") or {}
    x_label = ((layout.get("xaxis") or {}).get("title") or {}).get("text", "")
    y_label = ((layout.get("yaxis") or {}).get("title") or {}).get("text", "")
    boxes = [t for t in traces if t.get("type") == "box" and t.get("y")]
    if boxes:
        rows = [{"x": html.unescape(str(t.get("name", ""))), "values": [
            len(t["y"]), round(statistics.median(t["y"]), 1), round(min(t["y"]), 1), round(max(t["y"]), 1)]}
            for t in boxes]
        return {"kind": "box", "x_label": x_label, "y_label": y_label, "columns": [], "rows": rows}
    lines = [t for t in traces if t.get("type") == "scatter" and t.get("name") and t.get("showlegend", True)
             and "lines" in str(t.get("mode", "lines"))]
    if not lines:
        return None
    import math

    columns = [html.unescape(str(t["name"])) for t in lines]
    # a line has a point per step inside a card (x = card + fraction): one row per whole card,
    # each line's value at the end of that card (carried over where it has no point there)
    ends: list[dict] = []
    for t in lines:
        end: dict = {}
        for x, y in sorted((x, y) for x, y in zip(t.get("x") or [], t.get("y") or [], strict=False)
                           if isinstance(x, int | float) and y is not None):
            end[math.floor(x)] = y
        ends.append(end)
    cards = sorted({k for e in ends for k in e})
    rows, last = [], [None] * len(ends)
    for k in cards:
        last = [e.get(k, prev) for e, prev in zip(ends, last, strict=True)]
        rows.append({"x": k, "values": list(last)})
    return {"kind": "lines", "x_label": x_label, "y_label": y_label, "columns": columns, "rows": rows}
