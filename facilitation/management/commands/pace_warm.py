"""``manage.py pace_warm [GAME ...]``: play and keep the bot games behind every session-length
estimate of the scheduling page (each game's defaults and its length presets), so that no
instructor waits for them (facilitation.pacing.warm_estimates; docs/pacing.md)."""

from django.core.management.base import BaseCommand, CommandError

from engine.core import registry
from facilitation.pacing import warm_estimates


class Command(BaseCommand):
    help = "Play and keep the bot games behind the scheduling page's length estimates."

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", help="game keys (default: every game)")

    def handle(self, *args, **opts):
        from facilitation.web.views.instructor import PACE_GAMES

        unknown = sorted(set(opts["games"]) - set(registry.keys()))
        if unknown:
            raise CommandError(f"unknown game(s): {', '.join(unknown)} (games: {', '.join(registry.keys())})")
        n = warm_estimates(PACE_GAMES, opts["games"] or None)
        self.stdout.write(f"{n} estimates ready ({PACE_GAMES} bot games each)")
