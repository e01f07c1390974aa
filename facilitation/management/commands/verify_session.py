"""``manage.py verify_session ID [ID ...]`` (or ``--all``): replay each log from the seed and check
the hash chain, every event's facts and metrics, the snapshots and the cached state.
Exits 1 when anything does not match (e.g. a tampered row); exits 2 when the log and its hash
chain are intact but it was recorded under other rules and today's engine replays it
differently (the rules version changed: not tampering).

``--receipt TEXT`` (repeatable): also check log receipts (facilitation/receipts.py), signed
heads kept outside the database, which catch a consistent rewrite of a whole chain."""

from django.core.management.base import BaseCommand, CommandError

from facilitation import eventlog, receipts
from facilitation.models import ClassSession


class Command(BaseCommand):
    help = "Replay sessions from their seeds and check hash chain, facts, metrics, snapshots and cache."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int)
        parser.add_argument("--all", action="store_true", help="verify every started session")
        parser.add_argument("--receipt", action="append", default=[], metavar="TEXT",
                            help="a log receipt (coinlab-log:ID:SEQ:HASH:SIGNATURE) to check; repeatable")

    def handle(self, *args, ids, all, receipt, **options):
        if all:
            ids = list(ClassSession.objects.exclude(head_seq=0).values_list("pk", flat=True))
        if not ids:
            raise CommandError("Give one or more session ids, or --all.")
        failed = changed = 0
        for sid in ids:
            session = ClassSession.objects.filter(pk=sid).first()
            if session is None:
                raise CommandError(f"There is no session {sid}.")
            rep = eventlog.verify(session)
            for text in receipt:
                if text.startswith(f"{receipts.PREFIX}:{sid}:"):
                    checked = receipts.check(session, text)
                    self.stdout.write(f"session {sid}: receipt {'OK' if checked.ok else 'FAILED'}: {checked.message}")
                    if not checked.ok:
                        rep.errors.append(f"receipt {text}: {checked.message}")
            for note in rep.notes:
                self.stdout.write(f"session {sid}: note: {note}")
            receipt_failed = any(e.startswith("receipt ") for e in rep.errors)
            if rep.rules_changed and not receipt_failed:
                changed += 1
                self.stdout.write(
                    f"session {sid}: RULES VERSION CHANGED (recorded under {rep.recorded_rules}, this engine is "
                    f"{rep.current_rules}): the hash chain and every row are intact, so the log is the one that "
                    f"was recorded; today's rules replay it differently in {len(rep.rules_differences)} "
                    f"place(s), which is not evidence of tampering")
                for e in rep.rules_differences[:5]:
                    self.stdout.write(f"  ~ {e}")
            elif rep.ok:
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
        if changed:
            raise SystemExit(2)
