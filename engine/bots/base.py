"""Bot interface and the random-legal bot."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from engine.core.contract import Prompt, Rules
from engine.core.messages import msg, render
from engine.core.rng import Rng


@dataclass(frozen=True, slots=True)
class BotDecision:
    """A bot's choice and its reason: ``reason`` in English; ``message``, when the bot gives
    one, the same reason as a message (engine.core.messages) that the platform logs so that it
    is shown in the viewer's language."""

    choice_id: str
    reason: str = ""
    message: Any = None

    @classmethod
    def because(cls, choice_id: str, reason: Any) -> BotDecision:
        """The decision with ``reason`` given as a message: logged in English and as the message."""
        return cls(choice_id, render(reason), reason)


class Bot(ABC):
    """A seat played by the computer. Bots own their randomness (never the game's)."""

    kind = "bot"

    def __init__(self, rules: Rules, seat: str, seed: int = 0):
        self.rules = rules
        self.seat = seat
        self.rng = Rng(seed * 7919 + sum(map(ord, seat)))

    @abstractmethod
    def choose(self, state: Any, prompt: Prompt) -> BotDecision:
        """The bot's decision for its seat at ``prompt``."""


class RandomBot(Bot):
    """Picks uniformly among the legal choices (the fuzzer's player)."""

    kind = "random"

    def choose(self, state: Any, prompt: Prompt) -> BotDecision:
        choices = prompt.choices_for(self.seat)
        c = choices[self.rng.randbelow(len(choices))]
        return BotDecision.because(c.id, msg("random legal choice"))


def make_bot(rules: Rules, kind: str, seat: str, seed: int = 0) -> Bot:
    if kind == "random":
        return RandomBot(rules, seat, seed)
    factories = rules.bot_kinds()
    if kind not in factories:
        known = ", ".join(["random", *factories])
        raise ValueError(f"Scenario {rules.key!r} has no bot kind {kind!r} (known: {known}).")
    return factories[kind](rules, seat, seed)
