"""A match's history as people read it: sentences with player names in the game's own words,
the bids of a hand as one entry, and times in the viewer's time zone.

The stored :class:`~scorekeeper.models.Change` rows keep every value before and after; this
module only words them. Which game keeps which value, and how to say it, each game gives
(its :class:`Words`, in ``scorekeeper/games/<game>.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from ..models import TABLE_NAME_LENGTH, Change
from ..rules import N_
from . import formats


def table_name(names: Sequence[str]) -> str:
    """The name a table made for these players gets: their names, as many as fit whole in
    a table's name, then how many more ("Anna, Bruno and 2 more").

    A name is never cut: a player's name is at most half as long as a table's."""
    for shown in range(len(names), 0, -1):
        listed, rest = ", ".join(names[:shown]), len(names) - shown
        text = listed if not rest else ngettext("%(names)s and %(num)s more",
                                                "%(names)s and %(num)s more", rest,
                                                names=listed)
        if len(text) <= TABLE_NAME_LENGTH:
            return text
    return "Scorekeeper"


@dataclass(frozen=True)
class Field:
    """A stored value of a hand: its kind, the label of its row and the phrase that says it.

    Kinds: ``seats`` (a value per player), ``sides`` (a value per side), ``seat`` (a player),
    ``side``, ``players`` (a list of players), ``tricks`` (the winner of each trick),
    ``flag`` (yes or no), ``value`` (a number or a word), ``cards`` (plays of cards).
    The phrase takes ``%(name)s`` and ``%(value)s``; a value that is a count says
    ``plural`` when it is not one, if the field has one (mark both with ``Nn_``).
    """

    kind: str
    label: str
    phrase: str
    none: str = ""  # what a stored None says, if anything
    plural: str = ""


@dataclass(frozen=True)
class Words:
    """A game's words for its history: how a row is named (``numbered``: "Hand %(n)s",
    "Deal %(n)s") and how each value it stores is said (``fields``, by key)."""

    numbered: str
    fields: Mapping[str, Field]


@dataclass(frozen=True)
class Entry:
    """One line of the history: a sentence, when, and every value before and after."""

    sentence: str
    when: str
    iso: str
    undone: bool
    rows: tuple[tuple[str, str, str, bool], ...]  # label, before, after, changed


ROSTER = 0  # the number a change of who plays is stored under (scorekeeper.engine.ledger)
ROSTER_WORDS = {
    "join": N_("%(person)s joins from hand %(hand)s"),
    "sit_out": N_("%(player)s sits out from hand %(hand)s"),
    "back": N_("%(player)s is back from hand %(hand)s"),
    "substitute": N_("%(person)s plays for %(player)s from hand %(hand)s"),
    "leave": N_("%(player)s leaves after hand %(after)s"),
}


def roster_step(old: Mapping[str, Any] | None,
                new: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The one change of who plays that a stored change added or took away (each adds or
    takes away the latest one), or None."""
    before, after = (old or {}).get("roster") or [], (new or {}).get("roster") or []
    if len(after) != len(before):
        return (after if len(after) > len(before) else before)[-1]
    return None


class Speaker:
    """Says the values of one match's hands with its players' names (``people``: the names
    of those its changes of who plays name, by id)."""

    def __init__(self, fields: Mapping[str, Field], names: Sequence[str],
                 sides: Sequence[Sequence[int]], people: Mapping[Any, str] | None = None):
        self.names = list(names)
        self.sides = [" + ".join(self.names[s] for s in side if s < len(self.names))
                      for side in sides]
        self.fields = fields
        self.people = people or {}

    def roster(self, change: Mapping[str, Any] | None) -> str:
        """A change of who plays in words: "Dario joins from hand 3"."""
        if not change or change.get("kind") not in ROSTER_WORDS:
            return _("nothing changed")
        after = change.get("after") or 0
        person = self.people.get(change.get("person"), "—")
        return _(ROSTER_WORDS[change["kind"]], person=person, after=after, hand=after + 1,
                 player=self.who(change.get("seat"), "seat"))

    def say(self, field: Field, name: str, value: Any, count: Any = None) -> str:
        """The field's phrase of one value (``count``: the number it says, if not the value)."""
        count = value if count is None else count
        if field.plural and isinstance(count, int) and not isinstance(count, bool):
            return ngettext(field.phrase, field.plural, count, name=name, value=value)
        return _(field.phrase, name=name, value=value)

    def who(self, index: Any, kind: str) -> str:
        """The player (or side) at ``index``; — for none."""
        people = self.sides if kind in ("side", "sides") else self.names
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(people):
            return people[index]
        return "—" if index is None else str(index)

    def shown(self, field: Field, value: Any) -> str:
        """A stored value as a short text for the before/after table."""
        if value is None or value == []:
            return "—"
        if field.kind in ("seat", "side"):
            return self.who(value, field.kind)
        if field.kind == "flag":
            return _("yes") if value else _("no")
        if field.kind in ("seats", "sides") and isinstance(value, list):
            return " · ".join(f"{self.who(i, field.kind)} {'—' if v is None else v}"
                              for i, v in enumerate(value))
        if field.kind in ("players", "tricks") and isinstance(value, list):
            return " · ".join(self.who(v, "seat") for v in value)
        if isinstance(value, list):
            return " · ".join(map(str, value))
        return str(value)

    def facts(self, data: dict[str, Any] | None) -> list[str]:
        """The values of a hand as phrases: "Anna bid 2, Bruno 0", "closed by Carla"."""
        out = []
        data = data or {}
        keys = [k for k in self.fields if k in data] + [k for k in data if k not in self.fields]
        for key in keys:
            value, field = data[key], self.fields.get(key)
            if field is None:
                out.append(f"{key} {value}")
            elif value is None and field.none:
                out.append(_(field.none))
            elif field.kind in ("seats", "sides") and isinstance(value, list):
                given = [(self.who(i, field.kind), v) for i, v in enumerate(value) if v is not None]
                if given:
                    first = self.say(field, given[0][0], given[0][1])
                    out.append(", ".join([first] + [f"{n} {v}" for n, v in given[1:]]))
            elif field.kind == "players" and isinstance(value, list):
                out += [_(field.phrase, name=self.who(v, "seat"), value="") for v in value]
            elif field.kind == "flag":
                if value:
                    out.append(_(field.phrase))
            elif value not in (None, "", []):
                out.append(self.say(field, self.who(value, field.kind),
                                    self.shown(field, value), value))
        return out

    def changes(self, old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[str]:
        """What a correction changed: "Carla 3 tricks (was 2)"."""
        old, new = old or {}, new or {}
        out = []
        for key in list(new) + [k for k in old if k not in new]:
            before, after = old.get(key), new.get(key)
            if before == after:
                continue
            field = self.fields.get(key) or Field("value", key, f"{key} %(value)s")
            if after is None and field.kind != "flag":
                out.append(_("%(what)s cleared", what=_(field.label)))
            elif before is None and field.kind != "flag":
                out += self.facts({key: after})
            elif field.kind in ("seats", "sides") and isinstance(after, list) \
                    and isinstance(before, list) and len(before) == len(after):
                for i, (was, now) in enumerate(zip(before, after, strict=True)):
                    if was != now:
                        said = self.say(field, self.who(i, field.kind),
                                        "—" if now is None else now)
                        out.append(_("%(change)s (was %(old)s)", change=said,
                                     old="—" if was is None else was))
            elif field.kind == "flag":
                out.append(_(field.phrase) if after else _("not %(what)s", what=_(field.phrase)))
            else:
                said = self.say(field, self.who(after, field.kind),
                                self.shown(field, after), after)
                out.append(_("%(change)s (was %(old)s)", change=said,
                             old=self.shown(field, before)))
        return out

    def table(self, old: dict[str, Any] | None, new: dict[str, Any] | None):
        """Every value before and after, labelled: the rows an expanded entry shows."""
        old_, new_ = old or {}, new or {}
        keys = list(new_) + [k for k in old_ if k not in new_]
        rows = []
        for key in keys:
            field = self.fields.get(key) or Field("value", key, "")
            before = "—" if old is None else self.shown(field, old_.get(key))
            after = "—" if new is None else self.shown(field, new_.get(key))
            rows.append((_(field.label), before, after, old_.get(key) != new_.get(key)))
        return tuple(rows)


def grouped(changes: Sequence[Change]) -> list[list[Change]]:
    """Changes oldest first, the consecutive entries of one hand (its bids, then its tricks)
    in one group, and so its consecutive undos; each correction stands alone."""
    groups: list[list[Change]] = []
    for change in changes:
        last = groups[-1][-1] if groups else None
        if last is not None and change.kind == last.kind \
                and change.kind in ("enter", "undo", "redo") and change.number != ROSTER \
                and change.number == last.number and change.undone == last.undone:
            groups[-1].append(change)
        else:
            groups.append([change])
    return groups


def local_time(moment: datetime, zone: tzinfo | None) -> str:
    """``moment`` (stored in UTC) in the viewer's zone and language; labelled UTC without one."""
    text = formats.moment(moment.replace(tzinfo=UTC).astimezone(zone or UTC))
    return text if zone is not None else f"{text} UTC"


def sentence(wording: Speaker, words: Words, number: int, kind: str, old: Any,
             new: Any) -> str:
    """A change of ``kind`` to hand ``number`` (from ``old`` to ``new``) in a sentence, as the
    history says it: "Hand 3 corrected: Carla 3 tricks (was 2)", "Dario joins from hand 3"."""
    if number == ROSTER:
        fact = wording.roster(roster_step(old, new))
        return {"undo": _("Undone: %(what)s", what=fact),
                "redo": _("Redone: %(what)s", what=fact)}.get(kind, fact)
    hand = _(words.numbered, n=number)
    if kind == "undo":
        if new is None:
            return _("%(hand)s undone", hand=hand)
        return _("%(hand)s: change undone: %(facts)s", hand=hand,
                 facts="; ".join(wording.changes(old, new)))
    if kind == "redo":
        facts = wording.changes(old, new) or wording.facts(new)
        return _("%(hand)s: redone: %(facts)s", hand=hand, facts="; ".join(facts))
    if kind == "correct":
        facts = wording.changes(old, new) or [_("nothing changed")]
        return _("%(hand)s corrected: %(facts)s", hand=hand, facts="; ".join(facts))
    return _("%(hand)s: %(facts)s", hand=hand, facts="; ".join(wording.facts(new)))


def entries(words: Words, names: Sequence[str], sides: Sequence[Sequence[int]],
            changes: Sequence[Change], zone: tzinfo | None,
            people: Mapping[Any, str] | None = None) -> list[Entry]:
    """The history of a match, newest first, as sentences in the game's ``words``
    (``changes`` oldest first), its times in ``zone``."""
    wording = Speaker(words.fields, names, sides, people)
    undone_numbers: set[int] = set()
    out = []
    for group in grouped(changes):
        first, last = group[0], group[-1]
        if first.number == ROSTER:
            out.append(Entry(sentence(wording, words, first.number, first.kind, first.old,
                                      first.new), local_time(first.created_at, zone),
                             first.created_at.replace(tzinfo=UTC).isoformat(), first.undone,
                             ()))
            continue
        if last.kind == "undo":
            undone_numbers.add(first.number)
        if last.kind == "enter" and first.number in undone_numbers and first.old is None:
            said = _("%(hand)s entered again: %(facts)s", hand=_(words.numbered,
                                                                  n=first.number),
                     facts="; ".join(wording.facts(last.new)))
        else:
            said = sentence(wording, words, first.number, last.kind, first.old, last.new)
        out.append(Entry(said, local_time(last.created_at, zone),
                         last.created_at.replace(tzinfo=UTC).isoformat(),
                         all(c.undone for c in group), wording.table(first.old, last.new)))
    return out[::-1]


SHORT = 24  # the longest fact a button says whole: a bid, a deal's result


def _step_what(wording: Speaker, words: Words, change: Change, before: Any,
               after: Any) -> str:
    """What taking back ``change`` (from ``before`` to ``after``) does, in a few words: one
    short fact names itself ("Anna bid 2"); anything longer is named by its hand."""
    if change.number == ROSTER:
        return wording.roster(roster_step(before, after))
    facts = [] if not after else (
        wording.changes(before, after) if before else wording.facts(after))
    if len(facts) == 1 and len(facts[0]) <= SHORT:
        return facts[0]
    return _(words.numbered, n=change.number)


LONG = 50  # the longest correction a button says whole (two counts of tricks), after the hand
CORRECTIONS = {  # what Undo and Redo say of a correction: with what it changed, or without
    "undo": (N_("Undo the correction of %(hand)s: %(facts)s"),
             N_("Undo the correction of %(hand)s")),
    "redo": (N_("Redo the correction of %(hand)s: %(facts)s"),
             N_("Redo the correction of %(hand)s")),
}


def step_label(wording: Speaker, words: Words, step: Any, kind: str, hands: int,
               whole: Callable[[int, Any], bool]) -> str:
    """What Undo or Redo (``kind``) does, exactly, to ``step`` (the change Undo takes back,
    or the undo Redo takes back; it puts back ``step.old``): a hand saved, "Undo: delete
    Hand 3" (or "Undo the save of Hand 3" when a part of it stays, Navawhist's bids), "Redo:
    save Hand 3 again"; a correction, "Undo the correction of Hand 3: Anna 1 trick (was 0)";
    a part of a hand or a change of who plays by itself, "Undo: Anna bid 2", "Undo: Dario
    joins from hand 3".

    ``hands``: how many whole hands the sheet holds now; ``whole(number, inputs)``: whether
    hand ``number`` with ``inputs`` would be a whole hand of the sheet (asked only where the
    stored change does not say)."""
    hand = _(words.numbered, n=step.number)
    whole_now = step.number != ROSTER and step.number <= hands
    if kind == "undo" and whole_now and step.old is None:
        return _(N_("Undo: delete %(hand)s"), hand=hand)
    if whole_now and (kind == "redo" or step.kind == "correct"
                      or step.kind == "redo" and whole(step.number, step.old)):
        before, after = (step.old, step.new) if kind == "undo" else (step.new, step.old)
        facts = "; ".join(wording.changes(before, after))
        said, short = CORRECTIONS[kind]
        return _(said, hand=hand, facts=facts) if facts and len(facts) <= LONG else \
            _(short, hand=hand)
    if kind == "undo" and whole_now:
        return _(N_("Undo the save of %(hand)s"), hand=hand)
    if kind == "redo" and step.number != ROSTER and step.old is not None \
            and whole(step.number, step.old):
        return _(N_("Redo: save %(hand)s again"), hand=hand)
    before, after = (step.old, step.new) if kind == "undo" else (step.new, step.old)
    what = _step_what(wording, words, step, before, after)
    return _(N_("Undo: %(what)s"), what=what) if kind == "undo" else \
        _(N_("Redo: %(what)s"), what=what)


def step_labels(words: Words, names: Sequence[str], sides: Sequence[Sequence[int]],
                undoable: Any, redoable: Any, people: Mapping[Any, str] | None = None, *,
                hands: int, whole: Callable[[int, Any], bool]) -> tuple[str | None, str | None]:
    """The words of Undo and Redo (:func:`step_label`); None where there is nothing to take
    back."""
    wording = Speaker(words.fields, names, sides, people)
    undo, redo = (None if step is None else step_label(wording, words, step, kind, hands, whole)
                  for step, kind in ((undoable, "undo"), (redoable, "redo")))
    return undo, redo


def step_done(words: Words, names: Sequence[str], sides: Sequence[Sequence[int]],
              undoable: Change | None, redoable: Change | None, step: str,
              people: Mapping[Any, str] | None = None) -> str | None:
    """What the undo or redo (``step``) just made did, from what Undo and Redo would take
    back now: "Undone: Anna bid 2." (what Redo would put back), "Redone: Hand 4." (what Undo
    would take back again); None when there is no such change (another phone's since)."""
    wording = Speaker(words.fields, names, sides, people)
    if step == "undo" and redoable is not None:
        return _(N_("Undone: %(what)s."), what=_step_what(
            wording, words, redoable, redoable.new, redoable.old))
    if step == "redo" and undoable is not None:
        return _(N_("Redone: %(what)s."), what=_step_what(
            wording, words, undoable, undoable.old, undoable.new))
    return None
