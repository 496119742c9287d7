"""The ``scorekeeper`` command: serve the table, export and import backups.

Installed by ``pip install .`` (or ``pipx install .``) from ``[project.scripts]``. The
app's own Flask commands (``export``, ``import``, ``db``) come along, so the command reads the
same settings (``DATABASE_URL``, ``instance/config.py``) as the server.
"""

from __future__ import annotations

import click
from flask.cli import FlaskGroup

from . import create_app
from .config import ROOT


def _checkout() -> None:
    """Templates, static files and migrations sit in the checkout, or in <prefix>/share."""
    if not (ROOT / "templates").is_dir():
        raise click.UsageError(f"no templates in {ROOT}: install Scorekeeper with "
                               "`pip install .` or `pipx install .` from its checkout")


def _app():
    _checkout()
    return create_app()


main = FlaskGroup(
    name="scorekeeper", create_app=_app, add_default_commands=False, add_version_option=False,
    load_dotenv=False, help="Keeps score at a real card table: serve it, back it up.")
# The app is always this one: Flask's --app, --env-file and --debug would only confuse.
main.params.clear()


# Without an app context: the server builds its own app (scorekeeper.serve.Server.load), and
# every worker forked from it would hold a second one, Flask's for the command.
@main.command("serve", with_appcontext=False)
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The interface to listen on; 0.0.0.0 lets the phones on the network in.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64))
@click.option("--access-log", is_flag=True,
              help="Print a line for every request, every phone's poll every few seconds too.")
def serve_command(host: str, port: int, workers: int, access_log: bool) -> None:
    """Serve the table under gunicorn and print the address phones open, with a QR code."""
    from .serve import serve

    _checkout()
    serve(host, port, workers, access_log=access_log)


if __name__ == "__main__":  # python -m scorekeeper.cli, as the tests run it
    main()
