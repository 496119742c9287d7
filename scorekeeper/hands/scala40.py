"""scala40 at the table (to be written)."""

from flask import Blueprint

bp = Blueprint("scala40", __name__)
