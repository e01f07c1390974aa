"""``manage.py makemessages``: Django's, extended for the engine's messages and the games' data.

- ``msg("...")`` and ``msg_n("...", "...", n)`` (``engine.core.messages``) are gettext keywords,
  so every message template written in the engine's code (and the facilitation layer's own
  facts) is extracted like a ``gettext`` call.
- The texts of each game's *data* (``Rules.catalog()``, ``Rules.board()``, titles, the drawing
  layouts' words; see ``facilitation.game_texts``) are written as ``msg(...)`` lines into a
  temporary Python file at the project root for the run, then removed.
- Calls written inside f-strings (the string builders of ``facilitation.web.board`` and
  ``live_markup``: ``f"...{gettext('Board as text')}..."``) are invisible to ``xgettext``, which
  reads an f-string as one literal; they are found with :mod:`ast` and added to the same
  temporary file (a module-level string constant passed by name is resolved too).
- Without ``--ignore``, folders that hold no shipped text are skipped (virtualenv, tests,
  scripts, benchmarks, build output).

Regenerate and compile the catalogs (docs/architecture/i18n.md)::

    ./scripts/messages        # makemessages -l es -l en --no-obsolete, then compilemessages
"""

from __future__ import annotations

import ast
import fnmatch
import os
from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

from facilitation.game_texts import Text, all_texts, as_python

#: Folders (relative to the project root) that hold no text shipped to users.
SKIP = [".venv", ".venv/*", "var/*", "tests/*", "scripts/*", "benchmarks/*", "docs/*", "staticfiles/*",
        "test-artifacts/*", "node_modules/*", ".git/*", "locale/*"]

GENERATED = "zz_game_data_texts.py"

#: Functions whose first literal argument(s) are msgids (singular, and plural for the ``n`` ones).
SINGULAR = {"gettext", "gettext_lazy", "gettext_noop", "_", "_tr", "msg"}
PLURAL = {"ngettext", "ngettext_lazy", "msg_n"}


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def fstring_calls(path: Path, source: str) -> list[Text]:
    """Marked calls nested in f-strings of one Python file (see the module docstring)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    constants = {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}

    def literal(arg: ast.expr) -> str | None:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        if isinstance(arg, ast.Name):
            return constants.get(arg.id)
        return None

    out = []
    for joined in (n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)):
        for call in (n for n in ast.walk(joined) if isinstance(n, ast.Call)):
            name, args = _name(call.func), call.args
            if name in SINGULAR and args and (s := literal(args[0])):
                out.append(Text(s, None, f"{path.as_posix()} (in an f-string)"))
            elif name in PLURAL and len(args) >= 2 and (s := literal(args[0])) and (p := literal(args[1])):
                out.append(Text(s, p, f"{path.as_posix()} (in an f-string)"))
    return out


def source_fstring_texts(root: Path, ignore: list[str]) -> list[Text]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        dirnames[:] = [d for d in dirnames if not d.startswith(".")
                       and not any(fnmatch.fnmatch((rel / d).as_posix() + "/*", pat) or
                                   fnmatch.fnmatch((rel / d).as_posix(), pat) for pat in ignore)]
        for f in filenames:
            if f.endswith(".py") and f != GENERATED:
                path = Path(dirpath) / f
                out += fstring_calls(path.relative_to(root), path.read_text(encoding="utf-8"))
    return out


class Command(makemessages.Command):
    help = ("Extract messages (gettext, msg/msg_n of the engine, the games' data texts) into "
            "locale/<lang>/LC_MESSAGES/django.po.")
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=msg", "--keyword=msg_n:1,2",
                        "--keyword=_tr"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *SKIP]
        root = Path(settings.BASE_DIR)
        generated = root / GENERATED
        texts = all_texts() + source_fstring_texts(root, options["ignore_patterns"])
        generated.write_text(as_python(texts), encoding="utf-8")
        try:
            return super().handle(*args, **options)
        finally:
            generated.unlink(missing_ok=True)
