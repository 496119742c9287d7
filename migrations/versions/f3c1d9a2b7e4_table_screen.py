"""the table's screen address

A table's ``screen_token`` is the read-only secret in the address of its screen, the page
that follows whichever match the table plays now. Revision f3c1d9a2b7e4, after
e7b2f4a9c1d3, of 2026-12-02. Every existing table gets its own random token.
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision, down_revision = 'f3c1d9a2b7e4', 'e7b2f4a9c1d3'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('screen_token', sa.String(length=32), nullable=True))
    tables = sa.table('tables', sa.column('id', sa.String), sa.column('screen_token', sa.String))
    connection = op.get_bind()
    for (table_id,) in connection.execute(sa.select(tables.c.id)).all():
        connection.execute(tables.update().where(tables.c.id == table_id)
                           .values(screen_token=secrets.token_urlsafe(16)))
    with op.batch_alter_table('tables') as batch:
        batch.alter_column('screen_token', existing_type=sa.String(length=32), nullable=False)


def downgrade():
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('screen_token')
