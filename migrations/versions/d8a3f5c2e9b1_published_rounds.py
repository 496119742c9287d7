"""a drawn round is published by the organiser: a round's ``published_at`` and ``swaps``, a
table's ``checked_in_at``

A round seated is drawn for the organiser's phones only until it is published; before that
the organiser may swap two entrants (each swap kept as a pair of entrant numbers). A table's
``checked_in_at`` is when a phone first scanned its code. Revision d8a3f5c2e9b1, after
c4a9e2f7b1d5, of 2026-12-05. Rounds seated before were shown at once: they are published
when they were seated (or now, for those seated before clocks).
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'd8a3f5c2e9b1', 'c4a9e2f7b1d5'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('tournament_rounds') as batch:
        batch.add_column(sa.Column('published_at', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('swaps', sa.JSON(), nullable=False, server_default='[]'))
    with op.batch_alter_table('tournament_tables') as batch:
        batch.add_column(sa.Column('checked_in_at', sa.DateTime(), nullable=True))
    rounds = sa.table('tournament_rounds', sa.column('published_at', sa.DateTime()),
                      sa.column('started_at', sa.DateTime()))
    op.execute(rounds.update().values(
        published_at=sa.func.coalesce(rounds.c.started_at, sa.func.current_timestamp())))


def downgrade():
    with op.batch_alter_table('tournament_tables') as batch:
        batch.drop_column('checked_in_at')
    with op.batch_alter_table('tournament_rounds') as batch:
        batch.drop_column('swaps')
        batch.drop_column('published_at')
