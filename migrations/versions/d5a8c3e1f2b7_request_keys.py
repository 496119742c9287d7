"""request keys: the change a request made is stored once, however often it is sent

Revision d5a8c3e1f2b7, after c4e1d2a7b9f0, of 2026-12-01.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'd5a8c3e1f2b7', 'c4e1d2a7b9f0'
branch_labels = depends_on = None


def upgrade():
    op.create_table(
        'request_keys',
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('match_id', sa.String(length=24), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'],
                                name=op.f('fk_request_keys_match_id_matches'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('key', name=op.f('pk_request_keys')))
    op.create_index(op.f('ix_request_keys_created_at'), 'request_keys', ['created_at'])


def downgrade():
    op.drop_index(op.f('ix_request_keys_created_at'), table_name='request_keys')
    op.drop_table('request_keys')
