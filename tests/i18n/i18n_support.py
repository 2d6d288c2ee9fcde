"""Shared by the language tests: where the catalogs are, how messages are extracted."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LOCALES = ("de_CH",)
MAKEFILE = ROOT / "Makefile"
BABEL_CFG = ROOT / "babel.cfg"

# A printf-style conversion as Python's ``%`` operator reads it (``%%`` is a literal percent).
CONVERSION = re.compile(r"%(?:\((?P<name>\w+)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?P<type>[diouxXeEfFgGcrsa%])")


def po_path(locale: str) -> Path:
    return TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"


def load_catalog(locale: str) -> Catalog:
    with po_path(locale).open("rb") as fh:
        return read_po(fh, locale=locale)


def placeholders(text: str) -> set[str]:
    """The conversions of a message: ``%(name)s`` as ``name:s``, positional ones as ``#1:d``..."""
    found: set[str] = set()
    position = 0
    for m in CONVERSION.finditer(text):
        if m.group("type") == "%":
            continue
        if m.group("name"):
            found.add(f"{m.group('name')}:{m.group('type')}")
        else:
            position += 1
            found.add(f"#{position}:{m.group('type')}")
    return found


def ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def strings(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (list, tuple)) else (message.string,)


def babel_keywords() -> list[str]:
    """The ``-k`` arguments of ``make translations-update`` (BABEL_KEYWORDS in the Makefile)."""
    m = re.search(r"^BABEL_KEYWORDS\s*:?=\s*(.+)$", MAKEFILE.read_text(), re.M)
    assert m, "the Makefile defines no BABEL_KEYWORDS"
    return shlex.split(m.group(1))


def extract(pot: Path) -> Catalog:
    """Extract every marked message of the sources into ``pot``, as ``make translations-update`` does."""
    cmd = [
        sys.executable,
        "-m",
        "babel.messages.frontend",
        "-q",
        "extract",
        "-F",
        str(BABEL_CFG),
        *babel_keywords(),
        "--no-wrap",
        "-o",
        str(pot),
        ".",
    ]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with pot.open("rb") as fh:
        return read_po(fh)
