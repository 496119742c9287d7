"""matches by table and start: the newest match a table started after another; whose phone

A page of a match asks, with every poll, whether its table has started a newer match since
(scorekeeper.web.pages.STATE): one probe of this index, however many matches the table has
played. A phone at a table says whose it is (``owner``: "Bruno's phone"); the name a phone
gave itself before (``name``, "Kitchen phone") stays and is shown as it was typed. Revision c4a9e2f7b1d5, after b3f8d1e6a2c7, of 2026-12-05.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'c4a9e2f7b1d5', 'b3f8d1e6a2c7'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('matches') as batch:
        batch.create_index('ix_matches_table_created', ['table_id', 'created_at'], unique=False)
    with op.batch_alter_table('memberships') as batch:
        batch.add_column(sa.Column('owner', sa.String(length=30), nullable=True))


def downgrade():
    with op.batch_alter_table('memberships') as batch:
        batch.drop_column('owner')
    with op.batch_alter_table('matches') as batch:
        batch.drop_index('ix_matches_table_created')
