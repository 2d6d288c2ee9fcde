"""What the services tell whoever listens (no Flask here: blinker signals).

``token_refused``: a circle link, seat link or token was presented and opens nothing
(the rate limiter counts these per client address, see ``scorekeeper/limits.py``).
Sent with ``kind`` = ``"circle"``, ``"seat"`` or ``"picture"`` (a picture link, ``picture_links``).
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()
token_refused = _signals.signal("token-refused")
