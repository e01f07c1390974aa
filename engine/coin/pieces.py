"""1.4.1 Availability, placement, removal; 1.4.3 Underground/Active.

Piece counts live in plain dicts: a space's pieces ``{"T": 2, "Gu": 1, ...}`` and a pool of
Available pieces ``{"T": 6, "G": 14, ...}``. A scenario maps each on-map piece key to its
pool key (both Underground and Active Guerrillas return to the same pool).
"""

from __future__ import annotations

from collections.abc import Mapping


def place(space: dict, pool: dict, key: str, pool_key: str, n: int = 1) -> int:
    """Place up to ``n`` pieces from the pool; returns how many were placed."""
    k = min(n, pool.get(pool_key, 0))
    if k > 0:
        pool[pool_key] -= k
        space[key] = space.get(key, 0) + k
    return k


def remove(space: dict, pool: dict, key: str, pool_key: str, n: int = 1) -> int:
    """Remove up to ``n`` pieces to the pool; returns how many were removed."""
    k = min(n, space.get(key, 0))
    if k > 0:
        space[key] -= k
        pool[pool_key] = pool.get(pool_key, 0) + k
    return k


def move(src: dict, dst: dict, key: str, n: int = 1, new_key: str | None = None) -> int:
    """Move up to ``n`` pieces between spaces (optionally changing state, e.g. flip)."""
    k = min(n, src.get(key, 0))
    if k > 0:
        src[key] -= k
        nk = new_key or key
        dst[nk] = dst.get(nk, 0) + k
    return k


def flip(space: dict, from_key: str, to_key: str, n: int | None = None) -> int:
    """Flip up to ``n`` pieces (all when None) from one state to the other (1.4.3)."""
    have = space.get(from_key, 0)
    k = have if n is None else min(n, have)
    if k > 0:
        space[from_key] = have - k
        space[to_key] = space.get(to_key, 0) + k
    return k


def sources_on_map(spaces: Mapping[str, dict], keys: tuple[str, ...], exclude: str | None = None) -> list[str]:
    """Spaces holding any of ``keys`` (the places a piece may be taken from when none is
    Available, 1.4.1)."""
    return [sid for sid, sp in spaces.items() if sid != exclude and any(sp.get(k, 0) for k in keys)]
