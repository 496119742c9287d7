"""no edit key: membership of a table gives the right to edit, the key was never read

Revision ID: c4e1d2a7b9f0
Revises: 981905bcd340
Create Date: 2026-12-01 18:00:00

"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = 'c4e1d2a7b9f0'
down_revision = '981905bcd340'
branch_labels = None
depends_on = None


def _home_indexes():
    """SQLite rebuilds the table and loses the DESC of the home lists' indexes: they are made
    again (see 981905bcd340)."""
    op.drop_index('ix_matches_home', table_name='matches')
    op.drop_index('ix_matches_table', table_name='matches')
    op.create_index('ix_matches_home', 'matches', ['finished', sa.text('updated_at DESC')])
    op.create_index('ix_matches_table', 'matches',
                    ['table_id', 'finished', sa.text('updated_at DESC')])


def upgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('edit_key')
    _home_indexes()


def downgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('edit_key', sa.String(length=32), nullable=True))
    matches = sa.table('matches', sa.column('id', sa.String), sa.column('edit_key', sa.String))
    connection = op.get_bind()
    for (match_id,) in connection.execute(sa.select(matches.c.id)).all():
        connection.execute(matches.update().where(matches.c.id == match_id)
                           .values(edit_key=secrets.token_urlsafe(16)))
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.alter_column('edit_key', existing_type=sa.String(length=32), nullable=False)
    _home_indexes()
