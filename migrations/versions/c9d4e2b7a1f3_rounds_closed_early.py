"""rounds closed early: the tables a round's closing set aside, for reopening it

Revision c9d4e2b7a1f3, after c7f2a4d9e1b6, of 2026-12-04.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'c9d4e2b7a1f3', 'c7f2a4d9e1b6'
branch_labels = depends_on = None


def upgrade():
    # Every round closed before kept no such list: none of its tables comes back into play.
    with op.batch_alter_table('tournament_rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('closed_early', sa.JSON(), server_default='[]',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('tournament_rounds', schema=None) as batch_op:
        batch_op.drop_column('closed_early')
