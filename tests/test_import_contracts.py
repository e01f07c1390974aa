"""The import-linter contracts in .importlinter hold (CI runs this file with the suite).

Andean Abyss keeps one module per rulebook chapter or topic with dependencies pointing one way
(docs/rules-notes/andean-abyss.md, "Where each rule lives"); ``lint-imports`` checks that no
two of its modules import each other in a circle and that each layer only imports lower ones.
"""

from __future__ import annotations

import configparser
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
AA = ROOT / "engine" / "scenarios" / "andean_abyss"


def _lint_imports() -> subprocess.CompletedProcess:
    exe = pathlib.Path(sys.executable).with_name("lint-imports")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([str(exe), "--config", str(ROOT / ".importlinter"), "--no-cache"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_import_contracts_are_kept():
    r = _lint_imports()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout


def test_every_andean_abyss_module_has_a_layer():
    """A new module must be placed in the layers contract, or it would escape the check."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / ".importlinter")
    layers = cfg["importlinter:contract:aa-layers"]["layers"]
    named = {m.strip() for line in layers.split("\n") for m in line.replace("|", ":").split(":") if m.strip()}
    modules = {p.stem for p in AA.glob("*.py") if p.stem != "__init__"}
    assert modules - named == set(), "modules missing from the aa-layers contract"
    assert named - modules == set(), "layers naming modules that do not exist"


def test_andean_abyss_modules_stay_small():
    """STYLE: modules under about 600 lines."""
    big = {p.name: n for p in AA.glob("*.py") if (n := len(p.read_text().splitlines())) > 620}
    assert big == {}
