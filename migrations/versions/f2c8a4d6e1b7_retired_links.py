"""retired_links: links that opened something once, kept by their hash

Revision ID: f2c8a4d6e1b7
Revises: f2b6d8a4c1e7
Create Date: 2026-12-02 09:00:00.000000

issue 21: a phone still on a replaced write or onlookers link (or a seat link handed on, or the
link of an erased circle) polled every few seconds, got 404s, and after some 20 of them the
wrong-token limit shut out every phone behind the same address. The hashes of links that were
valid once are kept, so such a link is answered with what happened (410) and is not counted as
a guess. Only the hash, what the link was and why it stopped: an erased circle leaves no name.

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "f2c8a4d6e1b7"
down_revision = "f2b6d8a4c1e7"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "retired_links",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.String(length=12), nullable=False),
        sa.Column("circle_id", sa.Integer(), nullable=True),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('write', 'view', 'seat')", name=op.f("ck_retired_links_kind")),
        sa.CheckConstraint("reason IN ('replaced', 'deleted', 'restored')", name=op.f("ck_retired_links_reason")),
        sa.ForeignKeyConstraint(["circle_id"], ["circles.id"], name=op.f("fk_retired_links_circle_id_circles")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_retired_links")),
    )
    with op.batch_alter_table("retired_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_retired_links_circle_id"), ["circle_id"], unique=False)


def downgrade():
    with op.batch_alter_table("retired_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_retired_links_circle_id"))
    op.drop_table("retired_links")
