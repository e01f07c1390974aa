"""Teaching vignettes (issue #18): a situation to teach one idea.

A vignette is a data file (JSON) in ``library/<game>/<id>.json``, or one an instructor saved
from a session (``SavedVignette``), in one documented shape (:data:`SCHEMA`, also in
docs/vignettes.md):

- ``id``, ``game``, ``title``, ``objective`` (the learning objective), ``source`` (where the
  situation comes from, e.g. a rulebook's worked example);
- ``position``: the starting position through the game's positions API
  (``rules.setup(seed, {"position": ...})``), with ``options``. What the position leaves to
  chance (the deck below the cards it names, dice) comes from a secret seed drawn once per
  scheduling, shared by all the teams of that run so they face the same cards; a vignette
  that must replay a published example exactly gives a public ``seed`` instead;
- ``briefings``: seat -> what that side is told, in our own words;
- ``run``: how long it lasts: ``{"cards": N}`` (N cards played from the start),
  ``{"turns": N}`` (games that count turns) or ``{"decisions": N}`` (the team's own decisions);
- ``questions``: discussion questions for after the run.

Texts are written in English and translated through the gettext catalogs like every other
text (``makemessages`` extracts them with :func:`texts`). Loading validates the document
against the schema and then sets the position up, so a bad file is refused with a message
naming the field (:class:`VignetteError`), never half-loaded.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

LIBRARY = Path(__file__).resolve().parent / "library"

RUN_KINDS = ("cards", "turns", "decisions")

SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "CoinLab vignette",
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "game", "title", "objective", "position", "briefings", "run", "questions"],
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{1,62}$"},
        "game": {"type": "string", "minLength": 1},
        "title": {"type": "string", "minLength": 3, "maxLength": 200},
        "objective": {"type": "string", "minLength": 3, "maxLength": 2000},
        "source": {"type": "string", "maxLength": 500},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "options": {"type": "object"},
        "position": {"type": "object"},
        "briefings": {"type": "object", "minProperties": 1,
                      "additionalProperties": {"type": "string", "minLength": 3, "maxLength": 4000}},
        "run": {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
                "properties": {k: {"type": "integer", "minimum": 1, "maximum": 500} for k in RUN_KINDS}},
        "questions": {"type": "array", "minItems": 1, "maxItems": 12,
                      "items": {"type": "string", "minLength": 3, "maxLength": 1000}},
    },
}


class VignetteError(ValueError):
    """A vignette document was refused; ``field`` names the bad field (a dotted path)."""

    def __init__(self, field_path: str, problem: str):
        super().__init__(f"{field_path}: {problem}")
        self.field = field_path
        self.problem = problem


@dataclass(frozen=True)
class Vignette:
    id: str
    game: str
    title: str
    objective: str
    position: dict
    briefings: dict
    run: dict
    questions: tuple
    source: str = ""
    seed: int | None = None
    options: dict = field(default_factory=dict)

    def setup_options(self) -> dict:
        """The options a session of this vignette is set up with."""
        return {**self.options, "position": self.position}

    def document(self) -> dict:
        d = {"id": self.id, "game": self.game, "title": self.title, "objective": self.objective,
             "position": self.position, "briefings": self.briefings, "run": self.run,
             "questions": list(self.questions), "options": self.options}
        if self.source:
            d["source"] = self.source
        if self.seed is not None:
            d["seed"] = self.seed
        return d


def _path(error: jsonschema.ValidationError) -> str:
    out = "vignette"
    for p in error.absolute_path:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def parse(document: Any, *, check_position: bool = True) -> Vignette:
    """A :class:`Vignette` from a JSON document, or :class:`VignetteError` naming the field."""
    import engine
    from engine.core.contract import PositionError

    if not isinstance(document, dict):
        raise VignetteError("vignette", "a vignette is a JSON object")
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(document), key=lambda e: list(e.path))
    if errors:
        raise VignetteError(_path(errors[0]), errors[0].message)
    try:
        rules = engine.load(document["game"])
    except Exception:  # noqa: BLE001 - engine.UnknownScenario or a bad key
        raise VignetteError("vignette.game", f"unknown game {document['game']!r}") from None
    seats = set(rules.seat_ids())
    for seat in document["briefings"]:
        if seat not in seats:
            raise VignetteError(f"vignette.briefings.{seat}", f"not a seat of {rules.key} ({', '.join(sorted(seats))})")
    v = Vignette(id=document["id"], game=rules.key, title=document["title"], objective=document["objective"],
                 position=document["position"], briefings=document["briefings"], run=document["run"],
                 questions=tuple(document["questions"]), source=document.get("source", ""),
                 seed=document.get("seed"), options=document.get("options", {}))
    if check_position:
        try:
            state = rules.setup(1 if v.seed is None else v.seed, v.setup_options())
        except PositionError as exc:
            raise VignetteError(f"vignette.{exc.field}", exc.problem) from None
        except (ValueError, TypeError, KeyError) as exc:
            raise VignetteError("vignette.options", str(exc)) from None
        if rules.prompt(state) is None:
            raise VignetteError("vignette.position", "the game is already over in this position")
        if "turns" in v.run and "turn" not in rules.metrics(state):
            raise VignetteError("vignette.run.turns", f"{rules.key} does not count turns: use cards or decisions")
    return v


def load_file(path: Path) -> Vignette:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as exc:
        raise VignetteError("vignette", f"{Path(path).name} is not JSON ({exc})") from None
    v = parse(document)
    if Path(path).stem != v.id or Path(path).parent.name != v.game:
        raise VignetteError("vignette.id", f"{path} must be library/{v.game}/{v.id}.json")
    return v


@functools.cache
def library() -> dict[str, Vignette]:
    """Every vignette shipped with CoinLab, by id (validated once per process)."""
    out: dict[str, Vignette] = {}
    for path in sorted(LIBRARY.glob("*/*.json")):
        v = load_file(path)
        if v.id in out:
            raise VignetteError("vignette.id", f"two vignettes are called {v.id}")
        out[v.id] = v
    return out


def for_game(game: str) -> list[Vignette]:
    return [v for v in library().values() if v.game == game]


def texts() -> list[str]:
    """Every text of the shipped vignettes (for the translation catalogs)."""
    out: list[str] = []
    for v in library().values():
        out += [v.title, v.objective, *v.briefings.values(), *v.questions]
        if v.source:
            out.append(v.source)
    return out
