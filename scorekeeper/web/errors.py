"""Error pages: what went wrong in the user's language, never a bare server page."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from ..rules import N_
from .api import PREFIX

TITLES = {
    400: N_("The request is not valid."),
    401: N_("Give a read token of the table."),
    403: N_("You may not change this match."),
    404: N_("Not found."),
    405: N_("That is not allowed here."),
    409: N_("Already recorded."),
}


def handle(error: HTTPException):
    """A page with the error's message (or a plain one for its status)."""
    code = error.code or 500
    default = error.description if type(error).description != error.description else None
    message = default or _(TITLES.get(code, N_("Something went wrong.")))
    if code == 413:
        message = _("Too much was sent at once (at most %(size)s here): reload the page and "
                    "try again with a smaller entry or file.",
                    size=f"{(request.max_content_length or 0) // 1024:,} KB")
    if request.path.startswith(PREFIX):  # a program reads it: JSON, never a page
        response = jsonify(error=message)
        response.status_code = code
        if code == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
        elif code == 405:
            response.headers["Allow"] = "GET, HEAD"
        return response
    return render_template("errors/error.html", code=code, message=message), code


def init_app(app: Flask) -> None:
    """Send every HTTP error through :func:`handle`."""
    app.register_error_handler(HTTPException, handle)

