"""quarantotto at the table (to be written)."""

from flask import Blueprint

bp = Blueprint("quarantotto", __name__)
