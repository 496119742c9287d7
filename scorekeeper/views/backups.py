"""Backups: this phone's tables as a file and back, and every table of the instance from the
command line (``flask export FILE``, ``flask import FILE``)."""

from __future__ import annotations

import click
from flask import Blueprint, Response, current_app, render_template, request
from flask_babel import gettext as _
from sqlalchemy import func, select

from ..db import db
from ..engine.backups import (
    COMMAND_LINE,
    BackupError,
    export_text,
    import_matches,
    read_backup,
)
from ..models import Match
from ..web.access import current_device, my_table_ids

bp = Blueprint("backups", __name__, cli_group=None)


@bp.get("/backup.json")
def backup_json():
    """This phone's tables with their matches (every table on an open install), as a file."""
    data = "".join(export_text(my_table_ids()))
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": 'attachment; filename="scorekeeper-backup.json"'})


@bp.route("/backup", methods=["GET", "POST"])
def restore():
    """Download a backup, or add the matches of one to this instance."""
    result = None
    status = 200
    if request.method == "POST":
        upload = request.files.get("file")
        try:
            if upload is None or not upload.filename:
                raise BackupError(_("Choose a backup file."))
            copies: list[tuple[str, str]] = []
            changed: list[str] = []
            rejoined: list[str] = []
            added, skipped, problems = import_matches(
                read_backup(upload.read()), joining=lambda: current_device(create=True),
                copies=copies, changed=changed, rejoined=rejoined)
        except BackupError as error:
            db.session.rollback()
            return render_template("backup.html", error=str(error)), 422
        result = {"added": len(added), "skipped": skipped, "problems": problems,
                  "copies": copies, "changed": changed, "rejoined": rejoined}
    return render_template("backup.html", result=result), status


@bp.cli.command("export")
@click.argument("file", type=click.File("w", encoding="utf-8"))
def export_command(file) -> None:
    """Write every table of this instance, with its phones, players and matches, to FILE."""
    file.writelines(export_text(None, phones=True))
    matches = db.session.scalar(select(func.count()).select_from(Match))
    click.echo(f"{matches} matches exported.")


@bp.cli.command("import")
@click.argument("file", type=click.File("rb"))
def import_command(file) -> None:
    """Add the tables and matches of the backup FILE that this instance does not have yet
    (its caps are larger than an upload's: this holds no worker)."""
    try:
        with current_app.test_request_context():  # messages in the default language
            added, skipped, problems = import_matches(read_backup(file.read(), COMMAND_LINE))
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    for problem in problems:
        click.echo(f"skipped: {problem}", err=True)
    click.echo(f"{len(added)} matches imported, {skipped} already here.")
