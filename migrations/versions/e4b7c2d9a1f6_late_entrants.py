"""late entrants: the rounds already seated when an entrant joined a Danish evening

Revision e4b7c2d9a1f6, after d2e6a1c8f4b3, of 2026-12-04.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'e4b7c2d9a1f6', 'd2e6a1c8f4b3'
branch_labels = depends_on = None


def upgrade():
    # Every entrant so far was entered before round 1.
    with op.batch_alter_table('entrants', schema=None) as batch_op:
        batch_op.add_column(sa.Column('joined', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('entrants', schema=None) as batch_op:
        batch_op.drop_column('joined')
