"""request digests: the same request id with another body is refused

Revision ID: c4a9e2d7b1f3
Revises: a4c2e9f17b30
Create Date: 2026-12-01 05:10:00.000000

issue 10: a write's request id made a repeat a no-op, even when the repeat asked for
something else (the hand was silently dropped). The digest of what each applied
request asked is kept next to it (and an evening's start request next to the
evening), so the same id with another body answers 422 ``request_id_reused``.
Requests applied before have no digest (NULL) and are compared by their action only.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4a9e2d7b1f3'
down_revision = 'a4c2e9f17b30'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('applied_requests', schema=None) as batch_op:
        batch_op.add_column(sa.Column('digest', sa.String(length=64), nullable=True))
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('start_digest', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.drop_column('start_digest')
    with op.batch_alter_table('applied_requests', schema=None) as batch_op:
        batch_op.drop_column('digest')
