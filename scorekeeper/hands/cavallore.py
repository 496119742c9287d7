"""cavallore at the table (to be written)."""

from flask import Blueprint

bp = Blueprint("cavallore", __name__)
