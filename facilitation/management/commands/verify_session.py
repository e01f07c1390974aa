"""``manage.py verify_session ID [ID ...]`` (or ``--all``): replay each log from the seed and check
the hash chain, every event's facts and metrics, the snapshots and the cached state.
Exits 1 when anything does not match (e.g. a tampered row)."""

from django.core.management.base import BaseCommand, CommandError

from facilitation import eventlog
from facilitation.models import ClassSession


class Command(BaseCommand):
    help = "Replay sessions from their seeds and check hash chain, facts, metrics, snapshots and cache."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int)
        parser.add_argument("--all", action="store_true", help="verify every started session")

    def handle(self, *args, ids, all, **options):
        if all:
            ids = list(ClassSession.objects.exclude(head_seq=0).values_list("pk", flat=True))
        if not ids:
            raise CommandError("Give one or more session ids, or --all.")
        failed = 0
        for sid in ids:
            session = ClassSession.objects.filter(pk=sid).first()
            if session is None:
                raise CommandError(f"There is no session {sid}.")
            rep = eventlog.verify(session)
            for note in rep.notes:
                self.stdout.write(f"session {sid}: note: {note}")
            if rep.ok:
                seed = "its secret seed" if session.secret_seed else f"seed {session.seed}"
                self.stdout.write(f"session {sid}: OK ({rep.events} events replayed from {seed}, "
                                  f"hash chain intact, cached state matches)")
            else:
                failed += 1
                self.stdout.write(f"session {sid}: FAILED ({rep.replayed}/{rep.events} events replayed)")
                for e in rep.errors:
                    self.stdout.write(f"  - {e}")
        if failed:
            raise SystemExit(1)
