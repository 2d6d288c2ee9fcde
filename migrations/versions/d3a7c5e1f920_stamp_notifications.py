"""stamp notifications: PostgreSQL tells every process when a slate page's stamp changed

Revision ID: d3a7c5e1f920
Revises: b8d4f2a6c913
Create Date: 2026-12-01 16:00:00.000000

issue 15: on PostgreSQL each process keeps what the fast poll's one statement answered
(``services.read.stamp_watch``) and drops a circle's entries when told. These triggers tell it:
``NOTIFY scorekeeper_stamp, 'c:<circle id>'`` whenever a row that statement reads changes (its
columns, listed per table below; a test holds the list against the statement), ``'*'`` on a
TRUNCATE. PostgreSQL folds the same notification within one transaction into one. SQLite: nothing
(its statement runs in process, nothing is kept).

"""

from alembic import op


# revision identifiers, used by Alembic.
revision = "d3a7c5e1f920"
down_revision = "b8d4f2a6c913"
branch_labels = None
depends_on = None

# table -> (the columns whose UPDATE changes a stamp, the SQL of the circle id of a row r)
WATCHED = {
    "circles": ("write_token_hash, view_token_hash", "r.id"),
    "evenings": ("version, outlook_hidden, public_id, circle_id", "r.circle_id"),
    "digital_tables": (
        "status, evening_id, public_id",
        "(SELECT e.circle_id FROM evenings e WHERE e.id = r.evening_id)",
    ),
    "table_hands": (
        "number, table_id",
        "(SELECT e.circle_id FROM digital_tables t JOIN evenings e ON e.id = t.evening_id WHERE t.id = r.table_id)",
    ),
    "housekeeping": ("kind, circle_id", "r.circle_id"),
}


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        """
        CREATE FUNCTION scorekeeper_stamps_flushed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('scorekeeper_stamp', '*');
            RETURN NULL;
        END $$
        """
    )
    for table, (columns, circle) in WATCHED.items():
        # a row's circle, before and after (a row that no longer finds its circle: everything)
        op.execute(
            f"""
            CREATE FUNCTION scorekeeper_stamp_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                r record;
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    r := OLD;
                    PERFORM pg_notify('scorekeeper_stamp', COALESCE('c:' || {circle}, '*'));
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    r := NEW;
                    PERFORM pg_notify('scorekeeper_stamp', COALESCE('c:' || {circle}, '*'));
                END IF;
                RETURN NULL;
            END $$
            """
        )
        op.execute(
            f"CREATE TRIGGER scorekeeper_stamp AFTER INSERT OR DELETE OR UPDATE OF {columns} ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION scorekeeper_stamp_{table}()"
        )
        op.execute(
            f"CREATE TRIGGER scorekeeper_stamps_flushed AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION scorekeeper_stamps_flushed()"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in WATCHED:
        op.execute(f"DROP TRIGGER IF EXISTS scorekeeper_stamp ON {table}")
        op.execute(f"DROP TRIGGER IF EXISTS scorekeeper_stamps_flushed ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS scorekeeper_stamp_{table}()")
    op.execute("DROP FUNCTION IF EXISTS scorekeeper_stamps_flushed()")
