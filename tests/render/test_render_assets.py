"""`make assets`: every drawn file goes under static/, and the committed ones are those files."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from scorekeeper.render import assets

EXPECTED = [
    "cards/french-4c.svg",
    "cards/french.svg",
    "cards/swiss.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/icon-maskable-192.png",
    "icons/icon-maskable-512.png",
    "icons/icon.svg",
]


def test_write_puts_every_drawn_file_under_the_static_folder(tmp_path: Path) -> None:
    written = assets.write(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == EXPECTED
    assert Image.open(tmp_path / "icons" / "icon-512.png").size == (512, 512)
    assert (tmp_path / "cards" / "swiss.svg").read_text(encoding="utf-8").startswith("<svg")


def test_every_drawn_file_is_committed() -> None:
    for rel in EXPECTED:
        assert (assets.STATIC_DIR / rel).is_file(), rel


def test_main_reports_what_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert assets.main(["--static", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert all(rel in out for rel in EXPECTED)
