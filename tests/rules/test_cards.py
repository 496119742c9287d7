"""Cards typed or tapped (docs/rules.md#cards-typed-or-tapped)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import AMBIGUOUS, UNKNOWN, Card, parse_card, parse_cards, suit_symbol
from scorekeeper.rules.core import RuleError

# Written out from docs/rules.md, "Cards typed or tapped", not imported from the module under test.
RANK_TOKENS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_BY_LETTER = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SYMBOLS = ["♠", "♥", "♦", "♣"]


def cards(text: str) -> list[str]:
    """The cards of ``text`` as strings, for short assertions."""
    return [str(c) for c in parse_cards(text)]


# --- rank tokens and the joker ---------------------------------------------------------------


@pytest.mark.parametrize("rank", RANK_TOKENS)
def test_every_rank_token_without_a_suit(rank: str) -> None:
    assert parse_cards(rank) == [Card(rank)]
    assert parse_cards(rank)[0].suit is None


@pytest.mark.parametrize("rank", ["a", "j", "q", "k"])
def test_rank_letters_are_case_insensitive(rank: str) -> None:
    assert parse_cards(rank) == [Card(rank.upper())]


@pytest.mark.parametrize("token", ["*", "JOLLY", "jolly", "Jolly", "JOKER", "joker", "JoKeR"])
def test_joker_spellings(token: str) -> None:
    assert parse_cards(token) == [Card("*")]
    assert str(parse_cards(token)[0]) == "*"


# --- suits ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", RANK_TOKENS)
@pytest.mark.parametrize("symbol", SYMBOLS)
def test_suit_symbol_attached_to_every_rank(rank: str, symbol: str) -> None:
    assert parse_cards(rank + symbol) == [Card(rank, symbol)]
    assert str(parse_cards(rank + symbol)[0]) == rank + symbol


@pytest.mark.parametrize("rank", RANK_TOKENS)
@pytest.mark.parametrize(("letter", "symbol"), sorted(SUIT_BY_LETTER.items()))
def test_suit_letter_in_either_case(rank: str, letter: str, symbol: str) -> None:
    assert parse_cards(rank + letter) == [Card(rank, symbol)]
    assert parse_cards((rank + letter).lower()) == [Card(rank, symbol)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10♥", Card("10", "♥")), ("Qs", Card("Q", "♠")), ("AH", Card("A", "♥")),
     ("qS", Card("Q", "♠")), ("kc", Card("K", "♣")), ("Jd", Card("J", "♦"))],
)
def test_examples_from_the_rules(text: str, expected: Card) -> None:
    assert parse_cards(text) == [expected]


def test_a_suit_must_be_attached_with_no_space() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("10 ♥")
    assert caught.value.params["token"] == "♥"


# --- Italian names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "rank"),
    [("F", "J"), ("f", "J"), ("FANTE", "J"), ("Fante", "J"), ("fante", "J"),
     ("D", "Q"), ("d", "Q"), ("DONNA", "Q"), ("Donna", "Q"), ("donna", "Q"),
     ("R", "K"), ("r", "K"), ("RE", "K"), ("Re", "K"), ("re", "K")],
)
def test_italian_names(token: str, rank: str) -> None:
    assert parse_cards(token) == [Card(rank)]


def test_a_token_is_read_whole_ten_and_donna_versus_ten_of_diamonds() -> None:
    assert parse_cards("10 D") == [Card("10"), Card("Q")]
    assert parse_cards("10D") == [Card("10", "♦")]
    assert parse_cards("10d") == [Card("10", "♦")]
    assert parse_cards("10,D") == [Card("10"), Card("Q")]


# --- cards run together ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["kq", "KQ", "Kq", "k q", "K, q", "kQ"])
def test_cards_run_together_read_as_the_same_cards(text: str) -> None:
    assert parse_cards(text) == [Card("K"), Card("Q")]


@pytest.mark.parametrize("text", ["10k", "10K", "10 k", "10 K"])
def test_a_ten_runs_into_the_next_card(text: str) -> None:
    assert parse_cards(text) == [Card("10"), Card("K")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("A75", ["A", "7", "5"]), ("1010", ["10", "10"]), ("k10", ["K", "10"]),
     ("KsQ", ["K♠", "Q"]), ("K♥Q", ["K♥", "Q"]), ("7h10c", ["7♥", "10♣"]),
     ("rf", ["K", "J"]), ("**", ["*", "*"]), ("k*", ["K", "*"]), ("AKDS", ["A", "K", "Q♠"])],
)
def test_runs_with_suits_italian_letters_and_jokers(text: str, expected: list[str]) -> None:
    assert cards(text) == expected


@pytest.mark.parametrize("token", ["AD", "10D", "Kd", "re", "fante", "jolly"])
def test_a_token_that_is_one_card_stays_one_card(token: str) -> None:
    assert len(parse_cards(token)) == 1


@pytest.mark.parametrize("token", ["KDQ", "AKD", "rd", "10dq", "QDD"])
def test_a_run_read_two_ways_is_refused_as_ambiguous(token: str) -> None:
    """A D after a rank is a diamond or a Donna: in a run of cards either may be meant."""
    with pytest.raises(RuleError) as caught:
        parse_cards(f"A {token} 7")
    assert caught.value.template == AMBIGUOUS
    assert caught.value.params == {"token": token}
    assert repr(token) in str(caught.value)


@pytest.mark.parametrize("token", ["KX", "k11", "*h", "kqz", "Q♥♥K", "10♥SK", "1k"])
def test_a_run_that_reads_no_way_is_an_unknown_card(token: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(token)
    assert caught.value.template == UNKNOWN
    assert caught.value.params == {"token": token}


def test_a_long_run_is_read_in_one_pass() -> None:
    assert len(parse_cards("kq" * 5000)) == 10000
    with pytest.raises(RuleError):
        parse_cards("kd" * 5000 + "q")


def test_a_list_item_is_never_split() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(["kq"])
    assert caught.value.template == UNKNOWN


# --- separators ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["A♥ 10D Qs *", "A♥,10D,Qs,*", "A♥, 10D, Qs, *", "  A♥   10D\tQs\n* ", "A♥,,10D , Qs,*,"],
)
def test_spaces_and_commas_separate_cards(text: str) -> None:
    assert parse_cards(text) == [Card("A", "♥"), Card("10", "♦"), Card("Q", "♠"), Card("*")]


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,"])
def test_no_cards(text: str) -> None:
    assert parse_cards(text) == []


def test_order_and_repeats_are_kept() -> None:
    assert cards("K A K jolly jolly") == ["K", "A", "K", "*", "*"]


def test_mixed_hand() -> None:
    assert cards("10 D, 10D A♥ jolly fante re 2c") == ["10", "Q", "10♦", "A♥", "*", "J", "K", "2♣"]


# --- unknown tokens ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    ["11", "1", "0", "B", "X", "AX", "Q♥♥", "10♥S", "JOLLYS", "♥", "01", "1O", "DONNE", "-",
     "*♥", "10.", "ace"],
)
def test_unknown_token_raises_naming_it(token: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(f"A♥ {token} K")
    error = caught.value
    assert error.params == {"token": token}
    assert error.seat is None
    assert repr(token) in str(error)
    assert isinstance(error, ValueError)


def test_unknown_token_keeps_the_case_it_was_typed_in() -> None:
    with pytest.raises(RuleError, match="'Ace'"):
        parse_cards("Ace")


def test_parse_card_reads_one_token() -> None:
    assert parse_card(" qh ") == Card("Q", "♥")
    with pytest.raises(RuleError):
        parse_card("10 D")


# --- a list of cards or tokens ---------------------------------------------------------------


def test_parse_cards_on_a_list_of_tokens() -> None:
    assert parse_cards(["10D", "d", "jolly", "A♥"]) == [
        Card("10", "♦"), Card("Q"), Card("*"), Card("A", "♥")]


def test_parse_cards_on_a_list_keeps_cards_as_they_are() -> None:
    ace = Card("A", "♠")
    assert parse_cards([ace, "ks"]) == [ace, Card("K", "♠")]
    assert parse_cards([]) == []
    assert parse_cards(iter(["2h"])) == [Card("2", "♥")]


def test_parse_cards_on_a_list_reads_each_item_as_one_token() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(["A", "10 D"])
    assert caught.value.params["token"] == "10 D"


def test_card_text() -> None:
    assert str(Card("10", "♦")) == "10♦"
    assert str(Card("Q")) == "Q"
    assert str(Card("*")) == "*"


# --- suit_symbol -----------------------------------------------------------------------------


@pytest.mark.parametrize(("letter", "symbol"), sorted(SUIT_BY_LETTER.items()))
def test_suit_symbol_from_a_letter(letter: str, symbol: str) -> None:
    assert suit_symbol(letter) == symbol
    assert suit_symbol(letter.lower()) == symbol
    assert suit_symbol(f" {letter} ") == symbol


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_suit_symbol_from_a_symbol(symbol: str) -> None:
    assert suit_symbol(symbol) == symbol
    assert suit_symbol(f" {symbol}\n") == symbol


@pytest.mark.parametrize("text", ["", "X", "hearts", "♡", "SH", "10"])
def test_unknown_suit_raises_naming_it(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        suit_symbol(text)
    assert caught.value.params == {"suit": text}
    assert repr(text) in str(caught.value)


# --- properties ------------------------------------------------------------------------------

ranks = st.sampled_from(RANK_TOKENS)
suits = st.sampled_from(SYMBOLS + list(SUIT_BY_LETTER) + [s.lower() for s in SUIT_BY_LETTER] + [""])
tokens = st.builds(lambda r, s: r + s, ranks, suits) | st.sampled_from(
    ["*", "jolly", "JOKER", "F", "fante", "D", "Donna", "R", "re"])
separators = st.sampled_from([" ", ",", ", ", " , ", "\t", "  ", "\n"])


def expected_card(token: str) -> Card:
    """An independent reading of one well-formed token, straight from docs/rules.md."""
    word = token.upper()
    italian = {"F": "J", "FANTE": "J", "D": "Q", "DONNA": "Q", "R": "K", "RE": "K"}
    if word in ("*", "JOLLY", "JOKER"):
        return Card("*")
    if word in italian:
        return Card(italian[word])
    for rank in sorted(RANK_TOKENS, key=len, reverse=True):
        if word.startswith(rank):
            rest = word[len(rank):]
            return Card(rank, SUIT_BY_LETTER.get(rest, rest) or None)
    raise AssertionError(token)


@given(st.lists(tokens, max_size=12), st.data())
def test_any_well_formed_hand_reads_token_by_token(hand: list[str], data: st.DataObject) -> None:
    text = ""
    for token in hand:
        text += token + data.draw(separators)
    assert parse_cards(text) == [expected_card(t) for t in hand]
    assert parse_cards(hand) == [expected_card(t) for t in hand]


@given(st.lists(tokens, max_size=12))
def test_printed_cards_read_back_the_same(hand: list[str]) -> None:
    parsed = parse_cards(" ".join(hand))
    assert parse_cards(" ".join(str(c) for c in parsed)) == parsed
