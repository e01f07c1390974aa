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


# ---- the facilitation side (issue 13.7) ---------------------------------------------------
FACILITATION = ENGINE.parent / "facilitation"


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ENGINE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _all_imports(path: pathlib.Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function (lazy imports count: they
    are circles all the same), relative imports resolved, ``from pkg import mod`` as ``pkg.mod``."""
    here = _module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = here[:len(here) - node.level + 1]
                base = ".".join(pkg + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def _facilitation_graph() -> dict[str, set[str]]:
    files = [p for p in FACILITATION.rglob("*.py") if "migrations" not in p.parts]
    names = {_module_name(p) for p in files}
    return {_module_name(p): {m for m in _all_imports(p) if m in names and m != _module_name(p)} for p in files}


def test_no_task_live_or_drawing_module_imports_a_view():
    """Views import the drawing (facilitation.rendering.regions); tasks and the cache of session
    versions never import a view."""
    graph = _facilitation_graph()
    offenders = {m: sorted(d for d in deps if d.startswith("facilitation.web.views"))
                 for m, deps in graph.items()
                 if (m.endswith(".tasks") or m == "facilitation.live" or m.startswith("facilitation.rendering"))}
    assert {m: d for m, d in offenders.items() if d} == {}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_live_tasks_and_views_form_no_import_circle():
    watched = {"facilitation.live", "facilitation.tasks", "facilitation.rendering.regions",
               "facilitation.web.views.play", "facilitation.web.views.instructor"}
    assert [c for c in _cycles(_facilitation_graph()) if c & watched] == []


def test_the_circle_check_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_the_use_case_modules_form_no_import_circle():
    """``facilitation/services/`` is one package of modules by topic that import each other one
    way (docs/architecture.md); a circle among them would break at import time or hide a mixed
    topic."""
    graph = _facilitation_graph()
    modules = {m for m in graph if m.startswith("facilitation.services.")}
    assert len(modules) >= 8, sorted(modules)
    assert [c for c in _cycles(graph) if c & modules] == []
