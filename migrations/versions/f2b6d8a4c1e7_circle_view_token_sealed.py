"""circles.view_token_sealed: the onlookers' link, sealed under the write link

Revision ID: f2b6d8a4c1e7
Revises: d3a7c5e1f920
Create Date: 2026-12-01 23:40:00.000000

issue 20.12: the circle page shows the onlookers' link and its QR code to whoever holds the
write link. Links are stored hashed, so the onlookers' token is kept sealed under the write
token (``services.store.link_seal``): the database alone opens nothing. NULL for existing circles
(their page offers to make a new onlookers' link, which is then kept). Not exported.

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "f2b6d8a4c1e7"
down_revision = "d3a7c5e1f920"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("circles") as batch:
        batch.add_column(sa.Column("view_token_sealed", sa.String(length=128), nullable=True))


def downgrade():
    with op.batch_alter_table("circles") as batch:
        batch.drop_column("view_token_sealed")
