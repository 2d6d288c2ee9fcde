"""evenings.deleted: a test evening deleted by housekeeping, known from its own row

Revision ID: f2b6d8a4c017
Revises: f2c8a4d6e1b7
Create Date: 2026-12-02 10:00:00.000000

issue 20 point 6: a deleted evening is gone from every page and answer, and a write to it is
refused. The housekeeping log stays the input; this column is its fold for one evening, written
in the same transaction as the event that changes it (a delete, its undo), so the write path
(``applying``: the row it locks) and every read (the evening's row) know it without a statement
more. Existing evenings take it from the log: deleted when a ``delete_evening`` event of theirs
was not taken back; their version is bumped so a page left open on one learns it.

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "f2b6d8a4c017"
down_revision = "f2c8a4d6e1b7"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("evenings") as batch:
        batch.add_column(sa.Column("deleted", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(
        """
        UPDATE evenings SET deleted = TRUE, version = version + 1
        WHERE id IN (
            SELECT d.evening_id FROM housekeeping d
            WHERE d.kind = 'delete_evening' AND d.evening_id IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM housekeeping u
                WHERE u.circle_id = d.circle_id AND u.kind = 'undo' AND u.undoes = d.seq
            )
        )
        """
    )


def downgrade():
    with op.batch_alter_table("evenings") as batch:
        batch.drop_column("deleted")
