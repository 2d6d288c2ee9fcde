"""The layers of the house hold: the pure packages import no framework; the pure cores
stand on each other in one order (game below all; scoring and engine on game; bots on
engine; history on scoring; render on game and history); the pages and the API never
import each other; the presentation imports neither face; the services import nothing
from Flask (the database session through ``extensions.db`` is fine); the engine never
imports the slate's scoring; no template global, filter or context processor calls a
service (a page shows what its view passed in)."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from flask import Flask

FORBIDDEN = ("flask", "sqlalchemy", "wtforms", "werkzeug", "flask_babel", "flask_wtf", "flask_sqlalchemy")
PURE = ["scorekeeper.game", "scorekeeper.scoring", "scorekeeper.engine", "scorekeeper.bots", "scorekeeper.history"]
PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
FLASKISH = ("flask", "flask_babel", "flask_wtf", "flask_sqlalchemy", "flask_migrate", "werkzeug", "wtforms")


@pytest.mark.parametrize("package", PURE)
def test_pure_package_imports_no_framework(package: str) -> None:
    code = (
        "import importlib, json, pkgutil, sys\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out)
    bad = [m for m in loaded if m.split(".")[0] in FORBIDDEN]
    assert bad == [], f"{package} pulls in {bad}"


# --- imports, read from the source (every import: top level, in functions, under TYPE_CHECKING) ---
def imports_in(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """The absolute names ``module``'s source imports (``from . import x`` counts as ``pkg.x``)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif (  # importlib.import_module("scorekeeper.x") / __import__("x")
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def modules(layer: str) -> Iterator[tuple[str, set[str]]]:
    """(module name, what it imports) for every module of ``scorekeeper.<layer>``."""
    folder = PACKAGE / layer
    paths = sorted(folder.rglob("*.py")) if folder.is_dir() else [PACKAGE / f"{layer}.py"]
    for path in paths:
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        is_package = rel.name == "__init__"
        name = ".".join(rel.parts[:-1] if is_package else rel.parts)
        yield name, imports_in(path.read_text(encoding="utf-8"), name, is_package=is_package)


def crossing(layer: str, forbidden: Callable[[str], bool]) -> list[str]:
    return sorted(f"{name} imports {target}" for name, found in modules(layer) for target in found if forbidden(target))


def _under(*packages: str) -> Callable[[str], bool]:
    return lambda target: any(target == p or target.startswith(p + ".") for p in packages)


def test_the_import_scan_resolves_relative_imports() -> None:
    source = "from ..api import serialize\nfrom . import labels\nimport flask\nfrom .errors import x\n"
    found = imports_in(source, "scorekeeper.web.slate")
    assert {"scorekeeper.api", "scorekeeper.api.serialize", "scorekeeper.web.labels", "flask"} <= found
    assert "scorekeeper.web.errors.x" in found
    assert "scorekeeper.present.labels" in imports_in("from .labels import x\n", "scorekeeper.present", is_package=True)
    assert _under("scorekeeper.api")("scorekeeper.api.serialize") and not _under("scorekeeper.api")("scorekeeper.apix")


def test_the_pages_never_import_the_api() -> None:
    assert crossing("web", _under("scorekeeper.api")) == []


def test_the_api_never_imports_the_pages() -> None:
    assert crossing("api", _under("scorekeeper.web")) == []


def test_the_presentation_imports_neither_face() -> None:
    assert crossing("present", _under("scorekeeper.web", "scorekeeper.api")) == []


def test_i18n_and_the_labels_do_not_import_each_other() -> None:
    assert crossing("i18n", _under("scorekeeper.present", "scorekeeper.web")) == []


def test_the_services_import_nothing_from_flask() -> None:
    """Configuration comes in as arguments; only ``extensions.db`` (the session) is shared."""
    assert crossing("services", lambda target: target.split(".")[0] in FLASKISH) == []
    assert crossing("services", _under("scorekeeper.web", "scorekeeper.api", "scorekeeper.present")) == []


# --- the services stand in three wings: use cases (the top of services/), the read models
# (services/read/) and the write machinery (services/store/); errors.py is the refusals all share ---
SERVICES = PACKAGE / "services"
WINGS = ("read", "store")


def use_cases() -> list[str]:
    """The use-case modules: every module at the top of services/ but its face and its errors."""
    return sorted(
        f"scorekeeper.services.{p.stem}" for p in SERVICES.glob("*.py") if p.stem not in ("__init__", "errors")
    )


def test_the_services_stand_in_three_wings() -> None:
    folders = sorted(p.name for p in SERVICES.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(WINGS)
    for wing in WINGS:  # each wing says what its modules hold
        face = (SERVICES / wing / "__init__.py").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(face)) or ""
        held = sorted(p.stem for p in (SERVICES / wing).glob("*.py") if p.stem != "__init__")
        assert held and [m for m in held if f"``{m}``" not in doc] == [], wing
    assert {"scorekeeper.services.evenings", "scorekeeper.services.housekeeping"} <= set(use_cases())


def test_the_read_models_import_no_use_case() -> None:
    """A read model may stand on the write machinery (the session) and the errors, never on a use
    case: what a page reads cannot depend on how a change is made."""
    assert crossing("services/read", _under(*use_cases())) == []


def test_the_write_machinery_imports_no_use_case_and_no_read_model() -> None:
    """The write machinery stands below both other wings (the transaction, the queue, request
    digests, secret links): the read models stand on it, never the other way round."""
    assert crossing("services/store", _under(*use_cases(), "scorekeeper.services.read")) == []


def test_a_use_case_imported_by_a_read_model_is_caught() -> None:
    found = imports_in("from .. import evenings\n", "scorekeeper.services.read.memory")
    assert [t for t in found if _under(*use_cases())(t)] == ["scorekeeper.services.evenings"]


def test_no_service_module_hands_on_another_modules_names() -> None:
    """What a services module lists in ``__all__`` it defines itself: a caller imports a name from
    its real home (strict mypy refuses a name a module only imported and does not list)."""
    handed_on = []
    for path in sorted(SERVICES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined: set[str] = set()
        listed: list[str] = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                defined |= names
                if "__all__" in names and isinstance(node.value, (ast.List, ast.Tuple)):
                    listed = [
                        e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
        handed_on += [f"{path.relative_to(PACKAGE)}: {n}" for n in listed if n not in defined]
    assert handed_on == []


def test_the_engine_never_imports_scoring() -> None:
    """Play and slate meet only in the services."""
    assert crossing("engine", _under("scorekeeper.scoring")) == []


# --- the pure cores, in their order (also what they import under TYPE_CHECKING or in functions) ---
# core -> the other scorekeeper packages it may import
MAY_IMPORT: dict[str, frozenset[str]] = {
    "game": frozenset(),
    "scoring": frozenset({"game"}),
    "engine": frozenset({"game"}),
    "bots": frozenset({"engine", "game"}),
    "history": frozenset({"game", "scoring"}),
    "render": frozenset({"game", "history"}),
}
FRAMEWORKS = (
    *FLASKISH,
    "alembic",
    "babel",
    "gunicorn",
    "itsdangerous",
    "jinja2",
    "markupsafe",
    "psycopg",
    "sqlalchemy",
)


def against_the_order(layer: str, target: str) -> bool:
    """Whether ``scorekeeper.<layer>`` importing ``target`` breaks the cores' order."""
    top, _, rest = target.partition(".")
    if top in FRAMEWORKS:
        return True
    if top == "PIL":
        return layer != "render"  # only render draws
    part = rest.split(".")[0]
    return top == "scorekeeper" and bool(part) and part not in MAY_IMPORT[layer] | {layer}


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_a_pure_core_imports_only_what_stands_below_it(layer: str) -> None:
    assert list(modules(layer)), f"no modules under scorekeeper/{layer}"
    assert crossing(layer, lambda target: against_the_order(layer, target)) == []


@pytest.mark.parametrize(
    "module,source",
    [
        ("scorekeeper.engine.result", "if TYPE_CHECKING:\n    from scorekeeper.scoring.entries import HandEntry\n"),
        ("scorekeeper.engine.result", "def f():\n    from ..scoring.entries import HandEntry\n"),
        ("scorekeeper.engine.result", "from .. import scoring\n"),
        ("scorekeeper.engine.state", "import scorekeeper.services.table\n"),
        ("scorekeeper.engine.view", "importlib.import_module('scorekeeper.app')\n"),
        ("scorekeeper.engine.view", "from scorekeeper import app\n"),
        ("scorekeeper.engine.view", "from PIL import Image\n"),
        ("scorekeeper.bots.player", "from ..scoring import Slate\n"),
        ("scorekeeper.bots.search", "import sqlalchemy.orm\n"),
        ("scorekeeper.game.rulesets", "from ..engine.bitmasks import POINTS\n"),
        ("scorekeeper.game.cards", "from flask_babel import gettext\n"),
        ("scorekeeper.scoring.slate", "from scorekeeper.models import Evening\n"),
        ("scorekeeper.scoring.__init__", "from ..i18n import translate\n"),
        ("scorekeeper.history.stats", "from ..engine import HandState\n"),
        ("scorekeeper.render.chalk", "from ..present.labels import row_label\n"),
        ("scorekeeper.render.charts", "from ..scoring.slate import Slate\n"),
    ],
)
def test_an_import_against_the_order_is_caught(module: str, source: str) -> None:
    layer = module.split(".")[1]
    found = imports_in(source, module.removesuffix(".__init__"), is_package=module.endswith(".__init__"))
    assert any(against_the_order(layer, target) for target in found), f"not caught: {source!r} in {module}"


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
def test_an_import_down_the_order_passes(module: str, source: str) -> None:
    layer = module.split(".")[1]
    assert not any(against_the_order(layer, target) for target in imports_in(source, module))


# --- templates: what a global, filter or context processor may reach -----------------------
def reaches_services(fn: Callable[..., Any]) -> list[str]:
    """What a function (or a function nested in it) uses of the services: module-level names that
    are services or live in them, and imports of them inside its body."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):  # pragma: no cover - every function of ours has its source
        source = ""
    inside = imports_in(source, fn.__module__) if source else set()
    imported = [f"{fn.__module__}.{fn.__qualname__} imports {t}" for t in sorted(inside) if _SERVICES(t)]
    names: set[str] = set()
    todo = [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    bad = []
    for name in sorted(names):
        value = fn.__globals__.get(name)
        where = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", "") or ""
        if _SERVICES(where):
            bad.append(f"{fn.__module__}.{fn.__qualname__} uses {name} ({where})")
    return imported + bad


_SERVICES = _under("scorekeeper.services")


def _calls_a_service(evening: Any) -> Any:  # the kind of template global this test refuses
    from scorekeeper.services import evenings

    return evenings.load_slate(evening)


def test_the_scan_finds_a_service_call() -> None:
    from scorekeeper.present.labels import chf

    assert reaches_services(_calls_a_service) != []  # an import inside the function
    assert reaches_services(_global_calling_a_service) != []  # a module-level name
    assert reaches_services(chf) == []


def _global_calling_a_service(evening: Any) -> Any:
    return _EVENINGS.load_slate(evening)


_EVENINGS = __import__("scorekeeper.services.evenings", fromlist=["load_slate"])


def _ours(value: Any) -> bool:
    return callable(value) and str(getattr(value, "__module__", "") or "").startswith("scorekeeper")


def test_no_template_global_filter_or_context_processor_calls_a_service(app: Flask) -> None:
    env = app.jinja_env
    functions: list[Any] = [v for table in (env.globals, env.filters, env.tests) for v in table.values() if _ours(v)]
    processors = [p for group in app.template_context_processors.values() for p in group]
    functions += [p for p in processors if _ours(p)]
    with app.test_request_context("/"):
        for processor in processors:
            functions += [v for v in cast(dict[str, Any], processor()).values() if _ours(v)]
    assert functions, "no template helpers found: the scan would prove nothing"
    assert [bad for fn in functions for bad in reaches_services(fn)] == []
    assert not any(name.startswith("digital_") for name in env.globals)  # the old service-calling globals
