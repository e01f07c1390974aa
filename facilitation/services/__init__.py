"""Use cases (HackSoft style): keyword-only, typed, atomic; they check who may act.

Every write to a running game takes ``select_for_update`` on the session row
(:mod:`.locking`), so any number of web processes serialise on it (PostgreSQL row lock; on
the embedded SQLite the IMMEDIATE transaction mode does the same for the whole database).
Errors are :mod:`facilitation.errors` exceptions, answered by the API as
``{"error": code, "detail": message}`` with nothing stored.

One module per topic; callers use ``from facilitation import services`` and
``services.<name>``, re-exported here:

* :mod:`.text`: free text as stored (``clean_text``);
* :mod:`.accounts`: roles, course instructors, new users;
* :mod:`.courses`: courses, instructors, reviewers, the roster;
* :mod:`.join_codes`: join codes, a student signing up or joining;
* :mod:`.sessions`: scheduling (options and scripted values checked), editing, starting,
  ``session_autoplay``;
* :mod:`.teams`: teams, their members (logged once the game has started), seats, intent;
* :mod:`.locking`: the session row lock, a decision's reads in one round trip;
* :mod:`.moves`: a team's decision (``open_move``, ``choice_submit``, the rebased seq);
* :mod:`.undo`: a team takes back its own last decision;
* :mod:`.facilitator`: pause, resume, end, note, override, direct;
* :mod:`.bots`: bot seats play, the game or a vignette's run ends, the decision timer.

A test that replaces a use case with ``monkeypatch.setattr(services, name, ...)`` replaces it
for the callers that look it up here (views, API, tasks); a caller inside this package uses
the name of its own module, so such a test patches that module's name.
"""

from facilitation.services.accounts import _require_course_instructor, user_add_role, user_create
from facilitation.services.bots import _check_bot_kind, default_bot_kind, seat_timeout_decide
from facilitation.services.courses import (
    MAX_ROSTER_NAMES,
    course_create,
    course_instructor_add,
    course_reviewer_grant,
    course_reviewer_revoke,
    course_student_remove,
    course_students_add,
    parse_usernames,
)
from facilitation.services.facilitator import (
    facilitator_direct,
    facilitator_note,
    facilitator_override,
    session_end,
    session_pause,
    session_resume,
)
from facilitation.services.join_codes import (
    MAX_JOIN_CODE_USES,
    course_join,
    join_code_create,
    join_code_revoke,
    student_register,
)
from facilitation.services.locking import _lock_for_move
from facilitation.services.moves import MAX_DECISION_MS, MAX_REBASE_BEHIND, OpenMove, choice_submit, open_move
from facilitation.services.sessions import (
    SCRIPT_DRY_RUN_MOVES,
    SCRIPT_MAX_TAGS,
    SCRIPT_MAX_VALUES,
    session_autoplay,
    session_create,
    session_start,
    session_update,
)
from facilitation.services.teams import (
    seat_assign,
    team_create,
    team_intent_set,
    team_member_add,
    team_member_remove,
    team_member_replace,
)
from facilitation.services.text import TEXT_MAX, clean_text
from facilitation.services.undo import choice_undo

__all__ = [
    "MAX_DECISION_MS", "MAX_JOIN_CODE_USES", "MAX_REBASE_BEHIND", "MAX_ROSTER_NAMES", "SCRIPT_DRY_RUN_MOVES",
    "SCRIPT_MAX_TAGS", "SCRIPT_MAX_VALUES", "TEXT_MAX", "OpenMove", "_check_bot_kind", "_lock_for_move",
    "_require_course_instructor", "choice_submit", "choice_undo", "clean_text", "course_create",
    "course_instructor_add", "course_join", "course_reviewer_grant", "course_reviewer_revoke",
    "course_student_remove", "course_students_add", "default_bot_kind", "facilitator_direct",
    "facilitator_note", "facilitator_override", "join_code_create", "join_code_revoke", "open_move",
    "parse_usernames", "seat_assign", "seat_timeout_decide", "session_autoplay", "session_create",
    "session_end", "session_pause", "session_resume", "session_start", "session_update",
    "student_register", "team_create", "team_intent_set", "team_member_add", "team_member_remove",
    "team_member_replace", "user_add_role", "user_create",
]
