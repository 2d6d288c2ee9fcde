"""table seats: a computer that failed

Revision ID: 5d1c0a7e9b42
Revises: 8f94e9c43bf4
Create Date: 2026-12-01 10:00:00.000000

issue 8: when a computer player raises (or answers an illegal action) the failure
is logged and the seat is marked: the hand waits, the pages say which computer
failed, and the organiser retries (gives the seat to the computer again) or hands
the seat to a phone. Existing seats have not failed (NULL).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5d1c0a7e9b42'
down_revision = '8f94e9c43bf4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.drop_column('failed_at')
