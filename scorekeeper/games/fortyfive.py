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
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Blueprint, redirect, render_template, request
from flask_babel import gettext as _

from ..engine.history import Field, Words
from ..engine.ledger import Conflict, save_hand
from ..engine.printing import Lead, Printing, presence, seat_input
from ..engine.sheets import compute_sheet, stored_hands
from ..models import Match
from ..rules import N_, Nn_, Row, RuleError, Sheet, fortyfive
from ..rules.cards import RANKS, SUITS, suit_symbol
from ..rules.core import check_seat
from ..rules.roster import Presence
from ..web.access import needs_edit_right
from ..web.entry import addressed, check_form, correcting, tap_address
from ..web.forms import HandForm, whole
from ..web.games import GameSpec
from ..web.i18n import rule_message
from ..web.pages import Typed, after_change, get_match, is_htmx, refusal_over_live, render_sheet
from ..web.people import holders

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
    # The seats dealt in this hand, in turn order, and the sheet's columns at this hand.
    seats: list[int] = field(default_factory=list)
    columns: list[tuple[int, ...]] = field(default_factory=list)
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

    @property
    def offered(self) -> list[int]:
        """The columns the entry offers: those with a seat dealt in this hand (a player
        sitting out, not yet joined or gone takes no trick)."""
        return [c for c, side in enumerate(self.columns) if set(side) & set(self.seats)]


def _new(sheet: Sheet, number: int, kind: str) -> Entry:
    """An empty hand ``number``, the next of ``sheet``: its dealer, first leader and the
    seats dealt in."""
    upcoming = sheet.next
    if upcoming is None or upcoming.number != number:
        raise Conflict
    return Entry(number=number, dealer=upcoming.dealer, leader=upcoming.info.leader,
                 seats=list(upcoming.seats), columns=list(sheet.columns), kind=kind,
                 side_tricks=[None] * len(sheet.columns))


def _blank(match: Match, number: int, kind: str) -> Entry:
    """An empty hand ``number``: its dealer, first leader and seats dealt in from the hands
    before it and the changes of who plays that came before it."""
    roster = [c for c in match.roster if c.get("after", 0) < number]
    before = compute_sheet(match, stored_hands(match)[: number - 1], roster=roster)
    return _new(before, number, kind)


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
    entry.mode = mode if mode in MODES else _mode_of(data)
    return entry


def _mode_of(hand: Mapping[str, Any]) -> str:
    """The way a stored hand was entered."""
    return "cards" if "plays" in hand else "winners" if "trick_winners" in hand else "sides"


def last_mode(match: Match) -> dict[str, str]:
    """The way the match's last hand was entered, as a page address carries it (a
    rematch's page asks for it): none before the first hand."""
    hands = stored_hands(match)
    return {"entry": _mode_of(hands[-1])} if hands else {}


def _read(match: Match, number: int, kind: str, form: Mapping[str, str] | None = None) -> Entry:
    """The hand as the posted form (or ``form``, a page's address) carries it; RuleError for
    a value no tap could give."""
    entry = _blank(match, number, kind)
    form = request.form if form is None else form
    entry.mode = form.get("mode") if form.get("mode") in MODES else MODES[0]
    entry.winners = [_dealt_seat(entry, w, N_("trick winner"))
                     for w in form.get("winners", "").split(",") if w.strip()]
    entry.bonus = form.get("bonus", "")
    _read_counts(entry, form)
    entry.bonus_side = form.get("bonus_side", "")
    entry.trump = suit_symbol(form["trump"]) if form.get("trump") else ""
    if form.get("leader"):
        entry.leader = _dealt_seat(entry, whole(form["leader"]), N_("leader"))
    entry.cards = form.get("cards", "").split()
    entry.suit = suit_symbol(form["suit"]) if form.get("suit") else ""
    return entry


def _dealt_seat(entry: Entry, value: Any, what: str) -> int:
    """``value`` as a seat dealt in the hand; RuleError for any other."""
    seat = check_seat(value, max(entry.seats) + 1, what)
    if seat not in entry.seats:
        raise RuleError(N_("%(player)s is not dealt in and takes no part in this hand."),
                        seat=seat)
    return seat


def _read_counts(entry: Entry, form: Mapping[str, str]) -> None:
    """The tricks per side (or player) of the form, the last filled in from the others
    among the columns offered; None for a column not offered."""
    offered = entry.offered
    filled = _filled(form.get("filled", ""))
    if filled is not None:
        filled = (offered.index(filled[0]), filled[1]) if filled[0] in offered else None
    counts, filled = fortyfive.fill_last_count(
        [whole(form.get(f"side-{c}")) for c in offered], filled)
    entry.side_tricks = [None] * len(entry.columns)
    for c, count in zip(offered, counts, strict=True):
        entry.side_tricks[c] = count
    entry.filled = None if filled is None else (offered[filled[0]], filled[1])


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
        _play(entry, entry.cards)
    except RuleError:
        return None
    return _preview(match, entry)


def _play(entry: Entry, cards: list[str]) -> None:
    """Fill the helper's tricks, who plays next and the best trump from ``cards``, played
    by the seats dealt in (the rules number them 0, 1, ... in turn order)."""
    seats = entry.seats
    state = fortyfive.trick_state(entry.trump, seats.index(entry.leader), len(seats), cards)

    def seat(index: int | None) -> int | None:
        return None if index is None else seats[index]

    entry.cards = list(state.cards)
    entry.tricks = [replace(t, plays=tuple((seats[s], card) for s, card in t.plays),
                            winner=seat(t.winner)) for t in state.tricks]
    entry.to_play = seat(state.to_play)
    entry.best = None if state.best is None else replace(
        state.best, seat=seats[state.best.seat], taker=seat(state.best.taker))


def _apply(entry: Entry, action: str) -> None:
    """One tap: a trick winner, the last winner cleared, a card played or taken back."""
    verb, _sep, value = action.partition(":")
    if verb == "tap" and len(entry.winners) < fortyfive.TRICKS:
        entry.winners.append(_dealt_seat(entry, whole(value), N_("trick winner")))
    elif verb == "tap":
        raise RuleError(N_("The five trick winners are in: save the hand, or clear the last "
                           "tap to change one."))
    elif verb == "clear" and entry.winners:
        entry.winners.pop()
    elif verb == "uncard" and entry.cards:
        _play(entry, entry.cards[:-1])
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
            _play(entry, [*entry.cards, value + entry.suit])
        except RuleError as error:
            raise RuleError(N_("%(player)s: %(problem)s"), seat=seat,
                            problem=rule_message(error)) from error


def _bonus(value: str) -> Any:
    """The form's bonus choice as the rules take it: None for no trump played."""
    return None if value == NO_TRUMP else whole(value)


def _data(entry: Entry) -> dict[str, Any]:
    """The hand dict to store, in the entry's mode; a missing bonus is left to the rules.
    Cards are grouped by trick, one for each seat dealt in; counts per player have None for
    a seat not dealt in."""
    players = len(entry.seats)
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
        return bool(entry.bonus_side) and None not in [entry.side_tricks[c]
                                                       for c in entry.offered]
    return bool(entry.bonus) and len(entry.winners) == fortyfive.TRICKS


def _preview(match: Match, entry: Entry) -> Entry:
    """The hand scored on the match (or why the rules refuse it) once it is complete."""
    if not _complete(entry):
        return entry
    hands = list(stored_hands(match))
    data = _data(entry)
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
    """A fresh entry for the next hand, in ``mode``; by default in the way the last hand
    was entered, or by tapping trick winners."""
    entry = _new(sheet, sheet.next.number, "enter")
    entry.mode = mode if mode in MODES else last_mode(match).get("entry", MODES[0])
    return entry


def fortyfive_picker() -> dict[str, tuple[str, ...]]:
    """The trick helper's card picker: ranks as printed on the cards, and the suits."""
    return {"ranks": RANKS, "suits": SUITS}


def _show(match: Match, entry: Entry, *, error: str | None = None, status: int = 200):
    """The entry redrawn: the form alone for htmx; without htmx a redirect to the page
    whose address carries the hand (reloading it posts nothing), or, for a refused tap,
    the whole page around it. The correction page posts without htmx.
    """
    if is_htmx() and entry.kind == "enter":
        sheet = compute_sheet(match)
        shown = {"match": match, "sheet": sheet, "names": holders(match, sheet), "entry": entry,
                 "error": error}
        if entry.mode == "sides":  # a count may fill in another side's: the whole form
            return render_template(FORM, **shown, error_at="save"), status
        return render_template(STATE, **shown, fragment=True), status
    if error is None and request.method == "POST":
        endpoint = "fortyfive.edit" if entry.kind == "correct" else "matches.show"
        numbered = {"number": entry.number} if entry.kind == "correct" else {}
        return redirect(tap_address(endpoint, entry.number, _state(entry), match_id=match.id,
                                    **numbered), 303)
    template = EDIT if entry.kind == "correct" else "matches/show.html"
    return render_sheet(match, status=status, error=error, template=template, entry=entry,
                        number=entry.number)


def _refused_step(match: Match, error: RuleError | Conflict, entry: Entry | None, kind: str):
    """Nothing stored: the message over the whole live sheet, even when a tap asked for a form;
    an entry's trick winners said when another phone saved its hand first."""
    if kind == "correct" and entry is not None:
        return refusal_over_live(match, error, entry=entry, template=EDIT, number=entry.number)
    return refusal_over_live(match, error, entry=entry, typed=_typed())


def _typed() -> Typed:
    """The hand a refused post carried: its number, and the tricks each seat took by the
    trick winners tapped (none in another way of entering)."""
    seats = [whole(w) for w in request.form.get("winners", "").split(",") if w.strip()]
    return Typed(whole(request.form.get("number")),
                 {seat: seats.count(seat) for seat in dict.fromkeys(seats)})


def _step(match: Match, number: int | None):
    """Apply the posted action to the hand in the form: a tap, a card, or save."""
    form = HandForm()
    kind = "enter" if number is None else "correct"
    entry = None
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
        _play(entry, entry.cards)
    except (RuleError, Conflict) as error:  # a correction is shown again as typed
        typed = _addressed(match, number, kind, request.form) if kind == "correct" else None
        return _refused_step(match, error, typed, kind)
    action = request.form.get("action", "")
    if action == "save":
        try:
            save_hand(match, number, _data(entry), expected=form.version.data,
                      kind=kind)
        except (RuleError, Conflict) as error:
            return _refused_step(match, _named(match, entry, error), _preview(match, entry),
                                 kind)
        return _saved(match, entry)
    try:
        _apply(entry, action)
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
    _play(entry, entry.cards)
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
    """A printed cell's detail: the side's tricks, and the bonus trick's mark; "out" for a
    seat that sat the hand out, nothing for one not yet joined or gone (its points None)."""
    if row.points[column] is None:
        seat = sheet.columns[column][0]
        return _("out") if presence(row, seat) is Presence.OUT else ""
    tricks = row.inputs.get("side_tricks", [""] * len(sheet.columns))[column]
    return f"{tricks}{' ▲' if row.inputs.get('bonus_side') == column else ''}"


def _trump(sheet: Sheet, number: int, row: Row | None) -> str:
    """A printed row's trump, when one was noted."""
    return (row.inputs.get("trump") or "") if row else ""


def _side(sheet: Sheet, seat: int) -> int:
    """The column (side) of a seat."""
    return next(i for i, seats in enumerate(sheet.columns) if seat in seats)


def _side_number(sheet: Sheet, row: Row, seat: int) -> int | None:
    """The seat's side, numbered from 1 as the sheet orders them; None played alone."""
    side = _side(sheet, seat)
    return side + 1 if len(sheet.columns[side]) > 1 else None


def _tricks_taken(sheet: Sheet, row: Row, seat: int) -> int | None:
    """The tricks the seat took, when the hand names each trick's winner."""
    winners = row.inputs.get("trick_winners")
    return None if winners is None else winners.count(seat)


def _side_tricks(sheet: Sheet, row: Row, seat: int) -> int | None:
    """The tricks the seat's side took."""
    return seat_input("side_tricks")(sheet, row, _side(sheet, seat))


def _best_trump(sheet: Sheet, row: Row, seat: int) -> str:
    """A "yes" for the seat that took the best trump's trick; for a hand entered per side,
    for each seat of the side that took it."""
    if "bonus_seat" in row.inputs:
        took = row.inputs["bonus_seat"] == seat
    else:
        took = row.inputs.get("bonus_side") == _side(sheet, seat)
    return _("yes") if took else ""


PRINTING = Printing(_tricks, (N_("tricks (▲ the bonus trick; = tie at the top: play goes on, "
                                 "∅ no trump played, 5× all five tricks)"),
                              N_("points"), N_("running total")),
                    lead=(Lead(N_("Trump"), "word", _trump),),
                    event_marks={fortyfive.TIE_AT_TOP: "=", fortyfive.NO_TRUMP: "∅",
                                 fortyfive.ALL_FIVE: "5×"},
                    entries=((N_("Side"), _side_number), (N_("Tricks"), _tricks_taken),
                             (N_("Side’s tricks"), _side_tricks), (N_("Best trump"), _best_trump)))

SPEC = GameSpec(fortyfive.GAME, bp, WORDS, PRINTING, blank_extras=blank_extras,
                entry_context=entry_context, carried=last_mode, partners=partners,
                printed_notice=True,
                template_globals={"fortyfive_entry": fortyfive_entry,
                                  "fortyfive_picker": fortyfive_picker})
