"""Use cases: the only place that commits; one call = one transaction. No Flask here:
configuration comes in as arguments; the database session is ``extensions.db``'s.

- ``circles``: create_circle, open_circle, open_circle_for_write, add_player,
  new_view_link, history, player_records (the last two live in ``records``).
- ``evenings``: start_evening, record_hand, correct_entry, undo_last, set_cut,
  draw_cuts, end_evening, reopen_evening; reads: get_evening, version_of, load_snapshot,
  and the single reads load_slate, entry_log, cuts_and_pending, result.
- ``snapshot``: the read model, ``EveningSnapshot`` (five statements an evening).
- ``outlook``: an evening's outlook from its snapshot (forecast stored once per version), the
  setting to hide it, the poll's state.
- ``memory``: load_record, the whole circle as ``history.records.CircleRecord`` in a
  constant number of statements (statistics, ratings, the purse, charts, export);
  memory_of, the same kept per worker with what is derived from it.
- ``purse``: append a settlement (payment, correction, void) to the circle's purse.
- ``housekeeping``: rename, merge, delete a test evening, undo (appended events) and who
  is who now; ``restore``: export (JSON, CSV) and restore into a new circle; ``erase``:
  delete a circle for good; ``paper``: a past evening typed from a paper slate.
- ``replay``: append-only entry and cut rows -> the slate, the audit trail, the cuts.
- ``digital_table``: open a table, deal, act, close; the computers (``bots``) and what
  happens when one fails. ``seats``: seat tokens, handing a seat over, computer seats.
- ``errors``: NotFound, StaleVersion (code ``stale``), Forbidden: RuleError subclasses.
- ``tx``: the transaction discipline (SQLite BEGIN IMMEDIATE, PostgreSQL FOR UPDATE).
"""

from ..models import AppliedRequest, CutRow, EntryRow, HousekeepingRow, SettlementRow
from . import tx

# The slate's log, the purse's settlements and the housekeeping are append-only: refuse any
# delete or change of these rows (only erasing a whole circle, ``tx.erasing``, deletes them).
tx.guard_append_only(EntryRow, CutRow, AppliedRequest, SettlementRow, HousekeepingRow)
