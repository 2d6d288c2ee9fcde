"""the outlook: stored forecasts per version, and the setting to hide it

Revision ID: a4c2e9f17b30
Revises: a7c3e5f19d20
Create Date: 2026-12-01 05:10:00.000000

issue 13: the win probability of an evening is simulated once per version and stored
(`outlook_forecasts`, keyed by evening and version), so every phone and the API show
the same figure and a poll computes nothing. `evenings.outlook_hidden`: a table that
does not want the outlook (remembered per evening); existing evenings show it.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a4c2e9f17b30'
down_revision = 'a7c3e5f19d20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'outlook_forecasts',
        sa.Column('evening_id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('forecast', sa.JSON(), nullable=False),
        sa.Column('history_hands', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('evening_id', 'version'),
    )
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('outlook_hidden', sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade():
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.drop_column('outlook_hidden')
    op.drop_table('outlook_forecasts')
