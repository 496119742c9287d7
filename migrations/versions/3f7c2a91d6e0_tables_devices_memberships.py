"""tables, devices, memberships, invitations; players and matches belong to a table

Every existing match becomes a table of its own, with its own copy of its players: who may
edit a match was only known to the browsers' cookies, so no two matches can be put in one
table without handing one browser's matches to another. A browser's old cookie (the list of
match ids in ``session["edit"]``) is turned into membership of those tables on its next
visit (scorekeeper.web.access.current_device).

Revision 3f7c2a91d6e0, after 515827dbc0a7, of 2026-11-30.
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision, down_revision = '3f7c2a91d6e0', '515827dbc0a7'
branch_labels = depends_on = None

TABLE_NAME_LENGTH = 60


def _key(name):
    return name.strip().casefold()


def upgrade():
    op.create_table(
        'tables',
        sa.Column('id', sa.String(length=24), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('secret', sa.String(length=32), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tables')))
    op.create_table(
        'devices',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_devices')),
        sa.UniqueConstraint('token', name=op.f('uq_devices_token')))
    op.create_table(
        'memberships',
        sa.Column('table_id', sa.String(length=24), nullable=False),
        sa.Column('device_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=30), nullable=True),
        sa.Column('joined_at', sa.DateTime(), nullable=False),
        sa.Column('last_seen', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['device_id'], ['devices.id'],
                                name=op.f('fk_memberships_device_id_devices'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'],
                                name=op.f('fk_memberships_table_id_tables'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', 'device_id', name=op.f('pk_memberships')))
    op.create_index(op.f('ix_memberships_device_id'), 'memberships', ['device_id'])
    op.create_table(
        'invitations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.String(length=24), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('used_at', sa.DateTime(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'],
                                name=op.f('fk_invitations_table_id_tables'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_invitations')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_invitations_token_hash')))
    op.create_index(op.f('ix_invitations_table_id'), 'invitations', ['table_id'])

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint('uq_players_name', type_='unique')
        batch_op.add_column(sa.Column('table_id', sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column('key', sa.String(length=120), nullable=True))
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_id', sa.String(length=24), nullable=True))

    _move_matches_into_tables(op.get_bind())

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('table_id', existing_type=sa.String(length=24), nullable=False)
        batch_op.alter_column('key', existing_type=sa.String(length=120), nullable=False)
        batch_op.create_foreign_key(batch_op.f('fk_players_table_id_tables'), 'tables',
                                    ['table_id'], ['id'], ondelete='CASCADE')
        batch_op.create_unique_constraint(batch_op.f('uq_players_table_id'), ['table_id', 'key'])
        batch_op.create_index(batch_op.f('ix_players_table_id'), ['table_id'], unique=False)
    # SQLite rebuilds the table, and cannot copy an index on an expression: made again after.
    op.drop_index('ix_matches_home', table_name='matches')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.alter_column('table_id', existing_type=sa.String(length=24), nullable=False)
        batch_op.create_foreign_key(batch_op.f('fk_matches_table_id_tables'), 'tables',
                                    ['table_id'], ['id'], ondelete='CASCADE')
    op.create_index('ix_matches_home', 'matches', ['finished', sa.text('updated_at DESC')])
    op.create_index('ix_matches_table', 'matches',
                    ['table_id', 'finished', sa.text('updated_at DESC')])


def _move_matches_into_tables(connection):
    """A table per match, named after its players, with its own copy of them."""
    tables = sa.table('tables', sa.column('id', sa.String), sa.column('name', sa.String),
                      sa.column('secret', sa.String), sa.column('version', sa.Integer),
                      sa.column('created_at', sa.DateTime), sa.column('updated_at', sa.DateTime))
    matches = sa.table('matches', sa.column('id', sa.String), sa.column('table_id', sa.String),
                       sa.column('version', sa.Integer), sa.column('created_at', sa.DateTime),
                       sa.column('updated_at', sa.DateTime))
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String),
                       sa.column('table_id', sa.String), sa.column('key', sa.String),
                       sa.column('created_at', sa.DateTime))
    seats = sa.table('seats', sa.column('match_id', sa.String), sa.column('seat', sa.Integer),
                     sa.column('player_id', sa.Integer))
    names = {row.id: (row.name, row.created_at) for row in connection.execute(
        sa.select(players.c.id, players.c.name, players.c.created_at)).all()}
    # New ids follow the old ones (a sequence need not know ids inserted by hand).
    next_id = max(names, default=0) + 1
    for match in connection.execute(sa.select(matches.c.id, matches.c.version,
                                              matches.c.created_at, matches.c.updated_at)
                                    .order_by(matches.c.created_at, matches.c.id)).all():
        match_seats = connection.execute(
            sa.select(seats.c.seat, seats.c.player_id).where(seats.c.match_id == match.id)
            .order_by(seats.c.seat)).all()
        table_id = secrets.token_urlsafe(12)
        title = ", ".join(names[s.player_id][0] for s in match_seats)[:TABLE_NAME_LENGTH]
        connection.execute(tables.insert().values(
            id=table_id, name=title or "Scorekeeper", secret=secrets.token_urlsafe(16),
            version=match.version, created_at=match.created_at,
            updated_at=match.updated_at))
        connection.execute(matches.update().where(matches.c.id == match.id)
                           .values(table_id=table_id))
        for s in match_seats:
            name, created = names[s.player_id]
            connection.execute(players.insert().values(
                id=next_id, name=name, key=_key(name), table_id=table_id, created_at=created))
            connection.execute(seats.update().where(seats.c.match_id == match.id,
                                                    seats.c.seat == s.seat)
                               .values(player_id=next_id))
            next_id += 1
    # The instance-wide list is gone: a player now belongs to the tables that played.
    connection.execute(players.delete().where(players.c.table_id.is_(None)))
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text(
            "SELECT setval(pg_get_serial_sequence('players', 'id'),"
            " (SELECT COALESCE(MAX(id), 0) + 1 FROM players), false)"))


def downgrade():
    connection = op.get_bind()
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String),
                       sa.column('key', sa.String))
    seats = sa.table('seats', sa.column('player_id', sa.Integer))
    # One instance-wide player per name again: the oldest of each spelling stays.
    kept = {}
    for row in connection.execute(sa.select(players.c.id, players.c.key)
                                  .order_by(players.c.id)).all():
        if row.key in kept:
            connection.execute(seats.update().where(seats.c.player_id == row.id)
                               .values(player_id=kept[row.key]))
            connection.execute(players.delete().where(players.c.id == row.id))
        else:
            kept[row.key] = row.id
    op.drop_index('ix_matches_table', table_name='matches')
    op.drop_index('ix_matches_home', table_name='matches')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_matches_table_id_tables'), type_='foreignkey')
        batch_op.drop_column('table_id')
    op.create_index('ix_matches_home', 'matches', ['finished', sa.text('updated_at DESC')])
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_table_id'))
        batch_op.drop_constraint(batch_op.f('uq_players_table_id'), type_='unique')
        batch_op.drop_constraint(batch_op.f('fk_players_table_id_tables'), type_='foreignkey')
        batch_op.drop_column('key')
        batch_op.drop_column('table_id')
        batch_op.create_unique_constraint(batch_op.f('uq_players_name'), ['name'])
    op.drop_index(op.f('ix_invitations_table_id'), table_name='invitations')
    op.drop_table('invitations')
    op.drop_index(op.f('ix_memberships_device_id'), table_name='memberships')
    op.drop_table('memberships')
    op.drop_table('devices')
    op.drop_table('tables')
