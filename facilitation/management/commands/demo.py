"""``manage.py demo`` (``coinlab demo``): load the demo course, users and sessions (idempotent)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand

from facilitation.demo import demo_load, demo_summary


class Command(BaseCommand):
    help = "Create the demo course, users, a live and a finished session (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument("--scenario", action="append", default=None,
                            help="game key (repeatable); default: every game")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args, scenario, base_url, **options):
        # On a fresh checkout the database has no tables yet: migrate first (a no-op otherwise).
        call_command("migrate", interactive=False, verbosity=0)
        data = demo_load(scenarios=tuple(scenario) if scenario else None)
        self.stdout.write(demo_summary(data, base_url))
