"""Files the app hands out (exports, the slate picture, charts): the one builder of their
``Content-Disposition`` header, and of the answer that carries an export.

A header is Latin-1 on the wire (PEP 3333): a file name in any other script (a circle
called "Jass 中文" or "Ωmega") written raw makes the server fail the answer. So the name is
given twice, as RFC 6266 says: ``filename`` in plain ASCII (accents dropped, anything else
replaced) for old clients, and, when that differs, ``filename*=UTF-8''...`` (RFC 5987,
percent-encoded UTF-8), which every current browser prefers.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from werkzeug.wrappers import Response

# RFC 5987 attr-char: what ``filename*`` may carry unencoded.
_ATTR_CHARS = "!#$&+-.^_`|~"
# What the ASCII fallback keeps (a quoted-string could hold more, but file systems and
# old clients disagree about quotes, backslashes, semicolons and the like).
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _plain(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    plain = _UNSAFE.sub("-", plain)
    return re.sub(r"-+(?=[.-])|(?<=[.])-+", "", plain).strip("-.")  # no "--", no "-." or ".-" left over


def ascii_filename(filename: str) -> str:
    """The file name in plain ASCII: accents dropped (``Zürich`` -> ``Zurich``), every other run
    of characters a file name should not hold one ``-``, its extension kept; never empty
    (``中文.json`` -> ``download.json``)."""
    stem, dot, extension = filename.rpartition(".")
    if not dot:
        stem, extension = filename, ""
    plain = _plain(stem) or "download"
    return f"{plain}.{_plain(extension)}" if _plain(extension) else plain


def content_disposition(filename: str, *, inline: bool = False) -> str:
    """``attachment`` (or ``inline``) with the file name for every client (RFC 6266 / 5987)."""
    kind = "inline" if inline else "attachment"
    fallback = ascii_filename(filename)
    if fallback == filename:
        return f'{kind}; filename="{filename}"'
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe=_ATTR_CHARS)}"


def download(body: str | bytes, media_type: str, filename: str, *, inline: bool = False) -> Response:
    """A file to keep: ``media_type`` as given (with its charset, if any), the file name for
    every client, and never stored by a cache on the way (an export holds a circle's names)."""
    response = Response(body)
    response.headers["Content-Type"] = media_type
    response.headers["Content-Disposition"] = content_disposition(filename, inline=inline)
    response.headers["Cache-Control"] = "no-store"
    return response


__all__ = ["ascii_filename", "content_disposition", "download"]
