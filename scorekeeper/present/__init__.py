"""What a person sees, once: used by the pages (``web``), the JSON API (``api``) and the picture.

- ``labels``: the names of rows, contracts, variants, sides, computer levels, marks,
  money, and the one-line description of a hand.
- ``errors``: a ``RuleError`` as text in the user's language.
- ``slate``: the slate grid, the turn guide and the record form's choices, from an
  evening's snapshot (``services.snapshot.EveningSnapshot``).
- ``result``: winners, sticks and potatoes, cuts and money at the end.
- ``seat``: what one seat at the digital table sees, from the engine's seat view.
- ``picture``: the slate as a ``render.SlatePicture`` (the PNG draws it).

Texts go through gettext (Flask-Babel); nothing here imports ``web`` or ``api``,
queries the database or commits.
"""
