"""Use cases: the only place that commits; one call = one transaction.

- ``circles``: create_circle, open_circle, open_circle_for_write, add_player,
  history, player_records (the last two live in ``records``).
- ``evenings``: start_evening, get_evening, version_of, ruleset_of, load_slate,
  entry_log, cuts_and_pending, result, record_hand, correct_entry, undo_last,
  set_cut, draw_cuts, end_evening.
- ``errors``: NotFound, StaleVersion (code ``stale``), Forbidden: RuleError subclasses.
- ``tx``: the transaction discipline (SQLite BEGIN IMMEDIATE, PostgreSQL FOR UPDATE).
"""

from ..models import AppliedRequest, CutRow, EntryRow
from . import tx

# The slate's log is append-only: refuse any delete or change of these rows at flush time.
tx.guard_append_only(EntryRow, CutRow, AppliedRequest)
