"""ARCHITECTURE.md, "Layers": dependencies point one way, facilitation -> engine.

The engine is pure Python: no Django, Celery, database or web layer; no clock
and no global random numbers (all randomness comes from the state's RNG).
"""

import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN_MODULES = {"django", "rest_framework", "celery", "redis", "facilitation", "coinlab",
                     "psycopg", "sqlite3", "requests", "random", "time", "datetime",
                     "numpy", "socket", "subprocess"}


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


def engine_sources():
    return sorted(p for p in ENGINE.rglob("*.py"))


def test_engine_has_sources():
    assert len(engine_sources()) >= 5


def test_engine_never_imports_web_layer_io_clock_or_global_rng():
    offenders = []
    for path in engine_sources():
        # engine/core/simulate.py measures wall time for the CLI's choices/s figure;
        # it is the only module allowed the clock, and never influences game state.
        allowed = {"time"} if path.name == "simulate.py" and path.parent.name == "core" else set()
        for lineno, mod in _imports(path):
            top = mod.split(".")[0]
            if top in FORBIDDEN_MODULES and top not in allowed:
                offenders.append(f"{path.relative_to(ENGINE.parent)}:{lineno} imports {mod}")
    assert offenders == []


def test_layering_check_detects_a_violation(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from django.db import models\nimport random\n")
    found = [m for _, m in _imports(bad)]
    assert found == ["django.db", "random"]
