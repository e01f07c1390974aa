"""``manage.py add_user NAME --role instructor``: create an account (instructors, reviewers, students).

Instructors can then create courses; students usually sign up themselves with a join code.
"""

import getpass

from django.core.management.base import BaseCommand, CommandError

from facilitation import services
from facilitation.errors import ServiceError
from facilitation.models import ROLE_GROUPS


class Command(BaseCommand):
    help = "Create a user in a role group (instructor, student, reviewer)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--role", choices=ROLE_GROUPS, default="instructor")
        parser.add_argument("--password", help="(asked for when left out)")
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument("--email", default="")

    def handle(self, *args, username, role, password, first_name, last_name, email, **options):
        if password is None:
            password = getpass.getpass(f"Password for {username}: ")
        try:
            user = services.user_create(username=username, password=password, role=role, first_name=first_name,
                                        last_name=last_name, email=email)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"Created {role} {user.get_username()}.")
