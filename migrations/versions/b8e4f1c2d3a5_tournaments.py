"""tournaments: a tournament evening, its entrants, rounds and tables; phones that keep one match

Revision b8e4f1c2d3a5, after a6d2e8f4c1b9, of 2026-12-02.
"""
import sqlalchemy as sa
from alembic import op

revision, down_revision = 'b8e4f1c2d3a5', 'a6d2e8f4c1b9'
branch_labels = depends_on = None


def upgrade():
    op.create_table(
        'tournaments',
        sa.Column('id', sa.String(24), primary_key=True),
        sa.Column('table_id', sa.String(24), sa.ForeignKey('tables.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('name', sa.String(60), nullable=False),
        sa.Column('game', sa.String(20), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('format', sa.String(10), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('pairs', sa.Boolean(), nullable=False),
        sa.Column('go_on', sa.Integer(), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
    )
    op.create_index('ix_tournaments_table_id', 'tournaments', ['table_id'])
    op.create_table(
        'entrants',
        sa.Column('tournament_id', sa.String(24),
                  sa.ForeignKey('tournaments.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('number', sa.Integer(), primary_key=True),
        sa.Column('names', sa.JSON(), nullable=False),
        sa.Column('withdrawn', sa.Integer(), nullable=True),
    )
    op.create_table(
        'tournament_rounds',
        sa.Column('tournament_id', sa.String(24),
                  sa.ForeignKey('tournaments.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('number', sa.Integer(), primary_key=True),
        sa.Column('sitting_out', sa.JSON(), nullable=False),
        sa.Column('final', sa.Boolean(), nullable=False),
        sa.Column('closed', sa.Boolean(), nullable=False),
    )
    op.create_table(
        'tournament_tables',
        sa.Column('tournament_id', sa.String(24),
                  sa.ForeignKey('tournaments.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('round', sa.Integer(), primary_key=True),
        sa.Column('number', sa.Integer(), primary_key=True),
        sa.Column('entrants', sa.JSON(), nullable=False),
        sa.Column('dealer', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.String(24), sa.ForeignKey('matches.id', ondelete='SET NULL'),
                  nullable=True, unique=True),
        sa.Column('token', sa.String(32), nullable=False, unique=True),
    )
    op.create_table(
        'match_keepers',
        sa.Column('match_id', sa.String(24), sa.ForeignKey('matches.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('device_id', sa.Integer(), sa.ForeignKey('devices.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('joined_at', sa.DateTime(), nullable=False),
    )
    op.create_index('ix_match_keepers_device_id', 'match_keepers', ['device_id'])


def downgrade():
    op.drop_index('ix_match_keepers_device_id', 'match_keepers')
    op.drop_table('match_keepers')
    op.drop_table('tournament_tables')
    op.drop_table('tournament_rounds')
    op.drop_table('entrants')
    op.drop_index('ix_tournaments_table_id', 'tournaments')
    op.drop_table('tournaments')
