"""``manage.py serve_embedded`` (``coinlab serve``): migrate, load the demo, print the URL and the
logins, then run the site (embedded default: SQLite under var/, Celery eager).

The demo's logins are known keys only where nobody else can use them (issue 14 item 4): on a
loopback address the demo users get the README's password; on any other address each start
gives them a new random password, printed here (the superuser ``admin`` always gets a random
one). ``--no-demo`` serves without the demo accounts."""

import ipaddress

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from facilitation.demo import PASSWORD, demo_load, demo_summary


def is_loopback(host: str) -> bool:
    """Whether ``host`` (from ``--addr``) is reachable from this machine only."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any address


class Command(BaseCommand):
    help = "Migrate, load the demo course and serve the site."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000", help="host:port to listen on")
        parser.add_argument("--scenario", action="append", default=None,
                            help="game key (repeatable); default: every game")
        parser.add_argument("--no-demo", action="store_true")
        parser.add_argument("--reload", action="store_true", help="restart on code changes (development)")

    def handle(self, *args, addr, scenario, no_demo, reload, **options):
        call_command("migrate", interactive=False, verbosity=0)
        host, _, port = addr.rpartition(":")
        host = host or "127.0.0.1"
        url = f"http://{host}:{port}"
        if not no_demo:
            local = is_loopback(host)
            data = demo_load(scenarios=tuple(scenario) if scenario else None, password=PASSWORD if local else None)
            self.stdout.write(demo_summary(data, url))
            if not local:
                self.stdout.write(f"{host} is reachable from other machines: the demo logins have a new random "
                                  "password (printed above), not the README's.")
        mode = "embedded (SQLite, Celery eager)" if not settings.PRODUCTION else "production settings"
        self.stdout.write(f"CoinLab at {url}/  [{mode}; data in {settings.VAR_DIR}]  Ctrl-C to stop.")
        self.stdout.flush()
        call_command("runserver", addr, use_reloader=reload, skip_checks=True)
