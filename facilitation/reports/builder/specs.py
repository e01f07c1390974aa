"""Chart specifications per scenario: which metrics an AAR plots, and how.

The specs are data, keyed by scenario key. Metric names are the names each
engine's ``Rules.metrics()`` returns. A series whose metric is absent from a
session's log is dropped; a chart left without series is dropped; a scenario
without specs (or whose specs match nothing) gets one chart per numeric metric.

A series may sum several metrics (``metrics=("a", "b")``), e.g. Andean Abyss
"Opposition + FARC Bases". Reference lines may be constants (``y``) or follow
another metric (``metric``), e.g. Tears of Tyranny's tyranny threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from facilitation.reports.builder.translation import gettext, gettext_noop


@dataclass(frozen=True)
class Series:
    label: str
    metrics: tuple[str, ...]
    color: str | None = None
    dash: str | None = None  # plotly dash style for secondary lines

    @property
    def key(self) -> str:
        return "+".join(self.metrics)


@dataclass(frozen=True)
class Band:
    """A horizontal band (e.g. a victory zone)."""

    y0: float
    y1: float
    label: str
    color: str = "rgba(46,125,50,0.15)"


@dataclass(frozen=True)
class RefLine:
    """A horizontal reference line: constant ``y`` or following ``metric``."""

    label: str
    y: float | None = None
    metric: str | None = None
    color: str = "#b71c1c"
    # constant that depends on the player count (counted from ``players_prefix`` metrics)
    y_by_players: dict[int, float] | None = None
    players_prefix: str = ""


@dataclass(frozen=True)
class ChartSpec:
    key: str
    title: str
    series: tuple[Series, ...]
    yaxis: str = ""
    bands: tuple[Band, ...] = ()
    lines: tuple[RefLine, ...] = ()
    y_range: tuple[float, float] | None = None
    description: str = ""
    # extra series: every metric whose name starts with this prefix (e.g. "presence_")
    series_prefix: str | None = None


@dataclass(frozen=True)
class Measure:
    """A quantity that decides the game, as a function of the metrics: a side's victory
    margin (positive: that side would win), or a distance to a decisive threshold.

    ``terms`` is a weighted sum of metrics plus ``offset``; ``fn`` (metrics, params) replaces
    it where the quantity is not linear. ``unit`` is the change that counts as one step when
    key moments are ranked (one Political Will point, five points of Tears of Tyranny score)."""

    key: str
    label: str
    side: str | None = None
    terms: tuple[tuple[str, float], ...] = ()
    offset: float = 0
    unit: float = 1
    fn: Callable[[dict, dict], float | None] | None = None
    # for ranking, the measure is clipped to [-clip, clip]: a margin far from 0 moving further
    # away (or still far away) changes no outcome
    clip: float | None = None

    def value(self, metrics: dict, params: dict) -> float | None:
        if self.fn is not None:
            return self.fn(metrics, params)
        if any(m not in metrics for m, _ in self.terms):
            return None
        return sum(metrics[m] * w for m, w in self.terms) + self.offset


@dataclass(frozen=True)
class ScenarioSpec:
    """Everything scenario-specific the AAR needs besides the log itself."""

    charts: tuple[ChartSpec, ...] = ()
    # fact types (or payload kinds) marking a Propaganda Round / adversary phase
    phase_fact_types: tuple[str, ...] = ("propaganda", "propaganda_round", "adversary_phase")
    # or facts matching one of these dicts (every key equal, or ``key__startswith``),
    # e.g. {"type": "phase", "phase": "6.1"}
    phase_facts: tuple[dict, ...] = ()
    phase_label: str = gettext_noop("Propaganda Round")
    # seat -> metric with that seat's resources (for "resources spent")
    resources: dict[str, str] = field(default_factory=dict)
    # metric that counts cards played, if the engine publishes one
    card_metrics: tuple[str, ...] = ("card", "cards_played", "card_number", "cards")
    x_label: str = gettext_noop("Card")
    # fact track name -> metric name (``{seat}`` is the fact's seat), where they differ
    track_metrics: dict[str, str] = field(default_factory=dict)
    # the quantities that decide the game (victory margins, distances to thresholds)
    measures: tuple[Measure, ...] = ()
    # metric -> words: any change of it decides games (a capture, an election, a switch)
    decisive_metrics: dict[str, str] = field(default_factory=dict)
    # fact type -> words: a fact of that type decides games (an election)
    decisive_facts: dict[str, str] = field(default_factory=dict)
    # a "control" fact in a space of at least this population is a decisive control flip
    big_city_population: int | None = None
    # fact types that open an automatic step (besides cards and phases), e.g. the adversary's
    # dominate/develop/deploy in Tears of Tyranny, and tracks only rules ever move (an election)
    auto_fact_types: tuple[str, ...] = ()
    auto_tracks: tuple[str, ...] = ()
    # the words for the other metrics the log's deltas and the final position name
    metric_labels: dict[str, str] = field(default_factory=dict)
    # metrics per seat: prefix -> words with {seat} (e.g. "hq_" -> "HQ: {seat}")
    seat_metric_labels: dict[str, str] = field(default_factory=dict)


def chart(key: str, title: str, *series: tuple, yaxis: str = "", **options) -> ChartSpec:
    """One chart. Each series is ``(label, metric or metrics[, color[, dash]])``: a tuple of
    metrics is plotted as their sum. The y axis is titled like the chart unless ``yaxis``
    says otherwise; ``options`` are the other :class:`ChartSpec` fields (bands, lines, ...)."""
    return ChartSpec(key=key, title=title, yaxis=yaxis or title,
                     series=tuple(_series(*s) for s in series), **options)


def _series(label: str, metrics: str | tuple[str, ...], color: str | None = None, dash: str | None = None) -> Series:
    return Series(label, (metrics,) if isinstance(metrics, str) else tuple(metrics), color, dash)


BLUE, RED, GREEN, PURPLE, TEAL = "#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#00838f"

PERU = ScenarioSpec(
    charts=(
        chart("political_will", gettext_noop("Political Will"), (gettext_noop("Political Will"), "political_will", BLUE),
              bands=(Band(0, 2, gettext_noop("Shining Path victory band (0-2)"), "rgba(198,40,40,0.15)"),
                     Band(18, 20, gettext_noop("Government victory band (18-20)"), "rgba(21,101,192,0.15)")),
              lines=(RefLine(gettext_noop("Final victory line (10): Government above, Shining Path below (7.0.2)"), y=10,
                             color="#424242"),),
              y_range=(0, 20),
              description=gettext_noop("Political Will after every decision; the shaded bands are the instant "
                                       "victory zones (7.0.1), the line at 10 decides the final victory (7.0.2).")),
        chart("resources", gettext_noop("Resources"),
              (gettext_noop("Government Resources"), "government_resources", BLUE),
              (gettext_noop("Shining Path Resources"), "shining_path_resources", RED)),
        chart("hunt", gettext_noop("Hunt Track"), (gettext_noop("Hunt Track"), "hunt_track", PURPLE)),
        chart("control", gettext_noop("Population under Control"),
              (gettext_noop("Population under Government Control"), "government_control_population", BLUE),
              (gettext_noop("Population under Shining Path Control"), "shining_path_control_population", RED),
              yaxis=gettext_noop("Population")),
    ),
    phase_fact_types=("propaganda", "propaganda_round"),
    # Peru engine: a Propaganda Round starts with its Conflict Phase (rule 6.1)
    phase_facts=({"type": "phase", "phase": "6.1"},),
    phase_label=gettext_noop("Propaganda Round"),
    resources={"government": "government_resources", "shining_path": "shining_path_resources"},
    # 7.0: the Government wins above 10 Political Will, Shining Path below (margins: Rules.result)
    measures=(Measure("government", gettext_noop("Government margin (Political Will − 10)"), "government",
                      (("political_will", 1),), -10),
              Measure("shining_path", gettext_noop("Shining Path margin (10 − Political Will)"), "shining_path",
                      (("political_will", -1),), 10)),
    decisive_metrics={"guzman_captured": gettext_noop("Guzman captured")},
    decisive_facts={"president": gettext_noop("a new President (election)")},
    big_city_population=4,
    metric_labels={"bases_on_map": gettext_noop("Bases on the map"),
                   "cards_played": gettext_noop("Cards played"),
                   "cubes_on_map": gettext_noop("Cubes on the map"),
                   "emergency_zones": gettext_noop("Emergency Zones"),
                   "guerrillas_on_map": gettext_noop("Guerrillas on the map"),
                   "guzman_captured": gettext_noop("Guzman captured"),
                   "highland_opposition_population": gettext_noop("Highland population in Opposition"),
                   "highland_support_population": gettext_noop("Highland population in Support"),
                   "police_on_map": gettext_noop("Police on the map"),
                   "rondas_on_map": gettext_noop("Rondas on the map"),
                   "sabotage_markers": gettext_noop("Sabotage markers"),
                   "terror_markers": gettext_noop("Terror markers"),
                   "troops_on_map": gettext_noop("Troops on the map")},
)

ANDEAN_ABYSS = ScenarioSpec(
    charts=(
        chart("total_support", gettext_noop("Total Support (Government victory above 60)"),
              (gettext_noop("Total Support"), "total_support", BLUE), yaxis=gettext_noop("Total Support"),
              lines=(RefLine(gettext_noop("Government victory threshold (60)"), y=60, color=BLUE),)),
        chart("opposition_bases", gettext_noop("Total Opposition + FARC Bases (FARC victory above 25)"),
              (gettext_noop("Opposition + FARC Bases"), "opposition_plus_bases", RED), yaxis=gettext_noop("Opposition + Bases"),
              lines=(RefLine(gettext_noop("FARC victory threshold (25)"), y=25, color=RED),)),
        chart("auc_vs_farc", gettext_noop("AUC Bases versus FARC Bases"),
              (gettext_noop("AUC Bases"), "auc_bases", "#f9a825"), (gettext_noop("FARC Bases"), "farc_bases", RED), yaxis=gettext_noop("Bases")),
        chart("cartels", gettext_noop("Cartels Bases and Resources"),
              (gettext_noop("Cartels Bases"), "cartels_bases", GREEN), (gettext_noop("Cartels Resources"), "cartels_resources", "#66bb6a", "dot"),
              yaxis=gettext_noop("Count"),
              # 7.2: Cartels win with more than 10 Bases and more than 40 Resources
              lines=(RefLine(gettext_noop("Cartels victory: Bases above 10"), y=10, color=GREEN),
                     RefLine(gettext_noop("Cartels victory: Resources above 40"), y=40, color="#66bb6a"))),
        chart("aid", gettext_noop("Aid"), (gettext_noop("Aid"), "aid", TEAL)),
    ),
    # Andean Abyss engine: every card is a "card" fact; a Propaganda Round opens with its
    # Victory Phase (6.1) (or the Quick-Play skip of the first one); "Two Propaganda cards
    # in a row" is also a "propaganda" fact but no round.
    phase_fact_types=(),
    phase_facts=({"type": "propaganda", "text__startswith": "Victory Phase"},
                 {"type": "propaganda", "text__startswith": "Quick-Play"}),
    phase_label=gettext_noop("Propaganda Round"),
    resources={
        "govt": "govt_resources",
        "farc": "farc_resources",
        "auc": "auc_resources",
        "cartels": "cartels_resources",
    },
    track_metrics={"resources_0": "govt_resources", "resources_1": "farc_resources",
                   "resources_2": "auc_resources", "resources_3": "cartels_resources"},
    # 7.3 victory margins, as the engine publishes them
    measures=tuple(Measure(f, label, f, ((f"{f}_margin", 1),), clip=12)
                   for f, label in (("govt", gettext_noop("Government margin")), ("farc", gettext_noop("FARC margin")),
                                    ("auc", gettext_noop("AUC margin")), ("cartels", gettext_noop("Cartels margin")))),
    decisive_metrics={"el_presidente": gettext_noop("a new President (election, 6.4.3)")},
    big_city_population=3,
    auto_tracks=("el_presidente",),
    metric_labels={"auc_guerrillas": gettext_noop("AUC Guerrillas"),
                   "cartels_guerrillas": gettext_noop("Cartels Guerrillas"),
                   "el_presidente": gettext_noop("El Presidente"),
                   "farc_guerrillas": gettext_noop("FARC Guerrillas"),
                   "farc_zones": gettext_noop("FARC Zones"),
                   "govt_bases": gettext_noop("Government Bases"),
                   "govt_police": gettext_noop("Police"),
                   "govt_troops": gettext_noop("Troops"),
                   "pop_farc_control": gettext_noop("Population under FARC Control"),
                   "pop_govt_control": gettext_noop("Population under Government Control"),
                   "shipments": gettext_noop("Shipments")},
)

TEARS_OF_TYRANNY = ScenarioSpec(
    charts=(
        chart("influence", gettext_noop("Influence"),
              (gettext_noop("Influence earned (tokens)"), "influence_earned", BLUE),
              (gettext_noop("Influence level"), "influence_level", GREEN),
              (gettext_noop("Influence cards played"), "influence_cards_played", PURPLE, "dot")),
        chart("tyranny", gettext_noop("Tyranny tokens on the board"),
              (gettext_noop("Tyranny tokens on the board"), "tyranny_on_map", "#b71c1c"),
              (gettext_noop("Total tyranny tokens"), ("tyranny_on_map", "tyranny_pool", "tyranny_removed"), "#424242", "dash"),
              yaxis=gettext_noop("Tyranny tokens"),
              # 3.D: tyranny when the tokens on the map reach the threshold for the player count
              lines=(RefLine(gettext_noop("Freedom/tyranny threshold"), metric="tyranny_threshold", color="#ef6c00",
                             y_by_players={1: 2, 2: 5, 3: 7, 4: 10}, players_prefix="presence_"),)),
        chart("adversary", gettext_noop("Adversary forces on the map"),
              (gettext_noop("Cells"), "adversary_cells", "#424242"), (gettext_noop("Outposts"), "adversary_outposts", "#795548"),
              (gettext_noop("Garrisons"), "adversary_garrisons", "#b71c1c"),
              yaxis=gettext_noop("Adversary pieces")),
        chart("presence", gettext_noop("Presence per player"), yaxis=gettext_noop("Presence"), series_prefix="presence_"),
    ),
    # Tears of Tyranny engine: one "phase" fact opens each adversary phase; turns, not cards
    phase_fact_types=("adversary_phase",),
    phase_facts=({"type": "phase"},),
    phase_label=gettext_noop("Adversary phase"),
    card_metrics=("turn",),
    x_label=gettext_noop("Turn"),
    resources={s: f"resources_{s}" for s in ("liberators", "advisors", "partisans", "comrades")},
    track_metrics={"resources": "resources_{seat}", "influence": "influence_earned"},
    measures=(
        # the score of Rules.result (influence cards x 10 + tokens - 5 per tyranny token on the map)
        Measure("score", gettext_noop("Players' score"), "players",
                (("influence_cards_earned", 10), ("influence_earned", 1), ("tyranny_on_map", -5)), unit=5),
        # 3.D: tyranny when the tokens on the map reach the threshold
        Measure("to_tyranny", gettext_noop("Distance to tyranny (tokens)"), "players",
                (("tyranny_threshold", 1), ("tyranny_on_map", -1)), unit=1),
        Measure("to_next_level", gettext_noop("Influence cards to the next influence level"), "players",
                fn=lambda m, p: _cards_to_next_level(m, p), unit=0.5),
    ),
    # the adversary phase's steps (3.E-3.G): never a player's decision
    auto_fact_types=("dominate", "develop", "deploy", "terrain", "counterattack"),
    decisive_metrics={"tyranny_state": gettext_noop("the switch between freedom and tyranny (3.D)"),
                      "influence_level": gettext_noop("a new influence level (the victory condition changes)")},
    metric_labels={"bases": gettext_noop("Bases"),
                   "civilians_blue": gettext_noop("Civilians (blue)"),
                   "civilians_red": gettext_noop("Civilians (red)"),
                   "civilians_killed": gettext_noop("Civilians killed"),
                   "guerrillas": gettext_noop("Guerrillas"),
                   "influence_cards_earned": gettext_noop("Influence cards earned"),
                   "turn": gettext_noop("Turn"),
                   "tyranny_pool": gettext_noop("Tyranny tokens in the pool"),
                   "tyranny_removed": gettext_noop("Tyranny tokens removed"),
                   "tyranny_state": gettext_noop("Tyranny (0: freedom, 1: tyranny)"),
                   "tyranny_threshold": gettext_noop("Tyranny threshold"),
                   "tyranny_total": gettext_noop("Tyranny tokens in all")},
    seat_metric_labels={"guerrillas_": gettext_noop("Guerrillas: {seat}"), "hq_": gettext_noop("HQ: {seat}")},
)

def _cards_to_next_level(metrics: dict, params: dict) -> float | None:
    """Influence cards still to earn before the next influence level (Tears of Tyranny 1.H):
    level = 1 + the markers passed; ``params["influence_markers"]`` comes from the game's setup."""
    markers = params.get("influence_markers")
    if not markers or "influence_level" not in metrics or "influence_cards_earned" not in metrics:
        return None
    level = int(metrics["influence_level"])
    if level > len(markers):
        return 0
    return max(markers[level - 1] + 1 - metrics["influence_cards_earned"], 0)


SCENARIO_SPECS: dict[str, ScenarioSpec] = {
    "peru": PERU,
    "andean_abyss": ANDEAN_ABYSS,
    "tears_of_tyranny": TEARS_OF_TYRANNY,
}

FALLBACK = ScenarioSpec()

PALETTE = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457")


def spec_for(scenario_key: str) -> ScenarioSpec:
    """The scenario's spec, its words in the active language (``translation.translated``)."""
    return _translated(SCENARIO_SPECS.get(scenario_key, FALLBACK))


def _translated(spec: ScenarioSpec) -> ScenarioSpec:
    def chart_spec(c: ChartSpec) -> ChartSpec:
        return replace(c, title=gettext(c.title), yaxis=gettext(c.yaxis) if c.yaxis else "",
                       description=gettext(c.description) if c.description else "",
                       series=tuple(replace(s, label=gettext(s.label)) for s in c.series),
                       bands=tuple(replace(b, label=gettext(b.label)) for b in c.bands),
                       lines=tuple(replace(r, label=gettext(r.label)) for r in c.lines))

    return replace(spec, charts=tuple(chart_spec(c) for c in spec.charts), phase_label=gettext(spec.phase_label),
                   x_label=gettext(spec.x_label), measures=tuple(replace(m, label=gettext(m.label))
                                                                 for m in spec.measures),
                   decisive_metrics={k: gettext(v) for k, v in spec.decisive_metrics.items()},
                   decisive_facts={k: gettext(v) for k, v in spec.decisive_facts.items()},
                   metric_labels={k: gettext(v) for k, v in spec.metric_labels.items()},
                   seat_metric_labels={k: gettext(v) for k, v in spec.seat_metric_labels.items()})
