"""who comes and goes during a match: its joins, sit-outs, substitutes and leavers, in order

Revision d2e6a1c8f4b3, after c9d4e2b7a1f3, of 2026-12-04.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'd2e6a1c8f4b3', 'c9d4e2b7a1f3'
branch_labels = depends_on = None


def upgrade():
    # Every match played before kept its players from the first hand to the last.
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('roster', sa.JSON(), server_default='[]',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('roster')
