"""What every game's entry and correction views share: the hand as stored, the form
checked against the sheet, and the address a tap without JavaScript lands on.

Without JavaScript, a tap that stores nothing (a key of a keypad, a choice) is answered
with a redirect to a page whose address carries the hand being entered (:func:`tap_address`,
``n`` naming the hand), so that reloading it posts nothing.

Every step is checked by the rules engine (through :func:`scorekeeper.engine.ledger.save_hand`)
before it is stored; a form carries the version of the sheet it was made for.

A change sent with an ``Idempotency-Key`` header (static/js/queue.js sends one with every
post of the live sheet, the same one each time it sends a tap again) is stored with its key;
the same key again stores nothing and is answered with the sheet as it is (:func:`sent_before`).
A key is the phone's own (its device) for the match the request's address names: another
phone's key, or the same key for another match, is a new request. The key is stored with the
hash of the request (:func:`request_hash`): the same key from the same phone for the same
match with another body is refused with a 422 saying so, never taken for the tap sent again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, abort, current_app, g, request, url_for
from flask_babel import gettext as _

from ..engine.ledger import Conflict, KeyedRequest, expect_device, expect_key, stored_hash
from ..engine.sheets import compute_sheet, stored_hands
from ..models import REQUEST_KEY, Match
from ..rules import Sheet
from .access import device_token
from .forms import whole
from .pages import deleted_answer, get_match, over_live, render_sheet, was_entered

KEY_HEADER = "Idempotency-Key"


def stored_inputs(match: Match, number: int, empty: dict[str, Any]) -> dict[str, Any]:
    """A copy of the inputs of hand ``number`` if it is stored, else ``empty``."""
    hands = stored_hands(match)
    return dict(hands[number - 1] if number <= len(hands) else empty)


def check_form(form: Any, match: Match) -> None:
    """Raise Conflict unless the form is complete and was made for the sheet as it is now."""
    if not form.validate() or form.version.data != match.version:
        raise Conflict


def correcting(match_id: str, game: str, number: int,
               missing: str | None = None) -> tuple[Match, dict[str, Any]]:
    """The match of ``game`` whose hand ``number`` a correction page is about, and that
    hand's stored inputs; a 404 (saying ``missing``, when given) if it has no such hand. A
    correction posted for a hand another phone deleted meanwhile is answered with the live
    sheet, saying so (``pages.deleted_answer``)."""
    match = get_match(match_id, game)
    hands = stored_hands(match)
    if not 1 <= number <= len(hands):
        if request.method == "POST" and was_entered(match, number):
            abort(deleted_answer(match, number))
        abort(404, missing)
    return match, dict(hands[number - 1])


def offered(match: Match, number: int) -> Sheet:
    """The sheet as it stood before hand ``number``: the hands before it and the changes of
    who plays made by then. Its ``next`` is that hand as it was offered (its dealer, the
    seats dealt in) and its roster the table then (a later joiner has no seat in it)."""
    hands = stored_hands(match)
    if number > len(hands):
        return compute_sheet(match)
    roster = [change for change in match.roster if change.get("after", 0) < number]
    return compute_sheet(match, list(hands[: number - 1]), roster=roster)


def tap_address(endpoint: str, hand: int, state: Mapping[str, Any], **values: Any) -> str:
    """The address of a page showing hand ``hand`` being entered as ``state`` holds it
    (blank values left out), for the redirect that answers a tap without JavaScript."""
    kept = {key: value for key, value in state.items() if value not in (None, "", [])}
    return url_for(endpoint, **values, n=hand, **kept)


def addressed(args: Mapping[str, str], match: Match) -> bool:
    """True when the address carries the next hand of ``match`` being entered (``n``): a
    hand saved meanwhile by another phone leaves it out."""
    sheet = compute_sheet(match)
    return sheet.next is not None and whole(args.get("n")) == sheet.next.number


def _changing() -> bool:
    """True for a post naming a match: the requests that may change one."""
    return request.method == "POST" and "match_id" in (request.view_args or {})


def request_key() -> str | None:
    """The Idempotency-Key of a post naming a match (None: it has none, or the request is
    no such post); 400 for a key no page of ours sends."""
    if not _changing():
        return None
    key = request.headers.get(KEY_HEADER)
    if key is not None and not REQUEST_KEY.fullmatch(key):
        abort(400, _("The form could not be read."))
    return key


def request_hash() -> str:
    """The hash a request's key is stored with: what the request asked, the same each time a
    tap is sent again, and different for any other request.

    SHA-256 (64 hex digits) of a JSON array of the method, the path, the query string and
    the form's fields as (name, value) pairs, sorted by name (the values of one name in the
    order sent), without the CSRF token (its signature changes every second, for the same
    tap). Headers are left out: they say how a request was sent, not what it asks. The
    body is the form as Flask reads it, so the same fields sent urlencoded or as multipart
    hash alike; files are not part of any post naming a match, and are left out.
    """
    csrf_field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    fields = sorted(((name, value) for name, value in request.form.items(multi=True)
                     if name != csrf_field), key=lambda pair: pair[0])
    asked = [request.method, request.path, request.query_string.decode("latin-1"), fields]
    text = json.dumps(asked, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def keyed_request() -> KeyedRequest | None:
    """The post naming a match being served, with its key, its phone and its hash (read
    once a request); None when it has no key or is no such post."""
    if "keyed_request" not in g:
        key = request_key()
        g.keyed_request = None if key is None else KeyedRequest(
            key=key, match_id=request.view_args["match_id"], token=device_token(),
            request_hash=request_hash())
    return g.keyed_request


def _as_it_is(match_id: str) -> Response:
    """The live sheet as it is now, over whatever part of the page the request targeted,
    saying that the request had been served (the page then knows its version is not the one
    the change made)."""
    response = over_live(render_sheet(get_match(match_id)))
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _key_reused(match_id: str) -> Response:
    """A 422 for a key this phone already sent for this match with another request: nothing
    is stored, and the sheet as it is says so."""
    why = _("This tap came with the same key as an earlier, different tap, so it was not "
            "stored: check the sheet and tap again.")
    return over_live(render_sheet(get_match(match_id), status=422, error=why))


def _served(keyed: KeyedRequest | None) -> Response | None:
    """The answer to a keyed request whose key is stored: the sheet as it is when it was
    this very request, a 422 when it was another; None when the key is not stored."""
    if keyed is None:
        return None
    stored = stored_hash(keyed)
    if stored is None:
        return None
    if stored == keyed.request_hash:
        return _as_it_is(keyed.match_id)
    return _key_reused(keyed.match_id)


def sent_before() -> Response | None:
    """A post whose key this phone stored for this match, with the same hash, was served
    before (its answer never arrived): nothing is changed again, the answer is the sheet as
    it is; with another hash it is refused (422). Any other key goes with the change the
    request makes."""
    if not _changing():
        return None
    expect_device(device_token())
    keyed = keyed_request()
    answer = _served(keyed)
    if answer is None:
        expect_key(keyed)
    return answer


def served_meanwhile(response: Response) -> Response:
    """A conflict for a keyed post whose key got stored meanwhile (the same request, sent
    again while the first was being served) is that request's answer: the sheet as it is
    (a 422 when the key was stored with another request)."""
    if response.status_code == 409 and _changing():
        return _served(keyed_request()) or response
    return response


def init_app(app: Flask) -> None:
    """Read the key of every post naming a match, after the CSRF check and the guard."""
    app.before_request(sent_before)
    app.after_request(served_meanwhile)
