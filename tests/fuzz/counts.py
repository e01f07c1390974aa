"""Figures of a fuzzing run (cases, calls, server errors, answers by status), added to the file
``COINLAB_FUZZ_COUNTS`` names at the end of a module (read by benchmarks/fuzz_api.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

COUNTS = os.environ.get("COINLAB_FUZZ_COUNTS", "")


def new_stats() -> dict:
    return {"cases": 0, "calls": 0, "server_errors": 0, "by_status": {}}


def record(stats: dict, status: int) -> None:
    stats["calls"] += 1
    stats["by_status"][status] = stats["by_status"].get(status, 0) + 1
    if status >= 500:
        stats["server_errors"] += 1


def flush(stats: dict, part: str) -> None:
    if not COUNTS:
        return
    p = Path(COUNTS)
    old = json.loads(p.read_text()) if p.exists() else new_stats()
    for k in ("cases", "calls", "server_errors"):
        old[k] = old.get(k, 0) + stats[k]
    for code, n in stats["by_status"].items():
        old["by_status"][str(code)] = old["by_status"].get(str(code), 0) + n
    parts = old.setdefault("parts", {})
    parts[part] = {k: stats[k] for k in ("cases", "calls", "server_errors")}
    p.write_text(json.dumps(old, indent=1))
