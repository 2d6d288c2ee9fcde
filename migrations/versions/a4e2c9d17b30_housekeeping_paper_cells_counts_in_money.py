"""housekeeping events, paper cells, evenings.counts_in_money, restored tables

Revision ID: a4e2c9d17b30
Revises: c4a9e2d7b1f3
Create Date: 2026-12-01 05:00:00.000000

issue 9.12 and issue 12: the circle's housekeeping (rename, merge, delete evening,
undo) as an append-only table; ``entries.cell`` holds a cell typed from a paper
slate (NULL for a hand); ``evenings.counts_in_money`` says whether an evening ended
early counts in the money totals (existing evenings: true, as before);
``digital_tables.restored`` marks a table restored from an export (its hands were over).

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a4e2c9d17b30"
down_revision = "c4a9e2d7b1f3"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "housekeeping",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("circle_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("into_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("evening_id", sa.Integer(), nullable=True),
        sa.Column("undoes", sa.Integer(), nullable=True),
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("author", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('rename', 'merge', 'delete_evening', 'undo')", name=op.f("ck_housekeeping_kind")),
        sa.ForeignKeyConstraint(["circle_id"], ["circles.id"], name=op.f("fk_housekeeping_circle_id_circles")),
        sa.ForeignKeyConstraint(["evening_id"], ["evenings.id"], name=op.f("fk_housekeeping_evening_id_evenings")),
        sa.ForeignKeyConstraint(["into_id"], ["players.id"], name=op.f("fk_housekeeping_into_id_players")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_housekeeping_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_housekeeping")),
        sa.UniqueConstraint("circle_id", "request_id", name=op.f("uq_housekeeping_circle_id_request_id")),
        sa.UniqueConstraint("circle_id", "seq", name=op.f("uq_housekeeping_circle_id_seq")),
    )
    with op.batch_alter_table("housekeeping", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_housekeeping_circle_id"), ["circle_id"], unique=False)

    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cell", sa.Integer(), nullable=True))

    with op.batch_alter_table("evenings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("counts_in_money", sa.Boolean(), server_default=sa.true(), nullable=False))


    with op.batch_alter_table("digital_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("restored", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table("digital_tables", schema=None) as batch_op:
        batch_op.drop_column("restored")

    with op.batch_alter_table("evenings", schema=None) as batch_op:
        batch_op.drop_column("counts_in_money")

    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.drop_column("cell")

    with op.batch_alter_table("housekeeping", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_housekeeping_circle_id"))

    op.drop_table("housekeeping")
