"""abandoned matches: kept and listed as abandoned until deleted

Revision 981905bcd340, after 3f7c2a91d6e0, of 2026-11-30.
"""
from alembic import op
import sqlalchemy as sa


revision, down_revision = '981905bcd340', '3f7c2a91d6e0'
branch_labels = depends_on = None


def _home_indexes():
    """SQLite rebuilds the table and loses the DESC of the home lists' indexes (a reflected
    index has no order): they are made again, so that a page of matches stays one indexed
    read however many matches a table holds."""
    op.drop_index('ix_matches_home', table_name='matches')
    op.drop_index('ix_matches_table', table_name='matches')
    op.create_index('ix_matches_home', 'matches', ['finished', sa.text('updated_at DESC')])
    op.create_index('ix_matches_table', 'matches',
                    ['table_id', 'finished', sa.text('updated_at DESC')])


def upgrade():
    # sa.false() is FALSE on PostgreSQL and 0 on SQLite: every existing match is in play.
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('abandoned', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    _home_indexes()


def downgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('abandoned')
    _home_indexes()
