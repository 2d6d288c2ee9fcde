"""What a person sees, once: used by the pages (``web``), the JSON API (``api``) and the picture.

Each module builds plain values (frozen dataclasses, strings, dicts for JSON islands) from what a
service read, in the user's language:

- ``labels``: the names of rows, contracts, variants, sides, computer levels, marks and money,
  the one-line description of a hand, and the one rule of the evening's short names
  (``short_names``: pages, API and picture); ``evening_words``: every name one evening shows,
  worked out once (``EveningWords``), which the slate's views, the picture and the API take.
- ``errors``: a ``RuleError`` as text in the user's language, its parameters named in the
  evening's deck style (cards, suits, contracts, rows, seats).
- ``slate``: the slate grid, the Seich marks, the turn guide and the record form's choices
  (contracts per row, match marks), from an evening's snapshot (``EveningSnapshot``).
- ``slate_page``: the slate page and its live fragment as one view (grid, outlook, result,
  corrections, the record form's choices, the undo line), built in one call from what the page
  read first: the snapshot (with tonight's rules as a table, ``game.rule_facts``) and its
  outlook; the evening's words are worked out once, up front.
- ``result``: the end of the evening: winners, totals, sticks and potatoes, cuts, money.
- ``outlook``: the outlook in words (per side its range, what it needs, its chance to win; per
  row what one hand needs alone), from the snapshot and its ``EveningOutlook``.
- ``seat``: what one seat at the digital table sees (card faces with trumps marked, players and
  their roles, the choices), from the engine's seat view of that seat only.
- ``picture``: the slate as a ``render.SlatePicture`` (the PNG draws it), from the slate and
  result views.
- ``memory``: the circle's memory in words: ladders, contracts, ratings, purse and ledger lines,
  the charts' titles and axes; a season's days and a payment's day as instants.
- ``offline``: what an offline phone checks a queued hand against (``rule_snapshot``), the turn
  guide of hands still queued, and the offline words.
- ``housekeeping``: a change in words, done (the log) and to be confirmed (what it will do).
- ``export``: the CSV headings and the time zone of its dates.
- ``adviser``: the row adviser's answer in words (per open row its value, match chance and win
  odds; the pick, or pass).

Texts go through gettext (Flask-Babel); nothing here imports ``web`` or ``api``,
queries the database or commits.
"""
