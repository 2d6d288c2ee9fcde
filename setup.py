"""Build hook (the metadata is in pyproject.toml): what a wheel carries besides the code.

- ``templates/``, ``static/`` and ``migrations/`` live at the top of the repository
  (development, ``pip install -e .``); a built wheel carries them inside the package,
  as ``scorekeeper/templates`` etc., where ``scorekeeper.config`` looks first.
- The message catalogs are compiled (``.po`` -> ``.mo``, every language under
  ``scorekeeper/translations``): ``pip install .`` gives an app that speaks Swiss German.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA_DIRS = ("templates", "static", "migrations")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout itself
        package = Path(self.build_lib) / "scorekeeper"
        for name in DATA_DIRS:
            shutil.copytree(
                ROOT / name,
                package / name,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            )
        compile_catalogs(ROOT / "scorekeeper" / "translations", package / "translations")


def compile_catalogs(source: Path, target: Path) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name)
        with mo.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=True)


setup(cmdclass={"build_py": BuildWithData})
