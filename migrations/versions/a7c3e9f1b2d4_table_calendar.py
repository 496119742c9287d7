"""a table's calendar: its time zone, its weekly card night and its feed's address

A table's ``zone`` is the IANA time zone its calendar speaks (Europe/Rome until its members
choose); its card night is a weekday, a start time and an optional length in minutes;
``calendar_token`` is the read-only secret in the address of its calendar feed. Revision
a7c3e9f1b2d4, after e4b7c2d9a1f6, of 2026-12-05. Every existing table gets its own random
token.
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision, down_revision = 'a7c3e9f1b2d4', 'e4b7c2d9a1f6'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('calendar_token', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('zone', sa.String(length=64), nullable=False,
                                   server_default='Europe/Rome'))
        batch.add_column(sa.Column('night_weekday', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('night_start', sa.Time(), nullable=True))
        batch.add_column(sa.Column('night_minutes', sa.Integer(), nullable=True))
    tables = sa.table('tables', sa.column('id', sa.String),
                      sa.column('calendar_token', sa.String))
    connection = op.get_bind()
    for (table_id,) in connection.execute(sa.select(tables.c.id)).all():
        connection.execute(tables.update().where(tables.c.id == table_id)
                           .values(calendar_token=secrets.token_urlsafe(16)))
    with op.batch_alter_table('tables') as batch:
        batch.alter_column('calendar_token', existing_type=sa.String(length=32), nullable=False)


def downgrade():
    with op.batch_alter_table('tables') as batch:
        for column in ('night_minutes', 'night_start', 'night_weekday', 'zone', 'calendar_token'):
            batch.drop_column(column)
