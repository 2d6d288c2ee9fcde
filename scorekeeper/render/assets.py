"""The static files drawn by code, written into ``static/``: ``python -m scorekeeper.render.assets``
(``make assets``). The card sprites (``card_sprites``) and the app icons (``icons``) are
committed; ``tests/render`` fails while a committed file differs from its drawing."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from . import card_sprites, icons

STATIC_DIR: Final = Path(__file__).resolve().parents[2] / "static"


def files() -> dict[str, bytes]:
    """Every drawn file: path under static/ -> content."""
    out = {rel: text.encode() for rel, text in card_sprites.sprites().items()}
    out.update(icons.files())
    return out


def write(static_dir: Path = STATIC_DIR) -> list[Path]:
    written = []
    for rel, content in files().items():
        path = static_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written.append(path)
    return written


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the card sprites and the app icons into static/.")
    parser.add_argument("--static", type=Path, default=STATIC_DIR, help="the static/ folder to write into")
    args = parser.parse_args(list(argv) if argv is not None else None)
    for path in write(args.static):
        print(f"{path.relative_to(args.static)}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
