"""The pure packages import alone: no Flask, SQLAlchemy or WTForms, even indirectly."""

import json
import subprocess
import sys

import pytest

FORBIDDEN = ("flask", "sqlalchemy", "wtforms", "werkzeug", "flask_babel", "flask_wtf", "flask_sqlalchemy")
PURE = ["scorekeeper.game", "scorekeeper.scoring", "scorekeeper.engine", "scorekeeper.bots", "scorekeeper.history"]


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
