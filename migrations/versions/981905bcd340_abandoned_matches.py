"""abandoned matches: kept and listed as abandoned until deleted

Revision ID: 981905bcd340
Revises: 3f7c2a91d6e0
Create Date: 2026-11-30 16:01:31.670078

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '981905bcd340'
down_revision = '3f7c2a91d6e0'
branch_labels = None
depends_on = None


def upgrade():
    # sa.false() is FALSE on PostgreSQL and 0 on SQLite: every existing match is in play.
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('abandoned', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('abandoned')
