"""Forms of the web front end: input checking only; the services decide."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.core.registry import scenarios as installed_scenarios

from .models import SessionUISettings

SEAT_TEAM = "team"


def scenario_choices() -> list[tuple[str, str]]:
    return [(s["key"], s["title"]) for s in installed_scenarios()]


def parse_options(text: str, rules) -> dict:
    """``KEY=VALUE`` lines -> options dict, typed by the scenario's OptionInfo."""
    infos = {o.key: o for o in rules.options()}
    out: dict = {}
    for n, raw in enumerate((text or "").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise forms.ValidationError(_("Line %(n)s: write KEY=VALUE."), params={"n": n})
        key, value = (x.strip() for x in line.split("=", 1))
        info = infos.get(key)
        if info is None:
            raise forms.ValidationError(_("Line %(n)s: unknown option %(key)s."), params={"n": n, "key": key})
        try:
            if info.kind == "int":
                out[key] = int(value)
            elif info.kind == "bool":
                out[key] = value.lower() in ("1", "true", "yes", "on", "si", "sí")
            elif info.kind == "json":
                import json

                out[key] = json.loads(value)
            else:
                if info.choices and value not in [str(c) for c in info.choices]:
                    raise ValueError(value)
                out[key] = value
        except ValueError:
            raise forms.ValidationError(_("Line %(n)s: bad value for %(key)s."), params={"n": n, "key": key}) from None
    return out


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
    options = forms.CharField(label=_("Options"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    decision_timer_seconds = forms.IntegerField(label=_("Decision timer (seconds)"), required=False, min_value=10,
                                                help_text=_("Leave empty for no timer."))
    timer_expiry = forms.ChoiceField(label=_("When the timer runs out"), choices=SessionUISettings.Expiry.choices,
                                     initial=SessionUISettings.Expiry.WARN)
    require_rationale = forms.BooleanField(label=_("Require a rationale with every decision"), required=False)

    def __init__(self, *args, rules, bot_kinds: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        play_choices = [(SEAT_TEAM, _("A team"))] + [(k, _("Bot: %(kind)s") % {"kind": k}) for k in bot_kinds]
        self.seat_fields = []
        for i, seat in enumerate(rules.seats):
            pf = f"seat_{seat.id}_by"
            tf = f"seat_{seat.id}_team"
            self.fields[pf] = forms.ChoiceField(label=_("%(seat)s is played by") % {"seat": seat.title},
                                                choices=play_choices, initial=SEAT_TEAM)
            self.fields[tf] = forms.CharField(label=_("Team name for %(seat)s") % {"seat": seat.title},
                                              max_length=100, required=False, initial=seat.title)
            self.seat_fields.append({"seat": seat, "fi": i, "by": self[pf], "team": self[tf]})

    def clean_options(self):
        return parse_options(self.cleaned_data.get("options", ""), self.rules)

    def clean(self):
        data = super().clean()
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
