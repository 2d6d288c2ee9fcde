"""initial schema: circles, players, evenings, seats, entries, cuts, applied requests

Revision ID: 3bc81adb24f3
Revises: 
Create Date: 2026-11-29 13:41:09.243090

Reviewed by hand: every constraint is named (extensions.NAMING_CONVENTION) so that
batch mode can rebuild SQLite tables; there are no server defaults (the app sets them).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3bc81adb24f3'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('circles',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('write_token_hash', sa.String(length=64), nullable=False),
    sa.Column('view_token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_circles')),
    sa.UniqueConstraint('public_id', name=op.f('uq_circles_public_id')),
    sa.UniqueConstraint('view_token_hash', name=op.f('uq_circles_view_token_hash')),
    sa.UniqueConstraint('write_token_hash', name=op.f('uq_circles_write_token_hash'))
    )
    op.create_table('evenings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('circle_id', sa.Integer(), nullable=False),
    sa.Column('ruleset', sa.JSON(), nullable=False),
    sa.Column('first_dealer', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('ended_early', sa.Boolean(), nullable=False),
    sa.Column('start_request_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('open', 'ended')", name=op.f('ck_evenings_status')),
    sa.CheckConstraint('version >= 0', name=op.f('ck_evenings_version')),
    sa.ForeignKeyConstraint(['circle_id'], ['circles.id'], name=op.f('fk_evenings_circle_id_circles')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_evenings')),
    sa.UniqueConstraint('circle_id', 'start_request_id', name=op.f('uq_evenings_circle_id_start_request_id')),
    sa.UniqueConstraint('public_id', name=op.f('uq_evenings_public_id'))
    )
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_evenings_circle_id'), ['circle_id'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('circle_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['circle_id'], ['circles.id'], name=op.f('fk_players_circle_id_circles')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('circle_id', 'name', name=op.f('uq_players_circle_id_name'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_circle_id'), ['circle_id'], unique=False)

    op.create_table('applied_requests',
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=64), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], name=op.f('fk_applied_requests_evening_id_evenings')),
    sa.PrimaryKeyConstraint('evening_id', 'request_id', name=op.f('pk_applied_requests'))
    )
    op.create_table('cuts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('row_key', sa.String(length=40), nullable=False),
    sa.Column('end_', sa.String(length=4), nullable=False),
    sa.Column('ranking', sa.String(length=16), nullable=False),
    sa.Column('winner', sa.Integer(), nullable=False),
    sa.Column('drawn', sa.Boolean(), nullable=False),
    sa.Column('request_id', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("end_ IN ('high', 'low', 'all')", name=op.f('ck_cuts_end')),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], name=op.f('fk_cuts_evening_id_evenings')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cuts'))
    )
    with op.batch_alter_table('cuts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cuts_evening_id'), ['evening_id'], unique=False)

    op.create_table('entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('supersedes', sa.Integer(), nullable=True),
    sa.Column('row_key', sa.String(length=40), nullable=True),
    sa.Column('declarer_seat', sa.Integer(), nullable=True),
    sa.Column('contract', sa.String(length=40), nullable=True),
    sa.Column('declarer_points', sa.Integer(), nullable=True),
    sa.Column('defender_points', sa.Integer(), nullable=True),
    sa.Column('match', sa.Boolean(), nullable=False),
    sa.Column('countermatch', sa.Boolean(), nullable=False),
    sa.Column('seich', sa.Boolean(), nullable=False),
    sa.Column('digital', sa.Boolean(), nullable=False),
    sa.Column('request_id', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('hand', 'correction', 'undo')", name=op.f('ck_entries_kind')),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], name=op.f('fk_entries_evening_id_evenings')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_entries')),
    sa.UniqueConstraint('evening_id', 'request_id', name=op.f('uq_entries_evening_id_request_id')),
    sa.UniqueConstraint('evening_id', 'seq', name=op.f('uq_entries_evening_id_seq'))
    )
    op.create_table('seats',
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], name=op.f('fk_seats_evening_id_evenings')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seats_player_id_players')),
    sa.PrimaryKeyConstraint('evening_id', 'seat', name=op.f('pk_seats')),
    sa.UniqueConstraint('evening_id', 'player_id', name=op.f('uq_seats_evening_id_player_id'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_player_id'), ['player_id'], unique=False)



def downgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_player_id'))

    op.drop_table('seats')
    op.drop_table('entries')
    with op.batch_alter_table('cuts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cuts_evening_id'))

    op.drop_table('cuts')
    op.drop_table('applied_requests')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_circle_id'))

    op.drop_table('players')
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evenings_circle_id'))

    op.drop_table('evenings')
    op.drop_table('circles')
