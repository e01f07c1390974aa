"""8.2 Random Cities and Departments, 8.3 Random LoCs: how a Non-player picks among candidate
spaces of equal priority.

8.2: roll the red, yellow and green dice on the Random City or Department table
(``data/random_spaces.json``: 3 columns of 3 trios of boxes; each die reads 1-2 / 3-4 / 5-6 as
1st / 2nd / 3rd). When the box reached holds no candidate, the search goes on down the column,
from the bottom of one column to the top of the next and from the last box (Chocó) back to the
first (Cali). Panamá and Ecuador share a box with Chocó and Nariño and come first there when they
are spaces (1.3.5); they are candidates only when the caller offers them.

8.3: among candidate LoCs keep those of highest Econ; then those adjacent to a random City (the
table again, walking on to the first City next to a remaining candidate); then an equal-chance
die roll (the candidates share the faces; a face left over is rolled again).

Dice go through the state's RNG with tags (``script`` option, see the package docstring):
``"space"`` - the three table dice, red, yellow, green in that order; ``"loc"`` - the 8.3
equal-chance die. More than 6 candidates for that last roll (never reached with the map's LoCs)
fall back to a uniform ``np`` pick.

:func:`pick` is what the Non-player code calls with its equal-priority candidates (choice ids
such as ``space:huila`` or ``from:huila``). Other candidates (Factions, levels, mixed Cities
and LoCs) keep the uniform ``np`` pick of the 8.2 Play Note (an equal-chance roll). Each table
or LoC pick returns a record of the dice and the walk, which the Non-player module reports as
an ``np`` fact.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.core import rng as R
from engine.core.messages import msg

from .board import BOARD as BD
from .board import DATA
from .frames import targets
from .texts import SN


def _load():
    raw = json.loads((DATA / "random_spaces.json").read_text(encoding="utf-8"))
    boxes: list[tuple[int, ...]] = []
    for column in raw["columns"]:
        for trio in column:
            for box in trio:
                names = [box] if isinstance(box, str) else list(box)
                boxes.append(tuple(BD.index[n] for n in names))
    return boxes


BOXES: list[tuple[int, ...]] = _load()   # 27 boxes in walking order (column, trio, position)
N_BOXES = len(BOXES)


def _third(d: int) -> int:
    """A die read as 1st / 2nd / 3rd (1-2, 3-4, 5-6)."""
    return (d - 1) // 2


def box_of_roll(red: int, yellow: int, green: int) -> int:
    """8.2: the table box (0-26 in walking order) the three dice name."""
    return _third(red) * 9 + _third(yellow) * 3 + _third(green)


def box_label(b: int) -> str:
    return "/".join(BD.name[i] for i in BOXES[b])


def box_name(b: int):
    """A table box's spaces as a message (``Cali/Panamá``)."""
    out = None
    for i in reversed(BOXES[b]):
        out = SN[i] if out is None else msg("{space}/{rest}", space=SN[i], rest=out)
    return out


def walk(start: int, ok) -> tuple[int | None, list[int]]:
    """From box ``start`` down the table (wrapping) to the first space ``ok`` accepts; returns
    (space or None after a full cycle, boxes visited)."""
    seen = []
    for k in range(N_BOXES):
        b = (start + k) % N_BOXES
        seen.append(b)
        for i in BOXES[b]:          # Panamá / Ecuador first in their box
            if ok(i):
                return i, seen
    return None, seen


def roll_table(rec: dict) -> tuple[tuple[int, int, int], int]:
    dice = (R.roll(rec, 6, tag="space"), R.roll(rec, 6, tag="space"), R.roll(rec, 6, tag="space"))
    return dice, box_of_roll(*dice)


def _walk_text(dice, seen, got) -> str:
    txt = msg("red {red}, yellow {yellow}, green {green} -> {box}", red=dice[0], yellow=dice[1], green=dice[2],
              box=box_name(seen[0]))
    if len(seen) > 1:
        txt = msg("{text}, on down the table: {boxes}", text=txt, boxes=[box_name(b) for b in seen[1:]])
    if got is not None:
        txt = msg("{text} -> {space}", text=txt, space=SN[got])
    return txt


def random_city_or_department(rec: dict, cands: set[int]) -> tuple[int, dict]:
    """8.2: one of ``cands`` (Cities / Departments, Panamá / Ecuador allowed) by the table."""
    dice, start = roll_table(rec)
    got, seen = walk(start, cands.__contains__)
    assert got is not None
    return got, {"rule": "8.2", "dice": list(dice), "rolled": box_label(start),
                 "passed": [box_label(b) for b in seen[:-1]], "space": BD.ids[got],
                 "text": msg("Random City or Department table: {walk}", walk=_walk_text(dice, seen, got))}


def equal_chance(rec: dict, n: int) -> tuple[int, list[int]]:
    """8.3 last step (and the example of 8.3): the ``n`` candidates share the die faces evenly
    (1-2, 3-4, 5-6 for 3); a face beyond ``n * (6 // n)`` is rolled again."""
    if n == 1:
        return 0, []
    if n > 6:
        return R.pick_index(rec, n, tag="np"), []
    per = 6 // n
    rolls = []
    while True:
        d = R.roll(rec, 6, tag="loc")
        rolls.append(d)
        if d <= per * n:
            return (d - 1) // per, rolls


def random_loc(rec: dict, cands: list[int]) -> tuple[int, dict]:
    """8.3: highest Econ, then adjacent to a random City, then an equal-chance die roll."""
    top = max(BD.econ[i] for i in cands)
    left = sorted(i for i in cands if BD.econ[i] == top)
    info: dict[str, Any] = {"rule": "8.3", "econ": top}
    steps = [msg("highest Econ {econ}: {spaces}", econ=top, spaces=[SN[i] for i in left])]
    if len(left) > 1:
        dice, start = roll_table(rec)
        cset = set(left)
        city, seen = walk(start, lambda i: BD.is_city[i] and any(j in cset for j in BD.adj_all[i]))
        info["dice"] = list(dice)
        if city is not None:
            left = [i for i in left if i in BD.adj_all[city]]
            info["city"] = BD.ids[city]
            steps.append(msg("random City {walk}: {spaces}", walk=_walk_text(dice, seen, city), spaces=[SN[i] for i in left]))
    if len(left) > 1:
        k, rolls = equal_chance(rec, len(left))
        info["die"] = rolls
        steps.append(msg("equal-chance die {rolls} among {count}", rolls=", ".join(map(str, rolls)), count=len(left)))
        left = [left[k]]
    info["space"] = BD.ids[left[0]]
    info["text"] = msg("Random LoC: {steps} -> {space}", steps=steps, space=SN[left[0]])
    return left[0], info


def _space_of(c: Any) -> int | None:
    """The space a choice id names (``space:huila``, ``from:cali``, ``ship:cali:cartels``)."""
    if isinstance(c, str):
        for part in targets(c):
            if part in BD.index:
                return BD.index[part]
    return None


def pick(st: dict, seq: Sequence[Any]) -> tuple[Any, dict | None]:
    """One of ``seq`` (equal-priority candidates, length 2 or more) by 8.2 / 8.3 when they name
    2+ spaces, all Cities/Departments or all LoCs (several choices in the space reached: a
    uniform ``np`` pick among them); otherwise a uniform ``np`` pick (record None)."""
    spaces = [_space_of(c) for c in seq]
    if None not in spaces and len(set(spaces)) > 1:
        got = info = None
        if all(not BD.is_loc[i] for i in spaces):
            got, info = random_city_or_department(st["rng"], set(spaces))
        elif all(BD.is_loc[i] for i in spaces):
            got, info = random_loc(st["rng"], list(dict.fromkeys(spaces)))
        if info is not None:
            same = [c for c, i in zip(seq, spaces, strict=True) if i == got]   # several choices in that space
            return same[R.pick_index(st["rng"], len(same), tag="np")], info
    return seq[R.pick_index(st["rng"], len(seq), tag="np")], None
