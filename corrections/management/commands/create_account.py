"""``manage.py create_account NAME --role contributor|editor|staff [--email E]``: an account
for someone who corrects the texts (corrections/roles.py). The password is read from the
environment variable ``CORRECTIONS_PASSWORD`` or asked twice on the terminal (never a
command-line argument: it would stay in the shell's history and the process list)."""
from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from corrections.roles import CONTRIBUTOR, EDITOR, ROLES
from corrections.usernames import check_name, check_unlike


class Command(BaseCommand):
    """``manage.py create_account NAME --role contributor|editor|staff [--email A]``: an account with that role,
    its password from ``CORRECTIONS_PASSWORD`` or asked twice on the terminal."""

    help = "Create an account with a role (contributor, editor or staff) for corrections."

    def add_arguments(self, parser):
        """``username``, ``--role`` (``corrections.roles.ROLES``), ``--email``."""
        parser.add_argument("username")
        parser.add_argument("--role", choices=ROLES, required=True)
        parser.add_argument("--email", default="")

    def handle(self, username, role, email, **options):
        """Create the account in one transaction. Raises ``CommandError`` for a name the sign-up form would
        refuse (``usernames.check_name``, ``usernames.check_unlike``, Django's validators), an e-mail address refused, a name taken or
        a password refused or not given; no account is created then."""
        User = get_user_model()
        # the rules the sign-up form and the admin apply (UnicodeUsernameValidator, at most 150
        # characters), before a password is asked: an empty name, spaces or markup were stored
        try:
            User._meta.get_field(User.USERNAME_FIELD).run_validators(username)
            check_name(username)
            check_unlike(username, list(User.objects.values_list("username", flat=True)))
            if not username:
                raise ValidationError("an account needs a name")
        except ValidationError as exc:
            raise CommandError(f"the name {username!r} is refused: " + " ".join(exc.messages)
                               + "; no account was created") from None
        if email:
            try:
                User._meta.get_field("email").run_validators(email)
            except ValidationError as exc:
                raise CommandError(f"the e-mail address {email!r} is refused: " + " ".join(exc.messages)
                                   + "; no account was created") from None
        if User.objects.filter(username=username).exists():
            raise CommandError(f"an account named {username!r} exists already; nothing was changed")
        password = os.environ.get("CORRECTIONS_PASSWORD")
        if password is None:
            try:
                password = getpass.getpass("Password: ")
                again = getpass.getpass("Password (again): ")
            except EOFError:  # no terminal and nothing on standard input
                raise CommandError("no password given: run the command in a terminal, or set CORRECTIONS_PASSWORD; "
                                   "no account was created") from None
            if password != again:
                raise CommandError("the passwords differ; no account was created")
        user = User(username=username, email=email)
        try:
            validate_password(password, user)
        except ValidationError as exc:
            raise CommandError("the password is refused: " + " ".join(exc.messages)) from exc
        with transaction.atomic():
            user.set_password(password)
            user.is_staff = user.is_superuser = role == "staff"
            user.save()
            # staff is the admin; it reviews as an editor, and is in the editor group too.
            names = {CONTRIBUTOR: [CONTRIBUTOR], EDITOR: [EDITOR], "staff": [EDITOR]}[role]
            # The migration made the groups; made again here if someone removed them.
            user.groups.add(*(Group.objects.get_or_create(name=name)[0] for name in names))
        self.stdout.write(f"created {username} ({role})")
