"""digital table: tables, seats, hands, actions

Revision ID: 70dc89df073f
Revises: 78e37e143c8a
Create Date: 2026-11-29 13:49:23.965784

Issue 4. A digital table deals hands for an evening; every action is an append-only
row (hand, seq), the engine state is rebuilt by replaying them. Seat tokens are
stored as sha256 only. New tables only: the downgrade drops them.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '70dc89df073f'
down_revision = '78e37e143c8a'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('digital_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('open', 'closed')", name=op.f('ck_digital_tables_status')),
    sa.CheckConstraint('version >= 0', name=op.f('ck_digital_tables_version')),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], name=op.f('fk_digital_tables_evening_id_evenings')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_digital_tables')),
    sa.UniqueConstraint('public_id', name=op.f('uq_digital_tables_public_id'))
    )
    with op.batch_alter_table('digital_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_digital_tables_evening_id'), ['evening_id'], unique=False)

    op.create_table('table_hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('dealer', sa.Integer(), nullable=False),
    sa.Column('deck', sa.JSON(), nullable=False),
    sa.Column('open_rows', sa.JSON(), nullable=False),
    sa.Column('seich_used', sa.JSON(), nullable=False),
    sa.Column('slate_version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['digital_tables.id'], name=op.f('fk_table_hands_table_id_digital_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_table_hands')),
    sa.UniqueConstraint('table_id', 'number', name=op.f('uq_table_hands_table_id_number'))
    )
    with op.batch_alter_table('table_hands', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_hands_table_id'), ['table_id'], unique=False)

    op.create_table('table_seats',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('computer', sa.Boolean(), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['digital_tables.id'], name=op.f('fk_table_seats_table_id_digital_tables')),
    sa.PrimaryKeyConstraint('table_id', 'seat', name=op.f('pk_table_seats')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_table_seats_token_hash'))
    )
    op.create_table('table_actions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('action', sa.Integer(), nullable=False),
    sa.Column('computer', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['table_hands.id'], name=op.f('fk_table_actions_hand_id_table_hands')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_table_actions')),
    sa.UniqueConstraint('hand_id', 'seq', name=op.f('uq_table_actions_hand_id_seq'))
    )


def downgrade():
    op.drop_table('table_actions')
    op.drop_table('table_seats')
    with op.batch_alter_table('table_hands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_table_hands_table_id'))

    op.drop_table('table_hands')
    with op.batch_alter_table('digital_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_digital_tables_evening_id'))

    op.drop_table('digital_tables')
