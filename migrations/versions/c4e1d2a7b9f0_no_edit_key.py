"""no edit key: membership of a table gives the right to edit; the key was never read

Revision c4e1d2a7b9f0, after 981905bcd340, of 2026-12-01. SQLite (3.35 and newer) and
PostgreSQL drop the column in place: the table and its indexes are not rebuilt. A
downgrade brings the column back empty.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'c4e1d2a7b9f0', '981905bcd340'
branch_labels = depends_on = None


def upgrade():
    op.drop_column('matches', 'edit_key')


def downgrade():
    op.add_column('matches', sa.Column('edit_key', sa.String(length=32), nullable=True))
