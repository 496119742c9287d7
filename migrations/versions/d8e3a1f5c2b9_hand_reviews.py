"""results the other side accepts: a tournament's option, who saved each change, hand reviews

``tournaments.accept`` is the option (off for every tournament made before it);
``changes.device_id`` the phone that made a change (None: unknown, or made before this
revision); ``hand_reviews`` holds each acceptance or rejection of a hand, tied to the change
that last saved it. Revision d8e3a1f5c2b9, after d8a3f5c2e9b1, of 2026-12-05.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'd8e3a1f5c2b9', 'd8a3f5c2e9b1'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('accept', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table('changes') as batch:
        batch.add_column(sa.Column('device_id', sa.Integer(), nullable=True))
        batch.create_foreign_key('fk_changes_device_id_devices', 'devices', ['device_id'],
                                 ['id'], ondelete='SET NULL')
    op.create_table(
        'hand_reviews',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.String(length=24), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('change_id', sa.Integer(), nullable=False),
        sa.Column('verdict', sa.String(length=10), nullable=False),
        sa.Column('name', sa.String(length=30), nullable=True),
        sa.Column('note', sa.String(length=200), nullable=True),
        sa.Column('device_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['device_id'], ['devices.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_hand_reviews_match_id', 'hand_reviews', ['match_id'], unique=False)


def downgrade():
    op.drop_index('ix_hand_reviews_match_id', table_name='hand_reviews')
    op.drop_table('hand_reviews')
    with op.batch_alter_table('changes') as batch:
        batch.drop_constraint('fk_changes_device_id_devices', type_='foreignkey')
        batch.drop_column('device_id')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('accept')
