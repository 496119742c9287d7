"""${message}

Revision ${up_revision}, after ${down_revision | comma,n}, of ${create_date.date()}.
"""
import sqlalchemy as sa
from alembic import op
${imports if imports else ""}
revision, down_revision = ${repr(up_revision)}, ${repr(down_revision)}
branch_labels, depends_on = ${repr(branch_labels)}, ${repr(depends_on)}


def upgrade():
    ${upgrades if upgrades else "pass"}


def downgrade():
    ${downgrades if downgrades else "pass"}
