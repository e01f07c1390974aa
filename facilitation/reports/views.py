"""After-action review pages: request a report, watch its progress, download it,
compare sessions of one game, export a session's events (CSV/JSON).

Thin views: permissions and data come from :mod:`.selectors`, work from
:mod:`.services`. Report files are streamed by these views after a permission
check; they are never under the public /media/ route.

Language: a report is written in one language (``AARReport.language``). A reader whose
language (the site's language switch) differs is sent to the same report in their language,
which is requested the first time anyone reads it in that language (its progress page shows
the build); ``?lang=xx`` naming the report's own language keeps it (a link to the original).
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_GET, require_http_methods

from facilitation.errors import ServiceError
from facilitation.models import ClassSession
from facilitation.reports import assets, selectors, services
from facilitation.reports.builder.charts import comparison_chart
from facilitation.reports.models import AARReport
from facilitation.selectors import user_can_create_courses


def _render(request, template: str, context: dict, status: int = 200) -> HttpResponse:
    """Pages extend the site's base template, which shows instructor links from ``is_instructor``."""
    context = {"is_instructor": user_can_create_courses(request.user), **context}
    return render(request, template, context, status=status)


def _forbidden(request, message: str) -> HttpResponse:
    if request.headers.get("accept", "").startswith("application/json"):
        return JsonResponse({"error": "forbidden", "detail": message}, status=403)
    return HttpResponseForbidden(_render(request, "reports/forbidden.html", {"message": message}).content)


@login_required
@require_GET
def index(request):
    reports = selectors.reports_visible_to(request.user)[:200]
    sessions = selectors.sessions_readable(request.user).order_by("-scheduled_start", "-id")[:200]
    scenarios = sorted({s.scenario_key for s in sessions})
    watch_only = selectors.sessions_watch_only(request.user).order_by("-started_at", "-id")[:200]
    return _render(request, "reports/index.html", {"reports": reports, "sessions": sessions,
                                                  "scenarios": scenarios, "watch_only": watch_only})


@login_required
@require_http_methods(["GET", "POST"])
def session_reports(request, session_id: int):
    session = get_object_or_404(ClassSession.objects.select_related("course"), pk=session_id)
    if not selectors.session_can_read_reports(request.user, session):
        roles = selectors.session_roles(request.user, session)
        return _forbidden(request, gettext(_REVIEWERS_WAIT) if roles == {"reviewer"} else gettext(_STUDENTS_WAIT)
                          if "student" in roles
                          else gettext("Only the course's instructors and reviewers, and the session's players "
                                       "once it is finished, can see its after-action reviews."))
    error = None
    status = 200
    if request.method == "POST":
        raw = (request.POST.get("as_of_seq") or "").strip()
        try:
            seq = int(raw) if raw else None
            report = services.report_request(session, seq, user=request.user, language=get_language())
        except ValueError:
            error, status = gettext("The event number must be a whole number."), 400
        except ServiceError as exc:
            error, status = exc.message, exc.status
        else:
            return redirect("reports:detail", report_id=report.pk)
    reports = selectors.reports_visible_to(request.user, session)
    return _render(request, "reports/session.html", {
        "session": session, "reports": reports, "error": error,
        "can_request": selectors.report_can_request(request.user, session),
    }, status)


_STUDENTS_WAIT = gettext_noop("Your session's after-action review opens here once the session is finished.")
_REVIEWERS_WAIT = gettext_noop("Reviewers read a session's after-action reviews once it is finished; "
                               "while it runs, watch it from your sessions page.")


def _report_for(request, report_id: int) -> AARReport:
    report = get_object_or_404(AARReport.objects.select_related("session", "session__course"), pk=report_id)
    if not selectors.report_can_view(request.user, report):
        raise PermissionError
    return services.report_fail_if_stalled(report)


def _in_reader_language(request, report: AARReport) -> tuple[AARReport, str]:
    """(the report in the reader's language, an error text): the report itself when it is in
    that language (or ``?lang=`` names its own), its sibling otherwise (requested if new)."""
    wanted = services.report_language(get_language())
    if report.language == wanted or request.GET.get("lang") == report.language:
        return report, ""
    try:
        return services.report_in_language(report, wanted, user=request.user), ""
    except ServiceError as exc:  # the queue is down: the report as it is, and why
        return report, exc.message


@login_required
@require_GET
def detail(request, report_id: int):
    try:
        report = _report_for(request, report_id)
    except PermissionError:
        return _forbidden(request, gettext("You may not see this report."))
    other, language_error = _in_reader_language(request, report)
    if other.pk != report.pk:
        return redirect("reports:detail", report_id=other.pk)
    return _render(request, "reports/detail.html", {
        "language_error": language_error,
        "report": report, "session": report.session,
        "status_json": selectors.report_status(report),
        "status_url": reverse("reports:status", args=[report.pk]),
        "can_request": selectors.report_can_request(request.user, report.session),
    })


@login_required
@require_GET
def status(request, report_id: int):
    try:
        report = _report_for(request, report_id)
    except PermissionError:
        return JsonResponse({"error": "forbidden", "detail": gettext("You may not see this report.")}, status=403)
    data = selectors.report_status(report)
    if report.status == AARReport.Status.DONE:
        data["html_url"] = reverse("reports:html", args=[report.pk])
        data["pdf_url"] = reverse("reports:pdf", args=[report.pk])
        if report.summary_pdf:
            data["summary_pdf_url"] = reverse("reports:summary_pdf", args=[report.pk])
    resp = JsonResponse(data)
    resp["Cache-Control"] = "no-store"
    return resp


def _file(request, report_id: int, field: str, *, attachment: bool):
    """A report file, after the permission check. Every answer keeps the site's
    Content-Security-Policy (coinlab.security): the HTML file links its scripts and
    style sheets from /static/; its download inlines them (assets.standalone) to work
    as one file offline, and, sent as an attachment, is never rendered by the site."""
    try:
        report = _report_for(request, report_id)
    except PermissionError:
        return _forbidden(request, gettext("You may not download this report."))
    other, _error = _in_reader_language(request, report)
    if other.pk != report.pk:
        # the same file in the reader's language once it is built; its progress page until then
        if other.status == AARReport.Status.DONE and getattr(other, field):
            query = request.GET.urlencode()
            return redirect(reverse(f"reports:{field}", args=[other.pk]) + (f"?{query}" if query else ""))
        return redirect("reports:detail", report_id=other.pk)
    f = getattr(report, field)
    if report.status != AARReport.Status.DONE or not f:
        raise Http404(gettext("This report has no file yet."))
    try:
        fh = f.open("rb")
    except FileNotFoundError:
        raise Http404(gettext("The report file is missing; request the report again.")) from None
    name = f"{report.file_stem()}.{field.replace('summary_pdf', 'summary.pdf')}"
    if field == "html" and attachment:
        with fh:
            text = assets.standalone(fh.read().decode("utf-8"))
        resp = HttpResponse(text.encode("utf-8"), content_type="text/html; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{name}"'
    else:
        ctype = "application/pdf" if field in ("pdf", "summary_pdf") else "text/html; charset=utf-8"
        resp = FileResponse(fh, content_type=ctype, as_attachment=attachment, filename=name)
    resp["Cache-Control"] = "private, no-store"
    return resp


@login_required
@require_GET
def html(request, report_id: int):
    return _file(request, report_id, "html", attachment=request.GET.get("download") == "1")


@login_required
@require_GET
def pdf(request, report_id: int):
    return _file(request, report_id, "pdf", attachment=request.GET.get("inline") != "1")


@login_required
@require_GET
def summary_pdf(request, report_id: int):
    return _file(request, report_id, "summary_pdf", attachment=request.GET.get("inline") != "1")


@login_required
@require_GET
def export_events(request, session_id: int, fmt: str):
    session = get_object_or_404(ClassSession.objects.select_related("course"), pk=session_id)
    if not selectors.session_can_read_reports(request.user, session):
        return _forbidden(request, gettext("Only the course's instructors and reviewers can export its events."))
    name = f"session-{session.pk}-events.{fmt}"
    if fmt == "csv":
        resp = HttpResponse(selectors.session_events_csv(session), content_type="text/csv; charset=utf-8")
    elif fmt == "json":
        resp = HttpResponse(json.dumps(selectors.session_events_json(session), indent=1, ensure_ascii=False),
                            content_type="application/json")
    else:
        raise Http404
    resp["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


@login_required
@require_GET
def compare(request, scenario_key: str):
    # the chart specs' words (builder.translation) in the reader's language
    from django.utils.formats import get_format
    from django.utils.translation import ngettext

    from facilitation.reports.builder.translation import translated

    with translated(gettext, ngettext, decimal=get_format("DECIMAL_SEPARATOR")):
        return _compare(request, scenario_key)


def _compare(request, scenario_key: str):
    available = list(selectors.sessions_comparable(request.user, scenario_key))
    if not available:
        raise Http404(gettext("No sessions of this game that you may read."))
    wanted = {int(x) for x in request.GET.getlist("s") if x.isdigit()}
    chosen = [s for s in available if s.pk in wanted] if wanted else available[:8]
    data = selectors.comparison(chosen)
    figs = []
    for i, c in enumerate(data["charts"], 1):
        fig = comparison_chart(c["title"], c["title"], c["runs"], c["cs"], data.get("x_label", ""))
        figs.append({"dom_id": f"cmp-figure-{i}", "title": c["title"], "figure": fig})
    rules = selectors.session_rules(chosen[0]) if chosen else None
    titles = {s.id: s.title for s in rules.seats} if rules else {}
    for r in data["rows"]:
        w = r["winner"]
        r["winner_title"] = (", ".join(titles.get(x, str(x)) for x in w) if isinstance(w, list | tuple)
                             else titles.get(w, w.title() if isinstance(w, str) else w))
    return _render(request, "reports/compare.html", {
        "scenario_key": scenario_key, "game_title": rules.title if rules else scenario_key,
        "available": available, "chosen": {s.pk for s in chosen}, "x_label": data.get("x_label", ""),
        "rows": data["rows"], "figs": figs, "metrics": data.get("metrics", []), "table": data.get("table", []),
    })
