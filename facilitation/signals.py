"""Signals other apps of the project listen to (facilitation never imports them back).

``session_finished`` is sent once a session's end has been committed, whether the game ended
by its rules or the facilitator ended it: the reports app builds the final after-action
review (facilitation/reports/apps.py).
"""

from django.dispatch import Signal

#: kwargs: ``session_id``.
session_finished = Signal()
