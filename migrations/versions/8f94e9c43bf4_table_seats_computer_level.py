"""table seats: computer level

Revision ID: 8f94e9c43bf4
Revises: 70dc89df073f
Create Date: 2026-11-29 15:42:25.860019

issue 5: a computer seat plays at the level the organiser chose (easy, normal,
strong). Existing seats get the server default 'normal' (the level every computer
played at before, unless the TABLE_COMPUTER_LEVEL config said otherwise). On SQLite
the downgrade rebuilds `table_seats` (batch mode, foreign keys off: see env.py).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8f94e9c43bf4'
down_revision = '70dc89df073f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('level', sa.String(length=8), server_default='normal', nullable=False))


def downgrade():
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.drop_column('level')
