"""The test process's password hasher (tests/conftest.py, "password hashes cheap to make"):
PBKDF2-SHA256 at 1,000 iterations. It lives in a module of its own, named ``tests.cheap_hasher``
in settings.PASSWORD_HASHERS: a class defined in a conftest.py would be named ``conftest.X``,
and ``conftest`` in sys.modules is whichever conftest.py pytest imported last (tests/i18n's,
tests/e2e's, ...), so Django's import of the hasher failed depending on the files run."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class CheapPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1000
