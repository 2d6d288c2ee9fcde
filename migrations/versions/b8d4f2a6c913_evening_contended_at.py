"""evenings.contended_at: when a write to the evening last lost a race

Revision ID: b8d4f2a6c913
Revises: e7b3d5a91c46
Create Date: 2026-12-01 14:10:00.000000

issue 15 (fair writes across workers): a write refused because another phone's hand came first
notes the moment here; for a short while after it, a write on the fresh version yields once, so
the phones that just lost get an equal chance (``services.store.write_queue.hold_off``). A hint, never an
input: not exported, and NULL (no race seen) for existing evenings.

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "b8d4f2a6c913"
down_revision = "e7b3d5a91c46"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("evenings") as batch:
        batch.add_column(sa.Column("contended_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("evenings") as batch:
        batch.drop_column("contended_at")
