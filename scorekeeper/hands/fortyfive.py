"""fortyfive at the table (to be written)."""

from flask import Blueprint

bp = Blueprint("fortyfive", __name__)
