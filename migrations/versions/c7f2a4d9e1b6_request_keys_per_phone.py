"""request keys per phone and match, with the hash of the request

A request key belongs to the phone that sent it (``device_id``, None: a phone without a
device on an open install) and to its match, and records the hash of what the request asked
(``request_hash``): another phone's key, or the same key for another match, is a new
request; the same key with another body is refused. Revision c7f2a4d9e1b6, after
b8e4f1c2d3a5, of 2026-12-04.

The table is made again, without its rows, both ways: a stored key says neither which phone
sent it nor what it asked, and none is worth keeping (a key serves a tap sent again within
minutes, and is forgotten after a day; a tap stored just before the upgrade and sent again
after it is refused by its form's version, which that tap moved on). Making the table again
also changes its primary key (a surrogate id: ``device_id`` may be NULL) the same way on
SQLite and PostgreSQL, where no batch copy of old rows is needed.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'c7f2a4d9e1b6', 'b8e4f1c2d3a5'
branch_labels = depends_on = None


def _drop():
    op.drop_index(op.f('ix_request_keys_created_at'), table_name='request_keys')
    op.drop_table('request_keys')


def upgrade():
    _drop()
    op.create_table(
        'request_keys',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('match_id', sa.String(length=24), nullable=False),
        sa.Column('device_id', sa.Integer(), nullable=True),
        sa.Column('request_hash', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'],
                                name=op.f('fk_request_keys_match_id_matches'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['device_id'], ['devices.id'],
                                name=op.f('fk_request_keys_device_id_devices'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_request_keys')),
        sa.UniqueConstraint('key', 'match_id', 'device_id', name=op.f('uq_request_keys_key')))
    op.create_index(op.f('ix_request_keys_created_at'), 'request_keys', ['created_at'])
    op.create_index(op.f('ix_request_keys_device_id'), 'request_keys', ['device_id'])


def downgrade():
    op.drop_index(op.f('ix_request_keys_device_id'), table_name='request_keys')
    _drop()
    op.create_table(
        'request_keys',
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('match_id', sa.String(length=24), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'],
                                name=op.f('fk_request_keys_match_id_matches'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('key', name=op.f('pk_request_keys')))
    op.create_index(op.f('ix_request_keys_created_at'), 'request_keys', ['created_at'])
