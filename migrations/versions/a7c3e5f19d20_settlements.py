"""settlements: the purse's append-only log

Revision ID: a7c3e5f19d20
Revises: 5d1c0a7e9b42
Create Date: 2026-12-01 05:00:00.000000

issue 12: who paid whom how much and when, entered by whom; payments, corrections
and voids appended, never changed (the balances are derived).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7c3e5f19d20'
down_revision = '5d1c0a7e9b42'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('settlements',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('circle_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('supersedes', sa.Integer(), nullable=True),
    sa.Column('payer_id', sa.Integer(), nullable=True),
    sa.Column('payee_id', sa.Integer(), nullable=True),
    sa.Column('rappen', sa.Integer(), nullable=True),
    sa.Column('paid_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('entered_by', sa.String(length=40), nullable=True),
    sa.Column('request_id', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('payment', 'correction', 'void')", name=op.f('ck_settlements_kind')),
    sa.CheckConstraint('rappen IS NULL OR rappen > 0', name=op.f('ck_settlements_rappen')),
    sa.ForeignKeyConstraint(['circle_id'], ['circles.id'], name=op.f('fk_settlements_circle_id_circles')),
    sa.ForeignKeyConstraint(['payer_id'], ['players.id'], name=op.f('fk_settlements_payer_id_players')),
    sa.ForeignKeyConstraint(['payee_id'], ['players.id'], name=op.f('fk_settlements_payee_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_settlements')),
    sa.UniqueConstraint('circle_id', 'seq', name=op.f('uq_settlements_circle_id_seq')),
    sa.UniqueConstraint('circle_id', 'request_id', name=op.f('uq_settlements_circle_id_request_id'))
    )
    with op.batch_alter_table('settlements', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_settlements_circle_id'), ['circle_id'], unique=False)


def downgrade():
    with op.batch_alter_table('settlements', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_settlements_circle_id'))

    op.drop_table('settlements')
