"""api tokens: read tokens of a table's API, withdrawable

A member makes a read token for the table; only the sha256 of its secret is stored
(``token_hash``). It reads that table through /api/v1/ until withdrawn
(``withdrawn_at``). Revision b5e2d8a4c6f1, after a7c3e9f1b2d4, of 2026-12-05.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'b5e2d8a4c6f1', 'a7c3e9f1b2d4'
branch_labels = depends_on = None


def upgrade():
    op.create_table(
        'api_tokens',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('table_id', sa.String(24), sa.ForeignKey('tables.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('name', sa.String(30), nullable=False),
        sa.Column('token_hash', sa.String(64), nullable=False, unique=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('withdrawn_at', sa.DateTime(), nullable=True),
        sa.Column('last_used_at', sa.DateTime(), nullable=True),
    )
    op.create_index('ix_api_tokens_table_id', 'api_tokens', ['table_id'])


def downgrade():
    op.drop_index('ix_api_tokens_table_id', table_name='api_tokens')
    op.drop_table('api_tokens')
