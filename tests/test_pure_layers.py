"""The pure cores' layers, read from the source: every import statement of every module,
also those under ``if TYPE_CHECKING:`` and inside functions (which a fresh interpreter,
as in test_purity, never runs), and every ``import_module("...")`` of a constant name.

- game is the vocabulary: it imports no other part of scorekeeper;
- scoring and engine stand on game only (play and slate meet in the services);
- bots stand on engine and game; history on scoring and game; render on game and
  history (the data it draws);
- none of them imports a framework (Flask, SQLAlchemy, WTForms, Babel, ...).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"

# package -> the other scorekeeper packages it may import
MAY_IMPORT: dict[str, frozenset[str]] = {
    "game": frozenset(),
    "scoring": frozenset({"game"}),
    "engine": frozenset({"game"}),
    "bots": frozenset({"engine", "game"}),
    "history": frozenset({"game", "scoring"}),
    "render": frozenset({"game", "history"}),
}
FRAMEWORKS = frozenset(
    {
        "alembic",
        "babel",
        "flask",
        "flask_babel",
        "flask_migrate",
        "flask_sqlalchemy",
        "flask_wtf",
        "gunicorn",
        "itsdangerous",
        "jinja2",
        "markupsafe",
        "psycopg",
        "sqlalchemy",
        "werkzeug",
        "wtforms",
    }
)


def imported_modules(source: str, module: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, the source of ``module``
    (a dotted name; relative imports are resolved against it)."""
    package = module.rsplit(".", 1)[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            # ``from scorekeeper import app``: the names may be modules too
            found += [(node.lineno, name)] + [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def violations(source: str, module: str) -> list[str]:
    """What ``module`` (``scorekeeper.<layer>...``) imports against the rules above."""
    layer = module.split(".")[1]
    allowed = MAY_IMPORT[layer] | {layer}
    out = []
    for line, name in imported_modules(source, module):
        parts = name.split(".")
        if parts[0] in FRAMEWORKS:
            out.append(f"{module}:{line} imports the framework {name}")
        elif parts[0] == "PIL" and layer != "render":
            out.append(f"{module}:{line} imports Pillow ({name}); only render draws")
        elif parts[0] == "scorekeeper" and len(parts) > 1 and parts[1] not in allowed:
            out.append(f"{module}:{line} imports {name}: {layer} may import {sorted(allowed)} only")
    return out


def modules_of(layer: str) -> list[tuple[Path, str]]:
    out = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out.append((path, ".".join(parts) if rel.name != "__init__" else ".".join(parts) + ".__init__"))
    return out


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_a_pure_layer_imports_only_what_stands_below_it(layer: str) -> None:
    modules = modules_of(layer)
    assert modules, f"no modules under scorekeeper/{layer}"
    bad = [v for path, module in modules for v in violations(path.read_text(encoding="utf-8"), module)]
    assert bad == []


@pytest.mark.parametrize(
    "module,source",
    [
        ("scorekeeper.engine.result", "if TYPE_CHECKING:\n    from scorekeeper.scoring.entries import HandEntry\n"),
        ("scorekeeper.engine.result", "def f():\n    from ..scoring.entries import HandEntry\n"),
        ("scorekeeper.engine.result", "from .. import scoring\n"),
        ("scorekeeper.engine.state", "import scorekeeper.services.table\n"),
        ("scorekeeper.bots.player", "from ..scoring import Slate\n"),
        ("scorekeeper.game.rulesets", "from ..engine.bitmasks import POINTS\n"),
        ("scorekeeper.scoring.slate", "from scorekeeper.models import Evening\n"),
        ("scorekeeper.render.chalk", "from ..web.labels import row_label\n"),
        ("scorekeeper.render.charts", "from ..scoring.slate import Slate\n"),
        ("scorekeeper.history.stats", "from ..engine import HandState\n"),
        ("scorekeeper.history.stats", "from ..services.evenings import load_slate\n"),
        ("scorekeeper.game.cards", "from flask_babel import gettext\n"),
        ("scorekeeper.bots.search", "import sqlalchemy.orm\n"),
        ("scorekeeper.engine.view", "from PIL import Image\n"),
        ("scorekeeper.engine.view", "importlib.import_module('scorekeeper.app')\n"),
        ("scorekeeper.engine.view", "from scorekeeper import app\n"),
        ("scorekeeper.scoring.__init__", "from ..i18n import translate\n"),
    ],
)
def test_a_crossing_import_is_caught(module: str, source: str) -> None:
    assert violations(source, module), f"not caught: {source!r} in {module}"


@pytest.mark.parametrize(
    "module,source",
    [
        ("scorekeeper.engine.result", "from scorekeeper.game.hand_entry import HandEntry\n"),
        ("scorekeeper.engine.state", "from .bitmasks import BIT\nfrom . import actions\n"),
        ("scorekeeper.bots.player", "from scorekeeper.engine.view import SeatView\n"),
        ("scorekeeper.scoring.slate", "from ..game import turns\n"),
        ("scorekeeper.render.chalk", "from PIL import Image\n"),
    ],
)
def test_an_import_down_the_layers_passes(module: str, source: str) -> None:
    assert violations(source, module) == []
