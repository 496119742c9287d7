"""the round's clock: a tournament's round length and "last deal" warning, a round's start

``round_minutes`` is the length of every round (None: no clock), ``warning_minutes`` how long
before its end "last deal" is announced; a round's ``started_at`` is when it was seated (UTC),
from which the time left is worked out. Revision b3f8d1e6a2c7, after b5e2d8a4c6f1, of
2026-12-05. Rounds seated before keep no start: they have no clock.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'b3f8d1e6a2c7', 'b5e2d8a4c6f1'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('round_minutes', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('warning_minutes', sa.Integer(), nullable=False,
                                   server_default='5'))
    with op.batch_alter_table('tournament_rounds') as batch:
        batch.add_column(sa.Column('started_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournament_rounds') as batch:
        batch.drop_column('started_at')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('warning_minutes')
        batch.drop_column('round_minutes')
