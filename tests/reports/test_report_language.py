"""A report is written in one language: a Spanish reader gets the review in Spanish (pages,
interactive report, both PDFs), built the first time someone reads it in Spanish, one row
per (session, seq, language), its files deleted with it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from django.conf import settings
from django.urls import reverse

from facilitation.reports import services
from facilitation.reports.models import AARReport

from .helpers import people_words, report_english


def pdf_text(path: Path) -> str:
    text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return re.sub(r"\s+", " ", text)


def english_in(text: str, phrases: set[str], typed: list[str] = ()) -> list[str]:
    """Each English phrase found outside what people typed, with the words around it."""
    text = re.sub(r"\s+", " ", text)
    for words in typed:
        text = text.replace(words, " ")
    out = []
    for p in sorted(phrases):
        m = re.search(r"(?<!\w)" + re.escape(p) + r"(?!\w)", text)
        if m:
            out.append(f"{p!r} in ...{text[max(0, m.start() - 80):m.end() + 40]}...")
    return out


def test_the_catalog_knows_the_reports_words():
    # the scan below must have something to look for: the report's headings are in the catalog
    words = report_english()
    assert {"Key moments", "Discussion prompts", "Turning points", "Appendix: full decision log"} <= words


def test_a_spanish_report_is_written_in_spanish(finished_peru, people, built, django_capture_on_commit_callbacks):
    report = services.report_request(finished_peru, built.seq, user=people["instructor"], enqueue=False,
                                     language="es")
    assert report.pk != built.pk and report.language == "es" and built.language == "en"
    # the same request again: the same row
    assert services.report_request(finished_peru, built.seq, enqueue=False, language="es").pk == report.pk
    report = services.report_build(report.pk)
    assert report.status == AARReport.Status.DONE, report.error
    assert report.pdf.name.endswith("-es.pdf") and report.summary_pdf.name.endswith("-es.summary.pdf")
    assert report.stage == "Listo" and report.summary["language"] == "es"
    english = report_english()
    typed = people_words(finished_peru)
    full, summary = pdf_text(Path(report.pdf.path)), pdf_text(Path(report.summary_pdf.path))
    html = Path(report.html.path).read_text(encoding="utf-8")
    for spanish in ("Momentos clave", "Preguntas para el debate", "Puntos de inflexión", "Voluntad Política",
                    "Apéndice: registro completo de decisiones", "Página 1 de"):
        assert spanish in full, spanish
    for spanish in ("Puntos de inflexión", "La intención frente al resultado", "Preguntas para el debate"):
        assert spanish in summary, spanish
    assert not english_in(full, english, typed), "\n".join(english_in(full, english, typed))
    assert not english_in(summary, english, typed), "\n".join(english_in(summary, english, typed))
    visible = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", html, flags=re.S)
    assert '<html lang="es">' in html and not english_in(visible, english, typed), "\n".join(
        english_in(visible, english, typed))
    # the English report says the same in English
    assert "Key moments" in pdf_text(Path(built.pdf.path))
    paths = [Path(report.html.path), Path(report.pdf.path), Path(report.summary_pdf.path)]
    with django_capture_on_commit_callbacks(execute=True):
        report.delete()
    assert not any(p.exists() for p in paths) and Path(built.pdf.path).is_file()


def test_a_spanish_reader_is_sent_to_the_report_in_spanish(client, finished_peru, people, built, no_enqueue,
                                                            django_capture_on_commit_callbacks):
    client.force_login(people["reviewer"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.get(reverse("reports:detail", args=[built.pk]))
    spanish = AARReport.objects.get(session=finished_peru, seq=built.seq, language="es")
    assert resp.status_code == 302 and resp["Location"] == reverse("reports:detail", args=[spanish.pk])
    assert no_enqueue == [spanish.pk]  # requested for the reviewer, who may not build new reports
    # a file of the English report: the Spanish one's progress page until it is built
    resp = client.get(reverse("reports:pdf", args=[built.pk]))
    assert resp.status_code == 302 and resp["Location"] == reverse("reports:detail", args=[spanish.pk])
    services.report_build(spanish.pk)
    resp = client.get(reverse("reports:pdf", args=[built.pk]) + "?inline=1")
    assert resp.status_code == 302 and resp["Location"] == reverse("reports:pdf", args=[spanish.pk]) + "?inline=1"
    page = client.get(reverse("reports:detail", args=[spanish.pk]))
    assert page.status_code == 200 and "Abrir el informe interactivo" in page.content.decode()
    # the original on purpose, and nothing requested twice
    assert client.get(reverse("reports:detail", args=[built.pk]) + "?lang=en").status_code == 200
    assert no_enqueue == [spanish.pk]
    session_page = client.get(reverse("reports:session", args=[finished_peru.pk])).content.decode()
    assert "Informes" in session_page and "Español" in session_page and "English" in session_page
    AARReport.objects.filter(pk=spanish.pk).delete()
