"""The blueprints of the pages every game shares; none of them imports another."""

from __future__ import annotations

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """Every shared page's blueprint."""
    from . import (
        api,
        backups,
        calendars,
        cards,
        certificate,
        exports,
        matches,
        people,
        reviews,
        screens,
        site,
        tables,
        tokens,
        tournaments,
    )

    return [site.bp, tables.bp, matches.bp, exports.bp, backups.bp, certificate.bp,
            screens.bp, cards.bp, tournaments.bp, people.bp, calendars.bp, tokens.bp, api.bp,
            reviews.bp]
