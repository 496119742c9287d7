"""keepers, invitations' makers, uploaded matches' origins

Keepers are the phones that may remove others; an invitation knows the phone that made it;
a match an upload stored under a new address keeps the one it came with. Revision e7b2f4a9c1d3, after d5a8c3e1f2b7, of 2026-12-01. The phone that joined each table
first (the one that made it) becomes its keeper.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'e7b2f4a9c1d3', 'd5a8c3e1f2b7'
branch_labels = depends_on = None


def upgrade():
    with op.batch_alter_table('memberships') as batch:
        batch.add_column(sa.Column('keeper', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table('invitations') as batch:
        batch.add_column(sa.Column('device_id', sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f('fk_invitations_device_id_devices'), 'devices',
                                 ['device_id'], ['id'], ondelete='CASCADE')
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('origin', sa.String(length=24), nullable=True))
        batch.create_index(op.f('ix_matches_origin'), ['origin'])
    memberships = sa.table('memberships', sa.column('table_id', sa.String),
                           sa.column('device_id', sa.Integer),
                           sa.column('joined_at', sa.DateTime), sa.column('keeper', sa.Boolean))
    connection = op.get_bind()
    rows = connection.execute(sa.select(memberships.c.table_id, memberships.c.device_id)
                              .order_by(memberships.c.table_id, memberships.c.joined_at,
                                        memberships.c.device_id)).all()
    founders, seen = [], set()
    for table_id, device_id in rows:
        if table_id not in seen:
            seen.add(table_id)
            founders.append((table_id, device_id))
    for table_id, device_id in founders:
        connection.execute(memberships.update().where(
            memberships.c.table_id == table_id, memberships.c.device_id == device_id)
            .values(keeper=True))


def downgrade():
    with op.batch_alter_table('matches') as batch:
        batch.drop_index(op.f('ix_matches_origin'))
        batch.drop_column('origin')
    with op.batch_alter_table('invitations') as batch:
        batch.drop_constraint(op.f('fk_invitations_device_id_devices'), type_='foreignkey')
        batch.drop_column('device_id')
    with op.batch_alter_table('memberships') as batch:
        batch.drop_column('keeper')
