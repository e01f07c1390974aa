"""Moved to :mod:`engine.core.flow` (one flow mechanism for every game); re-exported here so
code written against ``engine.coin.flow`` keeps working until it migrates."""

from engine.core.flow import Ask, Flow, FrameKind, pop, pop_same, push  # noqa: F401

__all__ = ["Ask", "Flow", "FrameKind", "pop", "pop_same", "push"]
