"""evening outcomes and rating runs: derived copies kept for the circle's memory

Revision ID: e7b3d5a91c46
Revises: a4e2c9d17b30
Create Date: 2026-12-08 09:00:00.000000

issue 12 (fast at any size, cold): what statistics, ratings, the purse, the charts and
the history list read of an ended evening's outcome (``history.summary``), stored when it
is first computed, so that a worker that has never seen a circle reads one row per
evening instead of replaying every slate. Derived, never an input: a row counts only
while its ``version`` is the evening's and its ``format`` is the code's
``history.summary.FORMAT``; otherwise it is computed again from the log and replaced.
Existing evenings get their rows on the first read of their circle.
``rating_runs``: each ladder's ratings over a circle's ended evenings, used as far as its
games (stored with it) are the circle's games now under the same model.

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "e7b3d5a91c46"
down_revision = "a4e2c9d17b30"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "evening_outcomes",
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.Column("hands", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["evening_id"], ["evenings.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("evening_id"),
    )
    op.create_table(
        "rating_runs",
        sa.Column("circle_id", sa.Integer(), nullable=False),
        sa.Column("ladder", sa.String(length=8), nullable=False),
        sa.Column("model", sa.String(length=80), nullable=False),
        sa.Column("games", sa.JSON(), nullable=False),
        sa.Column("rated", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["circle_id"], ["circles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("circle_id", "ladder"),
    )


def downgrade():
    op.drop_table("rating_runs")
    op.drop_table("evening_outcomes")
