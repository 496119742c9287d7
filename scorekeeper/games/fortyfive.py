"""Forty-Five at the table: tap the five trick winners, count tricks per side, or play the
cards through the trick helper; and correct a past hand.

The hand being entered lives in the form (hidden inputs) until it is saved: every tap posts
the form and gets it back, redrawn with the tap applied, so it works without JavaScript
(then through a redirect to a page whose address carries the hand); htmx swaps the form
alone. Trick winners, the best trump and the points come from
:mod:`scorekeeper.rules.fortyfive`, never from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, redirect, render_template, request

from ..engine.history import Field, Words
from ..engine.ledger import Conflict, save_hand
from ..engine.printing import Lead, Printing
from ..engine.sheets import compute_sheet, stored_hands
from ..models import Match
from ..rules import N_, Nn_, Row, RuleError, Sheet, fortyfive
from ..rules.cards import RANKS, SUITS, suit_symbol
from ..rules.core import check_seat
from ..web.access import needs_edit_right
from ..web.entry import addressed, check_form, correcting, tap_address
from ..web.forms import HandForm, whole
from ..web.games import GameSpec
from ..web.i18n import rule_message
from ..web.pages import after_change, get_match, is_htmx, refusal_over_live, render_sheet

bp = Blueprint("fortyfive", __name__)

# How the history says a hand.
SIDE_TRICKS = Nn_("%(name)s %(value)s trick", "%(name)s %(value)s tricks")
WORDS = Words(N_("Hand %(n)s"), {
    "trick_winners": Field("tricks", N_("Trick winners"), N_("tricks won by %(value)s")),
    "bonus_seat": Field("seat", N_("Best trump"), N_("best trump: %(name)s")),
    "side_tricks": Field("sides", N_("Tricks per side"), SIDE_TRICKS[0],
                         plural=SIDE_TRICKS[1]),
    "bonus_side": Field("side", N_("Best trump"), N_("best trump: %(name)s")),
    "trump": Field("value", N_("Trump"), N_("trump %(value)s")),
    "plays": Field("cards", N_("Cards played"), N_("cards played: %(value)s")),
    "leader": Field("seat", N_("First lead"), N_("%(name)s led")),
})

MODES = ("winners", "sides", "cards")
NO_TRUMP = "none"
STATE = "games/fortyfive/_state.html"
FORM = "games/fortyfive/_form.html"
EDIT = "hands/correct.html"


@dataclass
class Entry:
    """A hand being entered or corrected: the form's state and what the rules make of it."""

    number: int
    dealer: int
    leader: int
    kind: str = "enter"
    mode: str = MODES[0]
    winners: list[int] = field(default_factory=list)
    bonus: str = ""
    side_tricks: list[Any] = field(default_factory=list)
    # The side whose count the rules filled in from the others, and that count.
    filled: tuple[int, int] | None = None
    bonus_side: str = ""
    trump: str = ""
    cards: list[str] = field(default_factory=list)
    suit: str = ""
    # What the rules make of the cards played so far (trick helper).
    tricks: list[fortyfive.Trick] = field(default_factory=list)
    to_play: int | None = None
    best: fortyfive.BestTrump | None = None
    # The hand scored on the match, once complete.
    row: Row | None = None
    result: Sheet | None = None
    problem: str | None = None

    @property
    def done(self) -> bool:
        """True when the helper holds five complete tricks."""
        return sum(t.winner is not None for t in self.tricks) == fortyfive.TRICKS


def _blank(match: Match, number: int, kind: str) -> Entry:
    """An empty hand ``number``: its dealer and first leader from the hands before it."""
    before = compute_sheet(match, stored_hands(match)[: number - 1])
    if before.next is None:
        raise Conflict
    columns = len(before.columns)
    return Entry(number=number, dealer=before.next.dealer, leader=before.next.info.leader,
                 kind=kind, side_tricks=[None] * columns)


def _choice(value: Any) -> str:
    """A stored bonus (seat or side, None for no trump) as the form's value."""
    return NO_TRUMP if value is None else str(value)


def _stored(match: Match, number: int, mode: str | None) -> Entry:
    """Hand ``number`` as stored, in the form it was entered (or in ``mode``)."""
    entry = _blank(match, number, "correct")
    row = compute_sheet(match).rows[number - 1]
    inputs, data = row.inputs, stored_hands(match)[number - 1]
    entry.side_tricks = list(inputs["side_tricks"])
    entry.bonus_side = _choice(inputs["bonus_side"])
    if "trick_winners" in inputs:
        entry.winners = list(inputs["trick_winners"])
        entry.bonus = _choice(inputs["bonus_seat"])
    if "plays" in inputs:
        entry.trump, entry.leader = inputs["trump"], inputs["leader"]
        entry.cards = [card for trick in inputs["plays"] for card in trick]
    stored_mode = "cards" if "plays" in data else "winners" if "trick_winners" in data else "sides"
    entry.mode = mode if mode in MODES else stored_mode
    return entry


def _read(match: Match, number: int, kind: str, form: Mapping[str, str] | None = None) -> Entry:
    """The hand as the posted form (or ``form``, a page's address) carries it; RuleError for
    a value no tap could give."""
    entry = _blank(match, number, kind)
    players, form = len(match.seats), request.form if form is None else form
    entry.mode = form.get("mode") if form.get("mode") in MODES else MODES[0]
    entry.winners = [check_seat(w, players, N_("trick winner"))
                     for w in form.get("winners", "").split(",") if w.strip()]
    entry.bonus = form.get("bonus", "")
    entry.side_tricks, entry.filled = fortyfive.fill_last_count(
        [whole(form.get(f"side-{c}")) for c in range(len(entry.side_tricks))],
        _filled(form.get("filled", "")))
    entry.bonus_side = form.get("bonus_side", "")
    entry.trump = suit_symbol(form["trump"]) if form.get("trump") else ""
    if form.get("leader"):
        entry.leader = check_seat(whole(form["leader"]), players, N_("leader"))
    entry.cards = form.get("cards", "").split()
    entry.suit = suit_symbol(form["suit"]) if form.get("suit") else ""
    return entry


def _filled(value: str) -> tuple[int, int] | None:
    """The form's ``filled`` ("side:count", the count the rules filled in), None if blank."""
    side, _sep, count = value.partition(":")
    side, count = whole(side), whole(count)
    return (side, count) if isinstance(side, int) and isinstance(count, int) else None


def _state(entry: Entry) -> dict[str, Any]:
    """The hand being entered as the form's fields, for a page's address."""
    return {"mode": entry.mode, "winners": ",".join(map(str, entry.winners)),
            "bonus": entry.bonus, "bonus_side": entry.bonus_side,
            "filled": ":".join(map(str, entry.filled)) if entry.filled else None,
            **{f"side-{c}": count for c, count in enumerate(entry.side_tricks)},
            "trump": entry.trump, "leader": entry.leader, "cards": " ".join(entry.cards),
            "suit": entry.suit}


def _addressed(match: Match, number: int, kind: str, args: Mapping[str, str]) -> Entry | None:
    """The hand the page's address carries, with what the rules make of it; None when the
    address holds no hand or one no tap could give."""
    try:
        entry = _read(match, number, kind, args)
        _play(entry, len(match.seats), entry.cards)
    except RuleError:
        return None
    return _preview(match, entry)


def _play(entry: Entry, players: int, cards: list[str]) -> None:
    """Fill the helper's tricks, who plays next and the best trump from ``cards``."""
    state = fortyfive.trick_state(entry.trump, entry.leader, players, cards)
    entry.cards, entry.tricks = list(state.cards), list(state.tricks)
    entry.to_play, entry.best = state.to_play, state.best


def _apply(entry: Entry, action: str, players: int) -> None:
    """One tap: a trick winner, the last winner cleared, a card played or taken back."""
    verb, _sep, value = action.partition(":")
    if verb == "tap" and len(entry.winners) < fortyfive.TRICKS:
        entry.winners.append(check_seat(value, players, N_("trick winner")))
    elif verb == "tap":
        raise RuleError(N_("The five trick winners are in: save the hand, or clear the last "
                           "tap to change one."))
    elif verb == "clear" and entry.winners:
        entry.winners.pop()
    elif verb == "uncard" and entry.cards:
        _play(entry, players, entry.cards[:-1])
    elif verb == "card":
        seat = entry.to_play
        if not entry.trump:
            raise RuleError(N_("Choose the trump suit first."))
        if seat is None:
            raise RuleError(N_("The five tricks are in: save the hand, or take back the last "
                               "card."))
        if not entry.suit:
            raise RuleError(N_("%(player)s: choose the suit of the card."), seat=seat)
        try:
            _play(entry, players, [*entry.cards, value + entry.suit])
        except RuleError as error:
            raise RuleError(N_("%(player)s: %(problem)s"), seat=seat,
                            problem=rule_message(error)) from error


def _bonus(value: str) -> Any:
    """The form's bonus choice as the rules take it: None for no trump played."""
    return None if value == NO_TRUMP else whole(value)


def _data(entry: Entry, players: int) -> dict[str, Any]:
    """The hand dict to store, in the entry's mode; a missing bonus is left to the rules."""
    if entry.mode == "cards":
        plays = [" ".join(entry.cards[i:i + players])
                 for i in range(0, len(entry.cards), players)]
        return {"trump": entry.trump or None, "plays": plays, "leader": entry.leader}
    if entry.mode == "sides":
        data: dict[str, Any] = {"side_tricks": list(entry.side_tricks)}
        if entry.bonus_side:
            data["bonus_side"] = _bonus(entry.bonus_side)
        return data
    data = {"trick_winners": list(entry.winners)}
    if entry.bonus:
        data["bonus_seat"] = _bonus(entry.bonus)
    return data


def _complete(entry: Entry) -> bool:
    """True when the entry holds a whole hand, worth scoring for a preview."""
    if entry.mode == "cards":
        return entry.done
    if entry.mode == "sides":
        return bool(entry.bonus_side) and None not in entry.side_tricks
    return bool(entry.bonus) and len(entry.winners) == fortyfive.TRICKS


def _preview(match: Match, entry: Entry) -> Entry:
    """The hand scored on the match (or why the rules refuse it) once it is complete."""
    if not _complete(entry):
        return entry
    hands = list(stored_hands(match))
    data = _data(entry, len(match.seats))
    if entry.number <= len(hands):
        hands[entry.number - 1] = data
    else:
        hands.append(data)
    try:
        entry.result = compute_sheet(match, hands)
        entry.row = entry.result.rows[entry.number - 1]
    except RuleError as error:
        entry.problem = rule_message(_named(match, entry, error), match.names)
    return entry


def _named(match: Match, entry: Entry | None, error: Any) -> Any:
    """``error`` naming the side it is about ("Anna + Carla") when the hand was entered as
    tricks per side: the rules name a side by its first player."""
    seat = getattr(error, "seat", None)
    if entry is None or entry.mode != "sides" or seat is None:
        return error
    side = next(side for side in compute_sheet(match).columns if seat in side)
    return RuleError(error.template, **{**error.params, "player": " + ".join(
        match.names[s] for s in side)})


def entry_context(args: Mapping[str, str], match: Match) -> dict[str, Any]:
    """The way of entering the page's address asks for (``?entry=sides``), or the hand
    being entered that it carries (a tap without JavaScript)."""
    context: dict[str, Any] = {"entry_mode": args.get("entry")}
    if addressed(args, match):
        context["entry"] = _addressed(match, int(args["n"]), "enter", args)
    return context


def fortyfive_entry(match: Match, sheet: Sheet, mode: str | None = None) -> Entry:
    """A fresh entry for the next hand, in ``mode`` (default: tapping trick winners)."""
    entry = Entry(number=sheet.next.number, dealer=sheet.next.dealer,
                  leader=sheet.next.info.leader, side_tricks=[None] * len(sheet.columns))
    entry.mode = mode if mode in MODES else MODES[0]
    return entry


def fortyfive_picker() -> dict[str, tuple[str, ...]]:
    """The trick helper's card picker: ranks as printed on the cards, and the suits."""
    return {"ranks": RANKS, "suits": SUITS}


def _show(match: Match, entry: Entry, *, error: str | None = None, status: int = 200):
    """The entry redrawn: the form alone for htmx; without htmx a redirect to the page
    whose address carries the hand (reloading it posts nothing), or, for a refused tap,
    the whole page around it. The correction page posts without htmx.
    """
    if is_htmx() and entry.kind == "enter" and entry.mode == "sides":
        # A count may fill in another side's: the whole form comes back.
        return render_template(FORM, match=match, sheet=compute_sheet(match), names=match.names,
                               entry=entry, error=error, error_at="save"), status
    if is_htmx() and entry.kind == "enter":
        return render_template(STATE, match=match, sheet=compute_sheet(match), names=match.names,
                               entry=entry, error=error, fragment=True), status
    if error is None and request.method == "POST":
        endpoint = "fortyfive.edit" if entry.kind == "correct" else "matches.show"
        numbered = {"number": entry.number} if entry.kind == "correct" else {}
        return redirect(tap_address(endpoint, entry.number, _state(entry), match_id=match.id,
                                    **numbered), 303)
    template = EDIT if entry.kind == "correct" else "matches/show.html"
    return render_sheet(match, status=status, error=error, template=template, entry=entry,
                        number=entry.number)


def _refused_step(match: Match, error: RuleError | Conflict, entry: Entry | None, kind: str):
    """Nothing stored: the message over the whole live sheet, even when a tap asked for a form."""
    if kind == "correct" and entry is not None:
        return refusal_over_live(match, error, entry=entry, template=EDIT, number=entry.number)
    return refusal_over_live(match, error, entry=entry)


def _step(match: Match, number: int | None):
    """Apply the posted action to the hand in the form: a tap, a card, or save."""
    form = HandForm()
    kind = "enter" if number is None else "correct"
    players, entry = len(match.seats), None
    try:
        check_form(form, match)
        if number is None:
            sheet = compute_sheet(match)
            if sheet.next is None or form.number.data != sheet.next.number:
                raise Conflict
            number = sheet.next.number
        elif form.number.data != number:
            raise Conflict
        entry = _read(match, number, kind)
        _play(entry, players, entry.cards)
    except (RuleError, Conflict) as error:  # a correction is shown again as typed
        typed = _addressed(match, number, kind, request.form) if kind == "correct" else None
        return _refused_step(match, error, typed, kind)
    action = request.form.get("action", "")
    if action == "save":
        try:
            save_hand(match, number, _data(entry, players), expected=form.version.data,
                      kind=kind)
        except (RuleError, Conflict) as error:
            return _refused_step(match, _named(match, entry, error), _preview(match, entry),
                                 kind)
        return _saved(match, entry)
    try:
        _apply(entry, action, players)
    except RuleError as error:
        return _show(match, _preview(match, entry), status=422,
                     error=rule_message(error, match.names))
    return _show(match, _preview(match, entry))


def _saved(match: Match, entry: Entry):
    """After a save: the sheet, ready for the next hand in the same way of entering it."""
    keep = entry.kind == "enter" and entry.mode != MODES[0]
    mode = entry.mode if keep else None
    if entry.kind != "enter":
        return after_change(match, step="correct", entry_mode=mode)
    return after_change(match, saved=entry.number, entry_mode=mode, args={"entry": mode})


@bp.post("/matches/<match_id>/fortyfive/hand")
def hand(match_id: str):
    """Tap a trick winner or a card of the hand being entered, or save the hand."""
    return _step(get_match(match_id, "fortyfive"), None)


@bp.route("/matches/<match_id>/fortyfive/<int:number>/edit", methods=["GET", "POST"])
@needs_edit_right
def edit(match_id: str, number: int):
    """Correct a hand already played, checked like an entry; every later total follows."""
    match, _hand = correcting(match_id, "fortyfive", number)
    if request.method == "POST":
        return _step(match, number)
    shown = request.args.get("n") == str(number) and _addressed(match, number, "correct",
                                                                  request.args)
    if shown:
        return render_sheet(match, template=EDIT, entry=shown, number=number)
    entry = _stored(match, number, request.args.get("entry"))
    _play(entry, len(match.seats), entry.cards)
    return render_sheet(match, template=EDIT, entry=_preview(match, entry), number=number)


# What the shared pages ask of Forty-Five.

def blank_extras(players: int) -> dict[str, Any]:
    """The sides, the points and the rank tables, printed with the blank sheet."""
    return {"ranks": {suit: fortyfive.rank_table(suit) for suit in ("♦", "♥", "♣", "♠")},
            "sides": fortyfive.sides(players), "trick_points": fortyfive.TRICK_POINTS,
            "bonus_points": fortyfive.BONUS_POINTS}


def partners(players: int) -> dict[bool, list[list[int]]]:
    """The sides for this many players, without and with the three-pairs option, shown on
    the new-match page before the match starts; none when nobody plays with a partner."""
    if not fortyfive.GAME.min_players <= players <= fortyfive.GAME.max_players:
        return {}
    arrangements = {flag: fortyfive.sides(players, three_pairs=flag)
                    for flag in ((False, True) if players == 6 else (False,))}
    return {flag: s for flag, s in arrangements.items() if any(len(side) > 1 for side in s)}


def _tricks(sheet: Sheet, row: Row, column: int) -> str:
    """A printed cell's detail: the side's tricks, and the bonus trick's mark."""
    tricks = row.inputs.get("side_tricks", [""] * len(sheet.columns))[column]
    return f"{tricks}{' ▲' if row.inputs.get('bonus_side') == column else ''}"


def _trump(sheet: Sheet, number: int, row: Row | None) -> str:
    """A printed row's trump, when one was noted."""
    return (row.inputs.get("trump") or "") if row else ""


PRINTING = Printing(_tricks, (N_("tricks (▲ the bonus trick; = tie at the top: play goes on, "
                                 "∅ no trump played, 5× all five tricks)"),
                              N_("points"), N_("running total")),
                    lead=(Lead(N_("Trump"), "word", _trump),),
                    event_marks={fortyfive.TIE_AT_TOP: "=", fortyfive.NO_TRUMP: "∅",
                                 fortyfive.ALL_FIVE: "5×"})

SPEC = GameSpec(fortyfive.GAME, bp, WORDS, PRINTING, blank_extras=blank_extras,
                entry_context=entry_context, partners=partners, printed_notice=True,
                template_globals={"fortyfive_entry": fortyfive_entry,
                                  "fortyfive_picker": fortyfive_picker})
