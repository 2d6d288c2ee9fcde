"""entries.author: who recorded a hand, correction or undo

Revision ID: 78e37e143c8a
Revises: 3bc81adb24f3
Create Date: 2026-11-29 13:45:23.427884

RULES 7: a correction records who, when, old and new value. Nullable: rows written
before this revision have no author. On SQLite the downgrade rebuilds `entries`
(batch mode, foreign keys off: see env.py); tests/migrations checks no row is lost.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '78e37e143c8a'
down_revision = '3bc81adb24f3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('author', sa.String(length=40), nullable=True))


def downgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_column('author')
