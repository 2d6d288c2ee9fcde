"""The services: the only place that commits; one call = one transaction. No Flask here:
configuration comes in as arguments; the database session is ``extensions.db``'s. Three wings:

The use cases, at the top of this package (what a face calls to change something):

- ``circles``: create_circle, open_circle, open_circle_for_write, add_player, new links.
- ``evenings``: start_evening, record_hand, correct_entry, undo_last, set_cut, draw_cuts,
  end_evening, reopen_evening; get_evening, and the small reads load_slate, names_of,
  cuts_and_pending. ``applying``: how each of those changes is applied (the lock, the request
  id, the version check, the offline queue's rule, the rows handed to the answer's snapshot).
- ``purse``: append a settlement (payment, correction, void) to the circle's purse.
- ``housekeeping``: rename, merge, delete a test evening, undo (appended events); ``restore``:
  export (JSON, CSV) and restore into a new circle; ``erase``: delete a circle for good;
  ``paper``: a past evening typed from a paper slate; ``house_rules``: a circle's own rules as
  its default, the rules of its last evening, "same again".
- ``digital_table``: open a table, deal, act, close; the computers (``bots``) and what happens
  when one fails. ``seats``: seat tokens, handing a seat over, computer seats.
- ``picture_links``: the link that opens one evening's picture; ``retired``: links that opened
  something once, answered 410.
- ``errors``: NotFound, StaleVersion (code ``stale``), Forbidden, ...: RuleError subclasses
  (shared by all three wings).

The read models, ``read/`` (snapshot, replay, outlook, stamp, stamp_watch, circle_record, memory,
listings, who_is_who, adviser): what pages and answers read; they never import a use case.

The write machinery, ``store/`` (tx, write_queue, requests, tokens, link_seal, signals): the
transaction discipline, the queue of writes, request digests, secret links; it imports neither
a read model nor a use case.

Every module holds its own names: none hands on another's (a caller imports from the home).
"""

from ..models import AppliedRequest, CutRow, EntryRow, HousekeepingRow, SettlementRow
from .store import tx

# The slate's log, the purse's settlements and the housekeeping are append-only: refuse any
# delete or change of these rows (only erasing a whole circle, ``tx.erasing``, deletes them).
tx.guard_append_only(EntryRow, CutRow, AppliedRequest, SettlementRow, HousekeepingRow)
