"""Forty-Five: card order, tricks, the bonus, sides and the match (docs/rules.md#forty-five)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GAMES
from scorekeeper.rules.cards import RANKS, Card
from scorekeeper.rules.core import Event, RuleError
from scorekeeper.rules.fortyfive import (
    GAME,
    best_trump,
    build_sheet,
    play_tricks,
    rank_table,
    score_hand,
    sides,
    trick_state,
    trick_winner,
    trump_rank,
)

# The rank tables of docs/rules.md#forty-five-card-ranks; a bare rank belongs to the row's suit.
BLACK = "K Q J A 2 3 4 5 6 7 8 9 10"
DIAMONDS = "K Q J 10 9 8 7 6 5 4 3 2 A"
HEARTS = "K Q J 10 9 8 7 6 5 4 3 2"
RULES_TABLE = {
    "♦": ("5 J A♥ A K Q 10 9 8 7 6 4 3 2", {"♥": HEARTS, "♣": BLACK, "♠": BLACK}),
    "♥": ("5 J A K Q 10 9 8 7 6 4 3 2", {"♦": DIAMONDS, "♣": BLACK, "♠": BLACK}),
    "♣": ("5 J A♥ A K Q 2 3 4 6 7 8 9 10", {"♦": DIAMONDS, "♥": HEARTS, "♠": BLACK}),
    "♠": ("5 J A♥ A K Q 2 3 4 6 7 8 9 10", {"♦": DIAMONDS, "♥": HEARTS, "♣": BLACK}),
}
SUITS = tuple(RULES_TABLE)
DECK = [Card(r, s) for s in SUITS for r in RANKS]


def expand(row: str, suit: str) -> list[str]:
    return [t if t[-1] in "♠♥♦♣" else t + suit for t in row.split()]


def model_winner(trump: str, cards: list[Card]) -> int:
    """The winner read straight off the docs/rules.md rank tables."""
    trumps = expand(RULES_TABLE[trump][0], trump)
    names = [str(c) for c in cards]
    played_trumps = [n for n in names if n in trumps]
    if played_trumps:
        return names.index(min(played_trumps, key=trumps.index))
    led = cards[0].suit
    order = expand(RULES_TABLE[trump][1][led], led)
    return names.index(min((n for n in names if n in order), key=order.index))


# --- the rank table -------------------------------------------------------------------


@pytest.mark.parametrize("trump", SUITS)
def test_rank_table_is_the_rules_table(trump: str) -> None:
    table = rank_table(trump)
    trumps, others = RULES_TABLE[trump]
    assert table["trumps"] == expand(trumps, trump)
    assert set(table) == {"trumps", *others}
    for suit, row in others.items():
        assert table[suit] == expand(row, suit)


@pytest.mark.parametrize("trump", ["S", "h", "♦", "C"])
def test_rank_table_orders_each_card_once(trump: str) -> None:
    cards = [c for row in rank_table(trump).values() for c in row]
    assert sorted(cards) == sorted(str(c) for c in DECK)


@pytest.mark.parametrize("trump", SUITS)
def test_ace_of_hearts_is_always_the_third_best_trump(trump: str) -> None:
    assert rank_table(trump)["trumps"][:3] == [f"5{trump}", f"J{trump}", "A♥"]
    assert trump_rank(trump, "AH") == 3
    assert trump_rank(trump, Card("5", trump)) == 1
    assert trump_rank(trump, Card("J", trump)) == 2


def test_trump_rank_of_other_cards() -> None:
    assert trump_rank("D", "AD") == 4
    assert trump_rank("H", "KH") == 4  # with hearts trump there is no second Ace
    assert trump_rank("C", "2C") == 7 and trump_rank("C", "10C") == 14
    assert trump_rank("D", "10D") == 7 and trump_rank("D", "2D") == 14
    assert trump_rank("D", "KH") is None and trump_rank("S", "5C") is None


# --- tricks -----------------------------------------------------------------------------


@pytest.mark.parametrize(("trump", "cards", "winner"), [
    ("C", "2C 10C", 0),          # black trumps: the 2 beats the 10
    ("D", "2D 10D", 1),          # red trumps: the 10 beats the 2
    ("S", "KH AH", 1),           # the A♥ is a trump whatever the suit
    ("D", "AH 5D", 1),           # the 5 of trumps beats the A♥
    ("D", "AH KH", 0),           # the K♥ is no trump
    ("H", "AH KH JH", 2),        # hearts trump: 5 J A♥ K
    ("C", "3D AD", 0),           # a red Ace off-suit is the lowest
    ("D", "AC KC", 1),           # black off-suit: K Q J A
    ("H", "JS AS 2S", 0),
    ("H", "2S 10S", 0),          # black off-suit runs low to high after the Ace
    ("H", "2D KS QC", 0),        # only the led suit or a trump can win
    ("S", "QD 2S KD", 1),        # the lowest trump beats the led suit
])
def test_trick_winner_examples(trump: str, cards: str, winner: int) -> None:
    assert trick_winner(trump, cards) == winner


def test_trick_winner_takes_cards_or_tokens() -> None:
    assert trick_winner("♥", [Card("K", "♥"), Card("5", "♥")]) == 1
    assert trick_winner("h", ["KH", "5H"]) == 1
    assert trick_winner("H", "KS") == 0


@pytest.mark.parametrize(("trump", "cards"), [
    ("H", "5H J"),      # a card without a suit
    ("H", "5H *"),      # a joker
    ("H", "5H 5H"),     # the same card twice
    ("H", ""),          # no card
    ("X", "5H 6H"),     # no such suit
    ("H", "5H 11H"),    # no such card
])
def test_trick_winner_refuses(trump: str, cards: str) -> None:
    with pytest.raises(RuleError):
        trick_winner(trump, cards)


@given(st.sampled_from(SUITS), st.permutations(DECK), st.integers(2, 6))
def test_trick_winner_follows_the_rules_table(trump: str, deck: list[Card], n: int) -> None:
    cards = deck[:n]
    assert trick_winner(trump, cards) == model_winner(trump, cards)


@given(st.sampled_from(SUITS), st.permutations(DECK), st.integers(2, 6))
def test_a_trump_beats_any_non_trump(trump: str, deck: list[Card], n: int) -> None:
    cards = deck[:n]
    is_trump = [c.suit == trump or c == Card("A", "♥") for c in cards]
    winner = trick_winner(trump, cards)
    assert is_trump[winner] == any(is_trump)
    if any(is_trump):
        assert trump_rank(trump, cards[winner]) == min(
            trump_rank(trump, c) for c, t in zip(cards, is_trump, strict=True) if t)


@given(st.sampled_from(SUITS), st.permutations(DECK), st.integers(1, 5), st.data())
def test_the_five_of_trumps_beats_everything(trump: str, deck: list[Card], others: int,
                                             data: st.DataObject) -> None:
    five = Card("5", trump)
    cards = [c for c in deck if c != five][:others]
    at = data.draw(st.integers(0, others))
    cards.insert(at, five)
    assert trick_winner(trump, cards) == at


@given(st.sampled_from(SUITS), st.permutations(DECK), st.integers(1, 5), st.data())
def test_the_ace_of_hearts_beats_all_but_the_five_and_jack(
        trump: str, deck: list[Card], others: int, data: st.DataObject) -> None:
    ace, top = Card("A", "♥"), {Card("5", trump), Card("J", trump)}
    cards = [c for c in deck if c != ace and c not in top][:others]
    at = data.draw(st.integers(0, others))
    cards.insert(at, ace)
    assert trick_winner(trump, cards) == at
    beaten_by = data.draw(st.sampled_from(sorted(top)))
    assert trick_winner(trump, cards + [beaten_by]) == len(cards)


# --- the bonus and the trick helper -------------------------------------------------------


def test_best_trump() -> None:
    assert best_trump("D", ["KD 2C 3C", "AH 5C 6C", "AD 7C 8C"]) == (1, Card("A", "♥"))
    assert best_trump("C", [["2C", "KS"], ["10C", "QS"]]) == (0, Card("2", "♣"))
    assert best_trump("H", ["KS QS", "2D 3D"]) is None
    assert best_trump("H", []) is None


def test_best_trump_refuses_a_card_played_twice() -> None:
    with pytest.raises(RuleError):
        best_trump("H", ["KS QS", "KS 3D"])


def test_play_tricks_four_players() -> None:
    # Spades trump; seat 3 leads. The winner of a trick leads the next.
    plays = [
        "KH 2H QH 3H",   # led by 3: K♥ wins (seat 3)
        "4C 2S 5C 6C",   # led by 3: 2♠ trumps (seat 0)
        "JD AD QD KD",   # led by 0: K♦ wins (seat 3)
        "AH 9S 10S 8S",  # led by 3: A♥ is the best trump (seat 3)
        "7D 8D 9D 10D",  # led by 3: 10♦ wins (seat 2)
    ]
    winners, bonus = play_tricks("S", 3, 4, plays)
    assert winners == [3, 0, 3, 3, 2]
    assert bonus == 3


def test_play_tricks_without_trump_and_partial_hands() -> None:
    assert play_tricks("H", 1, 2, ["KS QS", "2D 3D"]) == ([1, 0], None)
    assert play_tricks("H", 1, 2, []) == ([], None)


@pytest.mark.parametrize(("leader", "players", "plays"), [
    (0, 2, ["KS QS JS"]),                     # three cards for two players
    (0, 2, ["KS QS", "KS 2S"]),               # a card played twice
    (0, 2, ["2C 3C"] * 6),                    # six tricks
    (2, 2, ["KS QS"]),                        # no seat 2
    (0, 7, ["KS QS"]),                        # seven players
])
def test_play_tricks_refuses(leader: int, players: int, plays: list[str]) -> None:
    with pytest.raises(RuleError):
        play_tricks("H", leader, players, plays)


@given(st.sampled_from(SUITS), st.integers(2, 6), st.integers(0, 5), st.permutations(DECK))
def test_play_tricks_names_the_best_trumps_player(trump: str, players: int, leader: int,
                                                  deck: list[Card]) -> None:
    leader %= players
    plays = [deck[i * players:(i + 1) * players] for i in range(5)]
    winners, bonus = play_tricks(trump, leader, players, plays)
    seat = leader
    for trick, winner in zip(plays, winners, strict=True):
        seat = (seat + model_winner(trump, trick)) % players
        assert winner == seat
    trumps = expand(RULES_TABLE[trump][0], trump)
    played = [str(c) for trick in plays for c in trick if str(c) in trumps]
    if not played:
        assert bonus is None
    else:
        best = min(played, key=trumps.index)
        number = next(i for i, trick in enumerate(plays) if best in map(str, trick))
        assert bonus == winners[number]


# --- sides and the score of a hand ------------------------------------------------------------


def test_sides() -> None:
    assert sides(2) == [[0], [1]]
    assert sides(3) == [[0], [1], [2]]
    assert sides(5) == [[0], [1], [2], [3], [4]]
    assert sides(4) == [[0, 2], [1, 3]]
    assert sides(6) == [[0, 2, 4], [1, 3, 5]]
    assert sides(6, three_pairs=True) == [[0, 3], [1, 4], [2, 5]]
    assert sides(4, three_pairs=True) == [[0, 2], [1, 3]]  # only for six players


@pytest.mark.parametrize("players", [0, 1, 7])
def test_sides_refuses_other_tables(players: int) -> None:
    with pytest.raises(RuleError):
        sides(players)


def test_score_hand() -> None:
    assert score_hand([2, 1, 2], 1) == [10, 10, 10]
    assert score_hand([5, 0], 0) == [30, 0]
    assert score_hand([5, 0], None) == [25, 0]
    assert score_hand(["1", "4"], "0") == [10, 20]


@pytest.mark.parametrize(("tricks", "bonus", "seat"), [
    ([2, 2], 0, None),          # add up to 4
    ([3, 3], 0, None),          # add up to 6
    ([5, 0], 1, 1),             # the bonus for a side with no trick
    ([5, 0], 2, None),          # no side 2
    ([6, -1], 0, 0),            # more tricks than a hand has
    ([-1, 6], 1, 0),
    (["x", 5], None, 0),
    ([2.5, 2.5], None, 0),
])
def test_score_hand_refuses(tricks: list, bonus: int | None, seat: int | None) -> None:
    with pytest.raises(RuleError) as caught:
        score_hand(tricks, bonus)
    assert caught.value.seat == seat


def test_score_hand_names_a_player_of_the_side() -> None:
    with pytest.raises(RuleError) as caught:
        score_hand([5, 0], 1, columns=[[0, 2], [1, 3]])
    assert caught.value.seat == 1
    with pytest.raises(RuleError):
        score_hand([5, 0, 0], None, columns=[[0, 2], [1, 3]])


@given(st.integers(2, 6), st.lists(st.integers(0, 5), min_size=5, max_size=5), st.data())
def test_a_hand_totals_30_or_25(players: int, raw: list[int], data: st.DataObject) -> None:
    winners = [w % players for w in raw]
    bonus = data.draw(st.none() | st.sampled_from(winners))
    sheet = build_sheet(players, [{"trick_winners": winners, "bonus_seat": bonus}], target=125)
    points = sheet.rows[0].points
    assert sum(points) == (25 if bonus is None else 30)
    assert all(p % 5 == 0 for p in points)


# --- the match ---------------------------------------------------------------------------------


def by_sides(*hands: tuple[list[int], int | None]) -> list[dict]:
    return [{"side_tricks": tricks, "bonus_side": bonus} for tricks, bonus in hands]


def test_first_side_to_the_target_wins() -> None:
    hands = by_sides(([3, 2], 0), ([3, 2], 0), ([3, 2], 1))
    sheet = build_sheet(2, hands)
    assert [r.totals for r in sheet.rows] == [(20, 10), (40, 20), (55, 35)]
    assert sheet.finished and sheet.winners == (0,) and sheet.next is None
    assert sheet.places == (1, 2)


def test_several_pass_the_target_the_higher_total_wins() -> None:
    hands = by_sides(([4, 1, 0], 0), ([0, 3, 2], 1), ([2, 2, 1], 0), ([0, 4, 1], None))
    sheet = build_sheet(3, hands)
    assert [r.totals for r in sheet.rows] == [(25, 5, 0), (25, 25, 10), (40, 35, 15),
                                              (40, 55, 20)]
    assert sheet.winners == (1,)
    hands[-1] = {"side_tricks": [1, 4, 0], "bonus_side": 0}
    sheet = build_sheet(3, hands)
    assert sheet.totals == (50, 55, 15) and sheet.winners == (1,)


def test_a_tie_at_the_top_plays_on_and_the_rule_applies_to_all_sides() -> None:
    hands = by_sides(([2, 2, 1], 0), ([2, 2, 1], 1), ([2, 2, 1], None), ([2, 2, 1], None))
    sheet = build_sheet(3, hands)
    assert [r.totals for r in sheet.rows][-2:] == [(35, 35, 15), (45, 45, 20)]
    assert not sheet.finished and sheet.status.tie_goes_on and sheet.status.tied == [0, 1]
    assert sheet.rows[-1].events == (Event.NO_TRUMP, Event.TIE_AT_TOP)
    assert sheet.next is not None and sheet.next.number == 5
    # Still tied at the top, both higher: play goes on again.
    sheet = build_sheet(3, hands + by_sides(([1, 1, 3], None)))
    assert sheet.totals == (50, 50, 35) and not sheet.finished
    # The rule applies to all sides: the third side passes both and wins.
    sheet = build_sheet(3, hands + by_sides(([0, 0, 5], 2)))
    assert sheet.totals == (45, 45, 50) and sheet.winners == (2,)
    assert not sheet.status.tie_goes_on and sheet.places == (2, 2, 1)
    # Or one of the tied sides pulls ahead and wins.
    sheet = build_sheet(3, hands + by_sides(([1, 2, 2], 1)))
    assert sheet.totals == (50, 60, 30) and sheet.winners == (1,)


def test_hands_after_the_end_are_refused() -> None:
    hands = by_sides(([5, 0], 0), ([5, 0], 0))
    assert build_sheet(2, hands).finished
    with pytest.raises(RuleError):
        build_sheet(2, hands + by_sides(([0, 5], 1)))


def test_jink_wins_at_once_when_switched_on() -> None:
    hands = [{"trick_winners": [1, 3, 1, 1, 3], "bonus_seat": None}]
    sheet = build_sheet(4, hands, jink=True)
    assert sheet.totals == (0, 25) and sheet.finished and sheet.winners == (1,)
    assert sheet.places == (2, 1)
    assert sheet.status.won_by_jink and sheet.rows[0].events == (
        Event.NO_TRUMP, Event.ALL_FIVE)
    sheet = build_sheet(4, hands)
    assert not sheet.finished and sheet.options["jink"] is False


@pytest.mark.parametrize(("target", "hands_to_win"), [(45, 2), (120, 4), (125, 5)])
def test_targets(target: int, hands_to_win: int) -> None:
    hands = by_sides(*[([5, 0], 0)] * hands_to_win)
    assert not build_sheet(2, hands[:-1], target=target).finished
    sheet = build_sheet(2, hands, target=str(target))
    assert sheet.finished and sheet.status.target == target
    with pytest.raises(RuleError):
        build_sheet(2, hands, target=100)


def test_three_pairs_for_six_players_only() -> None:
    hand = {"trick_winners": [0, 3, 1, 4, 2], "bonus_seat": 3}
    sheet = build_sheet(6, [hand], three_pairs=True)
    assert sheet.columns == ((0, 3), (1, 4), (2, 5))
    assert sheet.rows[0].points == (15, 10, 5) and sheet.options["three_pairs"] is True
    sheet = build_sheet(6, [hand])
    assert sheet.columns == ((0, 2, 4), (1, 3, 5)) and sheet.rows[0].points == (15, 15)
    assert build_sheet(6, [hand], three_pairs="off").columns == sheet.columns
    sheet = build_sheet(4, [{"trick_winners": [0, 3, 1, 2, 2], "bonus_seat": 3}],
                        three_pairs=True)
    assert sheet.columns == ((0, 2), (1, 3)) and sheet.options["three_pairs"] is False


def test_hand_by_trick_winners() -> None:
    sheet = build_sheet(4, [{"trick_winners": ["0", 1, 2, 2, 3], "bonus_seat": "2"}])
    row = sheet.rows[0]
    assert row.points == (20, 10)
    assert row.inputs == {"trick_winners": [0, 1, 2, 2, 3], "bonus_seat": 2,
                          "side_tricks": [3, 2], "bonus_side": 0}


def test_hand_by_cards_played() -> None:
    # Two players, hearts trump, seat 0 deals so seat 1 leads the first trick.
    plays = ["3H 2H", "KS 5S", "AD 2D", "7C 10C", "5H AH"]
    sheet = build_sheet(2, [{"trump": "h", "plays": plays}])
    row = sheet.rows[0]
    assert row.inputs["trick_winners"] == [1, 1, 0, 0, 0]
    assert row.inputs["bonus_seat"] == 0 and row.inputs["leader"] == 1
    assert row.inputs["plays"][4] == ["5♥", "A♥"]
    assert row.points == (20, 10)
    sheet = build_sheet(2, [{"trump": "H", "plays": [p.split() for p in plays], "leader": 0}])
    assert sheet.rows[0].inputs["trick_winners"] == [0, 0, 1, 1, 1]


def test_dealer_and_next() -> None:
    hands = by_sides(([3, 2, 0], 0), ([1, 2, 2], None))
    sheet = build_sheet(3, hands, first_dealer=2)
    assert [r.dealer for r in sheet.rows] == [2, 0]
    assert sheet.next is not None
    assert (sheet.next.number, sheet.next.dealer, sheet.next.seats) == (3, 1, (0, 1, 2))
    assert sheet.next.info.as_json() == {"sides": [[0], [1], [2]], "leader": 2, "tricks": 5}
    assert sheet.status.as_json() == {"target": 45, "jink": False, "three_pairs": False,
                            "tie_goes_on": False, "tied": [], "won_by_jink": False,
                            "played": 2, "to_go": [20, 25, 35]}
    json.dumps(sheet.status.as_json())
    json.dumps(sheet.next.info.as_json())
    assert build_sheet(2, []).next.info.leader == 1


@pytest.mark.parametrize(("hand", "seat"), [
    ({"trick_winners": [0, 0, 0, 0, 0], "bonus_seat": 1}, 1),       # bonus seat took no trick
    ({"trick_winners": [0, 2, 0, 2, 0], "bonus_seat": 3}, 3),       # nor did their partner
    ({"side_tricks": [5, 0], "bonus_side": 1}, 1),                  # a side with no trick
    ({"side_tricks": [3, 3], "bonus_side": 1}, None),               # six tricks
    ({"side_tricks": [2, 2], "bonus_side": None}, None),            # four tricks
    ({"side_tricks": [5, 0, 0], "bonus_side": None}, None),         # three sides for two
    ({"side_tricks": "50", "bonus_side": None}, None),              # not a list
    ({"side_tricks": [5, 0], "bonus_side": 2}, None),               # no side 2
    ({"side_tricks": [5, 0]}, None),                                # bonus not said
    ({"trick_winners": [0, 1, 0, 1, 0]}, None),                     # bonus not said
    ({"trick_winners": [0, 1, 0, 1], "bonus_seat": 0}, None),       # four tricks
    ({"trick_winners": [0, 1, 0, 1, 4], "bonus_seat": 0}, None),    # no seat 4
    ({"trick_winners": [0, 1, 0, 1, 1], "bonus_seat": "x"}, None),
    ({}, None),                                                     # nothing entered
    ({"side_tricks": [5, 0], "bonus_side": 0,                       # two forms at once
      "trick_winners": [0, 0, 0, 0, 0], "bonus_seat": 0}, None),
    ({"plays": ["2H 3H 4H 5H"] * 5}, None),                         # no trump suit
    ({"trump": "H", "plays": ["2H 3H 4H 6H"]}, None),               # one trick
    ({"trump": "H", "plays": ["2H 3H 4H 6H"] * 5}, None),           # the same cards again
    ({"trump": "H", "leader": 4, "plays": ["2H 3H 4H 6H"] * 5}, None),
])
def test_hand_refusals(hand: dict, seat: int | None) -> None:
    with pytest.raises(RuleError) as caught:
        build_sheet(4, [hand])
    assert caught.value.seat == seat


def test_no_trump_played_may_be_an_empty_field() -> None:
    sheet = build_sheet(2, [{"trick_winners": [0, 1, 0, 1, 0], "bonus_seat": ""},
                            {"side_tricks": ["2", "3"], "bonus_side": ""}])
    assert [r.points for r in sheet.rows] == [(15, 10), (10, 15)]
    assert sheet.rows[1].events == (Event.NO_TRUMP,)


@pytest.mark.parametrize(("players", "first_dealer"), [(1, 0), (7, 0), (3, 3)])
def test_table_refusals(players: int, first_dealer: int) -> None:
    with pytest.raises(RuleError):
        build_sheet(players, [], first_dealer=first_dealer)


@settings(max_examples=60)
@given(st.integers(2, 6), st.booleans(), st.booleans(), st.sampled_from([45, 120, 125]),
       st.randoms(use_true_random=False))
def test_the_match_ends_as_the_rules_say(players: int, pairs: bool, jink: bool, target: int,
                                         rng: random.Random) -> None:
    hands: list[dict] = []
    while True:
        winners = [rng.randrange(players) for _ in range(5)]
        bonus = rng.choice(winners + [None])
        try:
            sheet = build_sheet(players, hands + [{"trick_winners": winners,
                                                    "bonus_seat": bonus}],
                                target=target, jink=jink, three_pairs=pairs)
        except RuleError:
            break  # only once the match is over
        hands.append({"trick_winners": winners, "bonus_seat": bonus})
    sheet = build_sheet(players, hands, target=target, jink=jink, three_pairs=pairs)
    assert sheet.finished and len(sheet.winners) == 1
    winner = sheet.winners[0]
    last = sheet.rows[-1]
    for row in sheet.rows[:-1]:
        passed = [t for t in row.totals if t >= target]
        assert not passed or row.totals.count(max(passed)) > 1
        assert not (jink and 5 in row.inputs["side_tricks"])
    if jink and 5 in last.inputs["side_tricks"]:
        assert last.inputs["side_tricks"][winner] == 5
    else:
        assert sheet.totals[winner] >= target
        assert all(t < sheet.totals[winner] for i, t in enumerate(sheet.totals) if i != winner)
    assert sheet.places[winner] == 1


def test_registry_entry() -> None:
    assert GAMES["fortyfive"] is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players, GAME.clockwise) == (
        "Forty-Five", 2, 6, True)
    options = {o.key: o for o in GAME.options}
    assert {k: o.default for k, o in options.items()} == {
        "target": 45, "jink": False, "three_pairs": False, "entry": "lowest"}
    assert options["target"].choices == (45, 120, 125)
    assert options["three_pairs"].players == (6,)
    assert options["entry"].choices == ("lowest", "zero")
    assert GAME.clean_options(4, {"three_pairs": "on", "jink": "on"}) == {
        "target": 45, "jink": True, "three_pairs": False, "entry": "lowest"}
    assert GAME.clean_options(6, {"three_pairs": "on", "target": "120"})["three_pairs"] is True


def test_trick_state_follows_the_play_card_by_card():
    # Three players, hearts trump; seat 1 leads. Trick 1: 2♥ (1), 5♥ (2, the best trump), K♠ (0).
    state = trick_state("H", 1, 3, ["2H", "5H", "KS", "3S"])
    assert [t.winner for t in state.tricks] == [2, None]
    assert state.tricks[0].plays == ((1, "2♥"), (2, "5♥"), (0, "K♠"))
    assert state.tricks[1].plays == ((2, "3♠"),)
    assert state.to_play == 0 and not state.done
    assert (state.best.card, state.best.seat, state.best.trick, state.best.taker) == (
        "5♥", 2, 1, 2)


def test_trick_state_is_done_after_five_tricks_and_asks_for_the_trump_first():
    cards = ["2H", "3H", "KS", "5S", "AD", "2D", "7C", "10C", "AH", "5H"]
    state = trick_state("H", 0, 2, cards)
    assert state.done and state.to_play is None and len(state.tricks) == 5
    assert trick_state("", 0, 2, []).to_play == 0
    with pytest.raises(RuleError, match="trump suit first"):
        trick_state("", 0, 2, ["2H"])
    with pytest.raises(RuleError, match="played twice"):
        trick_state("H", 0, 2, ["2H", "2H"])


def test_every_event_has_a_label():
    assert {event.label for event in Event} >= {"no trump played", "all five tricks"}
    assert all(event.label for event in Event)


def test_points_to_go_per_side_reach_zero_at_the_target() -> None:
    sheet = build_sheet(4, [{"side_tricks": [4, 1], "bonus_side": 0},
                            {"side_tricks": [1, 4], "bonus_side": 1}], target=45)
    assert sheet.totals == (30, 30)
    assert sheet.status.to_go == [15, 15]
    won = build_sheet(4, [{"side_tricks": [5, 0], "bonus_side": 0}] * 2)
    assert won.totals == (60, 0) and won.status.to_go == [0, 45]
