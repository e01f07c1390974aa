"""The garbage-collector pass after a PDF: a full collection against a young-generation one.

    .venv/bin/python benchmarks/pdf_gc_pass.py [--heap 1000000] [--repeat 3]

``facilitation.reports.rendering.collector_paused`` typesets a PDF with the collector off, then
runs one full pass. Every object WeasyPrint made meanwhile is still in the youngest generation,
so a young pass (``gc.collect(0)``) finds the same garbage; a full pass also walks everything
else the process holds. This script holds ``--heap`` long-lived dicts (as a test process holds
its tests, Django and the games; a worker freezes what it loaded, ``gc.freeze()``, and a full
pass does not walk that), typesets a long made-up report the same way, and prints each pass's
time, what it freed, and what a full pass after it still finds (0: nothing was left behind).
"""

from __future__ import annotations

import argparse
import gc
import time

from weasyprint import HTML


def page() -> str:
    paragraphs = "".join(f"<p>Paragraph {i}: a decision, its reason and what followed it.</p>" for i in range(1500))
    rows = "".join(f"<tr><td>{i}</td><td>decision {i} <b>because</b> of the plan</td><td>{i * 3}</td></tr>"
                   for i in range(3000))
    return f"<html><body><h1>Report</h1>{paragraphs}<table>{rows}</table></body></html>"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heap", type=int, default=1_000_000, help="long-lived dicts the process holds")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    held = [{"k": i, "v": [i, str(i)]} for i in range(args.heap)]
    html = page()
    HTML(string=html).write_pdf()  # fonts and caches loaded once
    gc.collect()
    for mode, generation in (("full", 2), ("young", 0)) * args.repeat:
        gc.disable()
        HTML(string=html).write_pdf()
        gc.enable()
        t = time.perf_counter()
        freed = gc.collect(generation)
        took = time.perf_counter() - t
        left = gc.collect()
        print(f"heap {len(held):,} {mode:5s}: {took * 1000:6.0f} ms, freed {freed:,}; a full pass after it found {left}")


if __name__ == "__main__":
    main()
