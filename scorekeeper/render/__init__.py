"""Pillow pictures (the slate as a PNG) and charts (SVG and PNG, ``charts``). No Flask or
SQLAlchemy here: the web layer builds a plain ``SlatePicture`` (or chart) with every text
already translated.

Also the drawings behind static files: the card sprites (``card_sprites``) and the app
icons (``icons``), written by ``python -m scorekeeper.render.assets`` (``make assets``)."""

from .picture import MARKS_DRAWN, Marks, PictureRow, SlatePicture
from .slate_png import WIDTH, picture_height, render_image, render_slate

__all__ = [
    "MARKS_DRAWN",
    "WIDTH",
    "Marks",
    "PictureRow",
    "SlatePicture",
    "picture_height",
    "render_image",
    "render_slate",
]
