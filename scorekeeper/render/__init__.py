"""Pillow pictures (the slate as a PNG) and charts (SVG and PNG, ``charts``). No Flask or
SQLAlchemy here: the web layer builds a plain ``SlatePicture`` (or chart) with every text
already translated."""

from .picture import Marks, PictureRow, SlatePicture
from .slate_png import WIDTH, picture_height, render_image, render_slate

__all__ = ["WIDTH", "Marks", "PictureRow", "SlatePicture", "picture_height", "render_image", "render_slate"]
