"""The write machinery: how a change reaches the database, once, in its turn. It stands below
the read models and the use cases: it imports neither (``tests/test_purity.py``).

- ``tx``: the transaction discipline (SQLite BEGIN IMMEDIATE, PostgreSQL FOR UPDATE), the one
  session, append-only guards, what a request's transaction came to (``outcome``).
- ``write_queue``: whose turn it is to write an evening within one worker, and the short hold-off
  after a lost race (was ``turns``); ``services.applying`` queues each change of an evening here.
- ``requests``: the digest of what a write request asked (a repeated id must ask the same).
- ``tokens``: secret links, made and stored as their sha256.
- ``link_seal``: the onlookers' link kept sealed under the write link.
- ``signals``: what the services tell whoever listens (``token_refused``).
"""
