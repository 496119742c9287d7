"""table cards: invitations several phones may use, until withdrawn

A table card is an invitation printed to stand on the table: it admits up to
``max_uses`` phones (``uses`` counts them) until it expires or a member withdraws it
(``withdrawn_at``). A single-use invitation keeps ``max_uses`` empty. Revision
a6d2e8f4c1b9, after f3c1d9a2b7e4, of 2026-12-02.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'a6d2e8f4c1b9', 'f3c1d9a2b7e4'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('invitations') as batch:
        batch.add_column(sa.Column('max_uses', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('uses', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('withdrawn_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('invitations') as batch:
        batch.drop_column('withdrawn_at')
        batch.drop_column('uses')
        batch.drop_column('max_uses')
