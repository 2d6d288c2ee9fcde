"""circles.house_rules: a circle's own rule set, the default of its next evening

Revision ID: b3e9d1c7a524
Revises: f2b6d8a4c017
Create Date: 2026-12-02 07:00:00.000000

issue 24: every Jass group plays its own Coiffeur. A circle keeps its house rules as the
snapshot ``RuleSet.to_dict()`` (the same shape an evening stores); NULL until it saves one.
Each evening keeps the rules it was played with: changing the house rules rewrites no evening.

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "b3e9d1c7a524"
down_revision = "f2b6d8a4c017"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("circles") as batch:
        batch.add_column(sa.Column("house_rules", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("circles") as batch:
        batch.drop_column("house_rules")
