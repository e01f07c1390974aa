"""Forms of the web front end: input checking only; the services decide."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.core.registry import scenarios as installed_scenarios
from facilitation.text import tr

from .models import SessionUISettings

SEAT_TEAM = "team"


def scenario_choices() -> list[tuple[str, str]]:
    return [(s["key"], tr(s["title"])) for s in installed_scenarios()]


def _value_label(value) -> str:
    from django.utils.translation import gettext

    return gettext(str(value).replace("_", " ").capitalize())


class JSONOptionField(forms.CharField):
    """A JSON option (a fixed deck order, scripted dice): empty means the game's default."""

    def to_python(self, value):
        import json

        value = super().to_python(value)
        if not value.strip():
            return None
        try:
            return json.loads(value)
        except ValueError as exc:
            raise forms.ValidationError(_("Write this option as JSON (%(problem)s)."), params={"problem": str(exc)}) from None


def option_field(info) -> forms.Field:
    """The form field of one of the game's setup options (``engine`` OptionInfo): a proper
    control for numbers, yes/no and one-of-several options, JSON only for the advanced ones."""
    label = tr(info.title)
    help_text = tr(info.help)
    if info.kind == "bool":
        return forms.TypedChoiceField(label=label, help_text=help_text, required=False, initial=bool(info.default),
                                      choices=[(True, _("Yes")), (False, _("No"))],
                                      coerce=lambda v: v in (True, "True", "true", "1", "on"))
    if info.kind in ("int", "choice") and info.choices:
        choices = [(str(c), _value_label(c)) for c in info.choices]
        return forms.ChoiceField(label=label, help_text=help_text, choices=choices,
                                 initial=str(info.default) if info.default is not None else None)
    if info.kind == "int":
        return forms.IntegerField(label=label, help_text=help_text, required=False, initial=info.default)
    return JSONOptionField(label=label, help_text=help_text, required=False, max_length=20_000,
                           widget=forms.Textarea(attrs={"rows": 2}))


class ScheduleForm(forms.Form):
    title = forms.CharField(label=_("Session title"), max_length=200)
    course_title = forms.CharField(label=_("Course"), max_length=200,
                                   help_text=_("An existing course of yours, or a new one with this title."))
    scheduled_start = forms.DateTimeField(label=_("Date and time"), required=False,
                                          widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                          input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=2**62, required=False,
                              help_text=_("Leave empty for a new shuffle. The same seed and the same decisions "
                                          "replay the same game."))
    decision_timer_seconds = forms.IntegerField(label=_("Decision timer (seconds)"), required=False, min_value=10,
                                                help_text=_("Leave empty for no timer."))
    timer_expiry = forms.ChoiceField(label=_("When the timer runs out"), choices=SessionUISettings.Expiry.choices,
                                     initial=SessionUISettings.Expiry.WARN)
    require_rationale = forms.BooleanField(label=_("Require a rationale with every decision"), required=False)

    #: The fields every game has (kept when the instructor switches to another game).
    COMMON_FIELDS = ("title", "course_title", "scheduled_start", "seed", "decision_timer_seconds", "timer_expiry",
                     "require_rationale")

    def __init__(self, *args, rules, bot_kinds: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        # read and written in the viewer's time zone (facilitation.web.timezones): say which
        self.fields["scheduled_start"].help_text = _("In your time zone, %(zone)s.") % {
            "zone": timezone.get_current_timezone_name()}
        # The game's classroom length presets (issue #18): each a documented variant with a
        # rules-based end; choosing one sets its options over the fields below.
        self.presets = {p.key: p for p in rules.presets()}
        if self.presets:
            self.fields["preset"] = forms.ChoiceField(
                label=_("Length of the session"), required=False, initial="",
                widget=forms.RadioSelect,
                choices=[("", _("No preset: the game options below"))]
                + [(p.key, tr(p.title)) for p in self.presets.values()],
                help_text=_("A preset sets the game options it names (the others keep what you choose "
                            "below) and ends the game at a natural break with a final victory check."))
        self.option_fields = []
        self.advanced_option_fields = []
        for info in rules.options():
            name = f"opt_{info.key}"
            self.fields[name] = option_field(info)
            (self.advanced_option_fields if info.kind == "json" else self.option_fields).append(self[name])
        from .templatetags.coinlab_web import bot_kind

        play_choices = [(SEAT_TEAM, _("A team"))] + [(k, _("Bot: %(kind)s") % {"kind": bot_kind(k)}) for k in bot_kinds]
        self.seat_fields = []
        for i, seat in enumerate(rules.seats):
            pf = f"seat_{seat.id}_by"
            tf = f"seat_{seat.id}_team"
            self.fields[pf] = forms.ChoiceField(label=_("%(seat)s is played by") % {"seat": tr(seat.title)},
                                                choices=play_choices, initial=SEAT_TEAM)
            self.fields[tf] = forms.CharField(label=_("Team name for %(seat)s") % {"seat": tr(seat.title)},
                                              max_length=100, required=False, initial=tr(seat.title))
            self.seat_fields.append({"seat": seat, "fi": i, "by": self[pf], "team": self[tf]})

    @property
    def preset_rows(self) -> list:
        """(radio button, preset or None) for each choice of the preset field."""
        if "preset" not in self.fields:
            return []
        return list(zip(self["preset"], [None, *self.presets.values()], strict=True))

    def clean(self):
        data = super().clean()
        options = {}
        for info in self.rules.options():
            value = data.get(f"opt_{info.key}")
            if value is None or value == "":
                continue
            if info.kind == "int":
                value = int(value)
            if value != info.default:
                options[info.key] = value
        preset = self.presets.get(data.get("preset") or "")
        if preset is not None:
            defaults = {info.key: info.default for info in self.rules.options()}
            options.update(preset.options)
            options = {k: v for k, v in options.items() if k in preset.options or v != defaults.get(k)}
        data["options"] = options
        seats = {}
        for seat in self.rules.seats:
            by = data.get(f"seat_{seat.id}_by")
            if by == SEAT_TEAM:
                name = (data.get(f"seat_{seat.id}_team") or "").strip()
                if not name:
                    self.add_error(f"seat_{seat.id}_team", _("Name the team that plays this seat."))
                seats[seat.id] = {"team": name}
            elif by:
                seats[seat.id] = {"bot": by}
        data["seats"] = seats
        if not any("team" in v for v in seats.values()):
            raise forms.ValidationError(_("At least one seat must be played by a team."))
        return data


class NoteForm(forms.Form):
    text = forms.CharField(label=_("Facilitator note"), widget=forms.Textarea(attrs={"rows": 2}), max_length=4000)


class OverrideForm(forms.Form):
    ACTIONS = (("undo", _("Undo the last decision")), ("track", _("Adjust a track")))
    action = forms.ChoiceField(label=_("Override"), choices=ACTIONS)
    track = forms.CharField(label=_("Track"), required=False, max_length=64)
    value = forms.IntegerField(label=_("New value"), required=False)
    reason = forms.CharField(label=_("Reason (required)"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        data = super().clean()
        if data.get("action") == "track" and (not data.get("track") or data.get("value") is None):
            raise forms.ValidationError(_("Choose a track and its new value."))
        return data


class TimerForm(forms.Form):
    decision_timer_seconds = forms.IntegerField(label=_("Decision timer (seconds)"), required=False, min_value=10)
    timer_expiry = forms.ChoiceField(label=_("When the timer runs out"), choices=SessionUISettings.Expiry.choices)
    require_rationale = forms.BooleanField(label=_("Require a rationale with every decision"), required=False)

    #: The fields every game has (kept when the instructor switches to another game).
    COMMON_FIELDS = ("title", "course_title", "scheduled_start", "seed", "decision_timer_seconds", "timer_expiry",
                     "require_rationale")


class ReplaceMemberForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    old_username = forms.CharField(label=_("Replace member"), max_length=150)
    new_username = forms.CharField(label=_("with (username)"), max_length=150)


class JoinCodeForm(forms.Form):
    code = forms.CharField(label=_("Join code"), max_length=64)


class SignupForm(forms.Form):
    """Only what the page must have; the rules for names and passwords are the
    ``student_register`` service's (the same as ``POST /api/register/``)."""

    username = forms.CharField(label=_("Choose a user name"), max_length=150)
    password = forms.CharField(label=_("Choose a password"), widget=forms.PasswordInput, max_length=128,
                               strip=False)


class IntentForm(forms.Form):
    statement = forms.CharField(label=_("Team intent"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}),
                                help_text=_("Once, at the start: what does your team mean to achieve, and how?"))


class AnnotationForm(forms.Form):
    KINDS = (("bookmark", _("Bookmark")), ("annotation", _("Annotation")))
    kind = forms.ChoiceField(choices=KINDS, initial="bookmark", label=_("Add"))
    text = forms.CharField(label=_("Text"), max_length=4000, widget=forms.Textarea(attrs={"rows": 2}))


class RosterAddForm(forms.Form):
    """Students by user name: one, or a list pasted in (course page, issue #19)."""

    usernames = forms.CharField(
        label=_("User names"), widget=forms.Textarea(attrs={"rows": 4}), max_length=20_000,
        help_text=_("One per line, or separated by commas or spaces. Students without an account "
                    "join with a team's join code instead."))
    team = forms.ChoiceField(label=_("Also put them on a team"), required=False)

    def __init__(self, *args, teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = list(teams)


class UsernameForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
