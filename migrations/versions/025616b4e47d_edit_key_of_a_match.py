"""edit key of a match: the secret that hands the edit right to another phone

Revision 025616b4e47d, after 8b477b266037, of 2026-11-30.
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision, down_revision = '025616b4e47d', '8b477b266037'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('edit_key', sa.String(length=32), nullable=True))
    matches = sa.table('matches', sa.column('id', sa.String), sa.column('edit_key', sa.String))
    connection = op.get_bind()
    for (match_id,) in connection.execute(sa.select(matches.c.id)).all():
        connection.execute(matches.update().where(matches.c.id == match_id)
                           .values(edit_key=secrets.token_urlsafe(16)))
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.alter_column('edit_key', existing_type=sa.String(length=32), nullable=False)


def downgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('edit_key')
