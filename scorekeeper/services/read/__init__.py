"""The read models: what the pages, the API, the picture and the poll read, in a fixed number of
statements. They never import a use case (``tests/test_purity.py``); they stand on the write
machinery (``store``: the session) and the shared errors only.

- ``snapshot``: THE read model of an evening, ``EveningSnapshot`` (five statements at most; rows
  kept per version by the worker).
- ``replay``: append-only entry and cut rows -> the slate, the audit trail, the cuts that count;
  ``ruleset_of``: the rule set an evening was played with.
- ``outlook``: an evening's outlook from its snapshot (forecast stored once per version), the
  setting to hide it.
- ``adviser``: "Which row?" for a hand on an evening's snapshot or a digital seat's view (the
  row adviser and the outlook's win odds; the hand is used once and kept nowhere).
- ``stamp``: what a slate page shows, as one small value (the ETag's and the poll's input);
  ``stamp_watch``: each process's copy of the stamps, kept current by PostgreSQL.
- ``circle_record``: a whole circle as ``history.records.CircleRecord`` in a constant number of
  statements (was ``record_rows``).
- ``memory``: that record kept per worker with what is derived from it (``memory_of``).
- ``listings``: a circle's evenings (``history``), its players' records of evenings, wins and
  money (``player_records``), its evenings as the housekeeping pages name them (was ``records``).
- ``who_is_who``: the housekeeping log folded: who is who now, the players in force, the log as
  the pages list it, the player a typed name stands for (was part of ``services.housekeeping``).
"""
