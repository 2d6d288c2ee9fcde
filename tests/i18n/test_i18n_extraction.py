"""The catalogs are up to date with the sources: every marked message has a translation.

A string added with ``_()``, ``_l()``, ``N_()``... and not yet translated fails here,
listing the missing msgids: run ``make translations-update`` and translate them.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil

import pytest
from i18n_helpers import LOCALES, ROOT, babel_keywords, extract, ids, load_catalog, strings

import scorekeeper
from scorekeeper.game.errors import RuleError


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    """msgid -> where it was found, from a fresh extraction of Python files and templates."""
    pot = extract(tmp_path_factory.mktemp("pot") / "messages.pot")
    found: dict[str, set[str]] = {}
    for m in pot:
        if m.id:
            for msgid in ids(m):
                found.setdefault(msgid, set()).update(f"{path}:{line}" for path, line in m.locations)
    return found


def test_extraction_finds_python_templates_and_rule_errors(extracted: dict[str, set[str]]) -> None:
    places = {loc.split(":")[0] for locs in extracted.values() for loc in locs}
    assert any(p.startswith("templates/") for p in places), "no template messages extracted"
    assert any(p.startswith("scorekeeper/scoring/") for p in places), "no N_() rule messages extracted"
    assert "scorekeeper/forms.py" in places, "no lazy_gettext (_l) messages extracted"
    assert "Declarer's and defenders' points must add up to 157 (%(declarer)s + %(defenders)s = %(sum)s)." in extracted


@pytest.mark.parametrize("locale", LOCALES)
def test_every_source_message_is_in_the_catalog(locale: str, extracted: dict[str, set[str]]) -> None:
    catalog = load_catalog(locale)
    translated = {msgid for m in catalog if m.id and all(s.strip() for s in strings(m)) for msgid in ids(m)}
    missing = sorted(set(extracted) - translated)
    report = "\n".join(f"  {msgid!r}  ({', '.join(sorted(extracted[msgid]))})" for msgid in missing)
    assert not missing, (
        f"{len(missing)} message(s) in the sources have no {locale} translation; "
        f"run `make translations-update` and translate them in scorekeeper/translations/{locale}:\n{report}"
    )


def test_makefile_keywords_cover_the_markers() -> None:
    keywords = {k.split(":")[0] for k in babel_keywords() if not k.startswith("-")}
    assert {"_", "gettext", "ngettext", "lazy_gettext", "_l", "N_"} <= keywords


def _rule_error_names() -> set[str]:
    """RuleError and every subclass in the package (services, engine, api...)."""
    for info in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
        if info.name.endswith(("errors", "error")):
            importlib.import_module(info.name)
    names: set[str] = set()
    todo: list[type] = [RuleError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def unmarked_calls(source: str, names: set[str]) -> list[int]:
    """Lines where an error class of ``names`` gets a bare string (or f-string) as its message."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in names:
            continue
        for arg in list(node.args[:1]) + [k.value for k in node.keywords if k.arg == "message"]:
            if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                lines.append(node.lineno)
    return lines


def test_the_scan_tells_marked_from_bare_messages() -> None:
    source = (
        'raise RuleError(N_("Marked."), "ok")\n'
        'raise RuleError("Bare.", "bad")\n'
        'raise errors.NotFound(message=f"Bare {x}.")\n'
        "raise RuleError(MESSAGES[code], code)\n"
        'raise ValueError("not for users")\n'
    )
    assert unmarked_calls(source, {"RuleError", "NotFound"}) == [2, 3]


def test_rule_errors_carry_marked_messages() -> None:
    """A RuleError raised with a bare string literal would reach users untranslated: mark it N_()."""
    names = _rule_error_names()
    assert {"RuleError", "NotFound", "StaleVersion"} <= names
    unmarked = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "scorekeeper").rglob("*.py"))
        for line in unmarked_calls(path.read_text(encoding="utf-8"), names)
    ]
    assert not unmarked, "RuleError messages not marked with N_(): " + ", ".join(unmarked)
