"""Quarantotto, Scala 40, Forty-Five and Cavallo Re at 390x844 in Chromium, tapped as at the
table: the card keypad, a typed sum, the trick helper, trick winners, the solitaire log; and
one hand of each game with JavaScript off. Every figure checked is worked out by the rules
engine (scorekeeper.rules) from what was tapped, never read back from the app.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step looked at.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import cavallore, fortyfive, quarantotto, scala40

from .conftest import settled, shot

pytestmark = pytest.mark.browser


def create_match(page: Page, base: str, game: str, names: list[str]) -> None:
    """Fill the new-match form of ``game`` with ``names`` in turn order and start."""
    page.goto(f"{base}/matches/new?game={game}")
    rows = page.locator(".players li")
    for index, name in enumerate(names):
        if index >= rows.count():
            page.get_by_role("button", name="Add a player").click()
            expect(rows).to_have_count(index + 1)
        settled(page)
        page.fill(f"#players-{index}", name)
    while rows.count() > len(names):
        count = rows.count()
        page.locator(f"button[value='remove:{count - 1}']").click()
        expect(rows).to_have_count(count - 1)
    page.locator("button[value=start]").click()
    expect(page.locator(".entry")).to_be_visible()


def totals(page: Page) -> list[int]:
    """The totals row of the sheet, as numbers (the leader's star and tags left out)."""
    cells = page.locator("tr.totals td").all_inner_texts()
    return [int(re.search(r"-?\d+", cell).group()) for cell in cells]


def unfold(page: Page, fold: str) -> bool:
    """Open the line ``fold`` (a selector) when its keys are folded away, by a tap on it: one
    player's keys are open at a time, the others are one line each. True when it took a tap."""
    keys = page.locator(f"{fold} .keypad").first
    settled(page)
    if keys.is_visible():
        return False
    page.locator(fold).click(position={"x": 12, "y": 12})
    expect(keys).to_be_visible()
    return True


def tap(page: Page, seat: int, key: str) -> None:
    """One key of ``seat``'s card keypad (its line opened first when it is folded)."""
    unfold(page, f".hand-entry:has(#pad-{seat})")
    page.locator(f"#pad-{seat} button[value='{seat}:{key}']").click()


def pick_closer(page: Page, name: str) -> None:
    settled(page)
    page.locator("label.key.pick", has_text=name).click()
    # The form is redrawn with the closer's line: wait for it before tapping on.
    expect(page.locator(".closed-line", has_text=name)).to_be_visible()
    settled(page)


# Scala 40 ---------------------------------------------------------------------------------

def test_scala40_deal_with_the_card_keypad(page, live_server):
    names = ["Anna", "Bruno", "Carla"]
    create_match(page, live_server, "scala40", names)
    expect(page.locator(".entry h2")).to_have_text("Deal 1")
    pick_closer(page, "Anna")
    value = page.locator("#pad-value-1")
    expect(value).to_have_text("–")
    tap(page, 1, "A")
    expect(value).to_have_text(str(scala40.hand_points("A")))  # a lone Ace: 1
    expect(value).to_have_text("1")
    tap(page, 1, "K")
    expect(value).to_have_text(str(scala40.hand_points("A K")))  # the Ace counts 11 again
    expect(value).to_have_text("21")
    tap(page, 1, "Jolly")
    expect(value).to_have_text("46")
    expect(page.locator("#values-1")).to_have_value("A K Joker")  # the English pad's word
    shot(page, "scala40-keypad")
    page.locator("#pad-1 button.back").click()
    expect(value).to_have_text("21")
    expect(page.locator("#values-1")).to_have_value("A K")
    # Carla's cards are tapped, then she is marked as never opened: a flat 100 whatever.
    tap(page, 2, "Q")
    tap(page, 2, "Q")
    expect(page.locator("#pad-value-2")).to_have_text("20")
    page.locator("#never-2").check()
    expect(page.locator("#pad-2")).to_have_count(0)
    expect(page.locator("#pad-value-1")).to_have_text("21")
    shot(page, "scala40-never-opened")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    first = scala40.score_deal([None, "A K", None], closer=0, never_opened=[2])
    assert first == [0, 21, 100]
    assert totals(page) == first
    cells = page.locator("#deal-1 td")
    expect(cells.nth(0)).to_contain_text("closed")
    expect(cells.nth(1)).to_contain_text("A K")
    expect(cells.nth(2)).to_contain_text("never opened")
    # Deal 2: Bruno closes in hand, every penalty doubled; Carla passes 101 and is out.
    pick_closer(page, "Bruno")
    page.locator("#closed-in-hand").check()
    expect(page.locator(".closed-line", has_text="Bruno")).to_contain_text("closed in hand")
    tap(page, 0, "K")
    expect(page.locator("#pad-value-0")).to_have_text("10")
    tap(page, 2, "3")
    tap(page, 2, "2")
    expect(page.locator("#pad-value-2")).to_have_text("5")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Deal 3")
    second = scala40.score_deal(["K", None, "3 2"], closer=1, never_opened=[],
                                closed_in_hand=True)
    assert second == [20, 0, 10]
    assert totals(page) == [a + b for a, b in zip(first, second, strict=True)]
    expect(page.locator("#deal-2 th .event")).to_have_text("×2")
    expect(page.locator("tr.totals td").nth(2)).to_contain_text("out")
    expect(page.locator(".out-line")).to_contain_text("Carla")
    # From the second deal on, the running totals are drawn too: one line per player.
    expect(page.locator("figure.chart svg polyline")).to_have_count(3)
    shot(page, "scala40-sheet")


# Quarantotto ------------------------------------------------------------------------------

def test_quarantotto_game_with_the_keypad_and_a_typed_sum(page, live_server):
    names = ["Anna", "Bruno", "Carla", "Dario"]
    create_match(page, live_server, "quarantotto", names)
    expect(page.locator(".entry h2")).to_have_text("Game 1 of 4")
    pick_closer(page, "Bruno")
    value = page.locator("#pad-value-0")
    for key, shown in (("A", 15), ("K", 25), ("7", 32)):
        tap(page, 0, key)
        expect(value).to_have_text(str(shown))
    assert quarantotto.entry_points("A K 7") == 32
    # Carla's points typed as a sum: the value follows when the field is left.
    settled(page)
    page.fill("#values-2", "10+15+8")
    page.locator("#values-2").press("Tab")
    expect(page.locator("#pad-value-2")).to_have_text("33")
    # Dario: a card too many, taken back.
    tap(page, 3, "Q")
    tap(page, 3, "2")
    expect(page.locator("#pad-value-3")).to_have_text("12")
    page.locator("#pad-3 button.back").click()
    expect(page.locator("#pad-value-3")).to_have_text("10")
    expect(page.locator("#values-2")).to_have_value("10+15+8")
    shot(page, "quarantotto-keypad")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Game 2 of 4")
    entries = ["A K 7", None, "10+15+8", "Q"]
    assert totals(page) == quarantotto.score_game(entries, closer=1) == [1, 33, 0, 23]
    cells = page.locator("#game-1 td")
    expect(cells.nth(2)).to_contain_text("10+15+8 = 33")
    expect(cells.nth(1)).to_contain_text("closed")
    shot(page, "quarantotto-sheet")


def test_quarantotto_games_saved_in_turn_add_their_rows_as_a_reload_shows_them(page,
                                                                               live_server):
    """A save while the match goes on sends the row saved, not the sheet: the page it makes
    reads as the page reloaded."""
    create_match(page, live_server, "quarantotto", ["Anna", "Bruno", "Carla"])
    games = [("Anna", ["", "20", "9"]), ("Bruno", ["7", "", "30"])]
    for number, (closer, values) in enumerate(games, start=1):
        pick_closer(page, closer)
        for seat, value in enumerate(values):
            if value:
                settled(page)
                page.fill(f"#values-{seat}", value)
        settled(page)
        page.locator("button[value=save]").click()
        expect(page.locator(".entry h2")).to_have_text(f"Game {number + 1} of 3")
    expect(page.locator("#games tr")).to_have_count(2)
    expect(page.locator("#current-game tr.current")).to_have_count(1)
    shown = [page.locator(part).inner_text() for part in ("table.sheet", "#strip", "#chart")]
    page.reload()
    expect(page.locator(".entry h2")).to_have_text("Game 3 of 3")
    assert [page.locator(part).inner_text() for part in ("table.sheet", "#strip", "#chart")] \
        == shown


# Forty-Five -------------------------------------------------------------------------------

# Trump spades; cards in play order, trick by trick (who played them follows from the lead).
TRUMP = "♠"
TRICKS = [
    ["K♥", "2♥", "5♠", "3♥"],   # the 5 of trumps, the best trump of all
    ["Q♦", "J♦", "10♦", "9♦"],  # no trump: the highest diamond
    ["2♣", "A♣", "3♣", "4♣"],   # black suit off trump: the Ace is below J, above 2
    ["7♠", "A♥", "8♦", "9♣"],   # the Ace of hearts is always a trump
    ["6♥", "7♥", "8♥", "10♥"],  # red off trump: the 10 is highest here
]


def test_fortyfive_hand_with_the_trick_helper(page, live_server):
    names = ["Anna", "Bruno", "Carla", "Dario"]
    create_match(page, live_server, "fortyfive", names)
    page.locator(".ff-modes a", has_text="Trick helper").click()
    expect(page.locator("#ff-leader")).to_be_visible()
    settled(page)
    expect(page.locator(".dealer-line")).to_contain_text("Bruno leads")
    page.locator(f".ff-trump input[value='{TRUMP}']").check()
    suits = page.locator(".ff-suits[role=radiogroup]")
    state = page.locator("#ff-state")
    played: list[str] = []
    leader = 1  # the seat after the dealer (Anna) leads the first trick
    winners = []
    for number, trick in enumerate(TRICKS, start=1):
        for k, card in enumerate(trick):
            expect(state.locator("#card-prompt")).to_have_text(
                f"Card played by {names[(leader + k) % 4]}:")
            suits.locator(f"input[value='{card[-1]}']").check()
            page.locator(".ff-ranks button", has_text=re.compile(f"^{card[:-1]}$")).click()
            played.append(card)
            expect(state.locator("input[name=cards]")).to_have_value(" ".join(played))
        leader = (leader + fortyfive.trick_winner(TRUMP, trick)) % 4
        winners.append(leader)
        expect(state.locator(".ff-tricks li").nth(number - 1).locator(".won")).to_have_text(
            f"→ {names[leader]}")
        if number == 1:
            shot(page, "fortyfive-helper-trick1")
    expect(state.locator("#card-prompt")).to_have_text("The five tricks are in.")
    best = fortyfive.best_trump(TRUMP, TRICKS)
    assert best is not None and str(best[1]) == "5♠"
    expect(state.locator(".ff-best")).to_contain_text("5♠")
    sides = fortyfive.sides(4)
    side_of = {seat: c for c, side in enumerate(sides) for seat in side}
    side_tricks = [sum(side_of[w] == c for w in winners) for c in range(len(sides))]
    points = fortyfive.score_hand(side_tricks, side_of[winners[best[0]]], columns=sides)
    assert sum(points) == 30  # a trump was played: the bonus trick is worth 10
    expect(page.locator("#ff-preview")).to_contain_text("This hand gives:")
    shot(page, "fortyfive-helper-done")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Hand 2")
    assert totals(page) == points
    expect(page.locator("#hand-1 .trump")).to_have_text(TRUMP)
    # The next hand is offered in the same way of entering it.
    expect(page.locator(".ff-modes a[aria-current=page]")).to_have_text("Trick helper")
    shot(page, "fortyfive-helper-sheet")


def test_fortyfive_hand_by_tapping_trick_winners(page, live_server):
    names = ["Anna", "Bruno", "Carla"]
    create_match(page, live_server, "fortyfive", names)
    slots = page.locator(".ff-slots li")
    taps = page.locator(".ff-taps")
    for count, name in enumerate(["Anna", "Bruno", "Anna", "Bruno"], start=1):
        taps.get_by_role("button", name=name).click()
        expect(slots.nth(count - 1)).to_contain_text(name)
    page.locator("button[value=clear]").click()
    expect(slots.nth(3)).to_contain_text("—")
    for count, name in enumerate(["Carla", "Anna"], start=4):
        taps.get_by_role("button", name=name).click()
        expect(slots.nth(count - 1)).to_contain_text(name)
    expect(page.locator("input[name=winners]")).to_have_value("0,1,0,2,0")
    page.locator(".ff-bonus label", has_text="Bruno").click()
    expected = fortyfive.score_hand([3, 1, 1], 1)
    assert expected == [15, 10, 5]
    expect(page.locator("#ff-preview li").nth(1)).to_contain_text("+10")
    shot(page, "fortyfive-winners")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Hand 2")
    assert totals(page) == expected
    expect(page.locator(".dealer-line")).to_contain_text("Dealer: Bruno")


# Cavallo Re -------------------------------------------------------------------------------

def figure(page: Page, label: str) -> str:
    """The value of one statistic (its first line, without the small print)."""
    cell = page.locator(".cr-figures > div", has=page.locator("dt", has_text=label))
    return cell.locator("dd").inner_text().split("\n")[0].strip()


def test_cavallore_a_deal_won_and_one_lost(page, live_server):
    create_match(page, live_server, "cavallore", ["Anna"])
    page.locator(".cr-win-button").click()
    expect(page.locator("#deal-1")).to_contain_text("won")
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    page.locator(".cr-quick button[value='30']").click()
    expect(page.locator("#deal-2")).to_contain_text("lost")
    settled(page)
    page.fill("#cr-placed", "12")
    page.locator(".cr-typed button").click()
    expect(page.locator("#deal-3")).to_contain_text("12")
    stats = cavallore.statistics([36, 30, 12])
    assert (stats.deals, stats.wins, stats.win_rate, stats.mean) == (3, 1, Fraction(1, 3), 26)
    assert figure(page, "Deals") == "3"
    assert figure(page, "Wins") == "1"
    assert figure(page, "Win rate") == "33.3%"
    assert figure(page, "Best streak") == str(stats.best_streak)
    assert figure(page, "Mean cards placed") == "26.0"
    expect(page.locator(".cr-figures")).to_contain_text("odds: 1 in 10")
    expect(page.locator(".cr-figures")).to_contain_text("expected: 28.8")
    # One bar per count of cards placed, beside the line of the expected chances.
    expect(page.locator(".cr-bars rect")).to_have_count(3)
    expect(page.locator("polyline.cr-expected")).to_have_count(1)
    assert totals_of_log(page) == ["12", "30", "36"]
    shot(page, "cavallore-stats")


def totals_of_log(page: Page) -> list[str]:
    """Cards placed per deal as the log shows them, newest first."""
    return [t.strip() for t in page.locator(".cr-log td.pts").all_inner_texts()]


# Without JavaScript -----------------------------------------------------------------------

def test_scala40_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    create_match(page, live_server, "scala40", ["Anna", "Bruno", "Carla"])
    page.locator("label.key.pick", has_text="Carla").click()
    # Each key sends the form and the page comes back with the card added.
    tap(page, 0, "A")
    expect(page.locator("#pad-value-0")).to_have_text("1")
    expect(page.locator(".closed-line")).to_contain_text("Carla")
    tap(page, 0, "A")
    expect(page.locator("#pad-value-0")).to_have_text("22")
    page.locator("#never-1").check()
    shot(page, "scala40-nojs")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    assert totals(page) == scala40.score_deal(["A A", None, None], closer=2, never_opened=[1])


def test_quarantotto_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    create_match(page, live_server, "quarantotto", ["Anna", "Bruno", "Carla"])
    page.locator("label.key.pick", has_text="Anna").click()
    tap(page, 1, "K")
    tap(page, 1, "5")
    expect(page.locator("#pad-value-1")).to_have_text("15")
    page.fill("#values-2", "10+15+8")
    shot(page, "quarantotto-nojs")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Game 2 of 3")
    assert totals(page) == quarantotto.score_game([None, "K 5", "10+15+8"], closer=0)


def test_fortyfive_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    names = ["Anna", "Bruno", "Carla", "Dario"]
    create_match(page, live_server, "fortyfive", names)
    for seat in (1, 3, 1, 0, 2):
        page.locator(".ff-taps button", has_text=names[seat]).click()
    expect(page.locator("input[name=winners]")).to_have_value("1,3,1,0,2")
    page.locator(".ff-bonus label", has_text="No trump played").click()
    shot(page, "fortyfive-nojs")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Hand 2")
    # Anna and Carla took two tricks, Bruno and Dario three; no trump: 25 in all.
    expected = fortyfive.score_hand([2, 3], None, columns=fortyfive.sides(4))
    assert expected == [10, 15]
    assert totals(page) == expected
    expect(page.locator("#hand-1")).to_contain_text("no trump played")


def test_cavallore_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    create_match(page, live_server, "cavallore", ["Anna"])
    page.locator(".cr-quick button[value='28']").click()
    expect(page.locator("#deal-1")).to_contain_text("lost")
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    assert figure(page, "Deals") == "1"
    assert figure(page, "Mean cards placed") == "28.0"
    shot(page, "cavallore-nojs")


def version(page: Page, base: str) -> int:
    """The stored version of the match on the page: any change to it raises it."""
    match_id = page.url.split("/matches/")[1].split("?")[0].split("#")[0].split("/")[0]
    return page.request.get(f"{base}/matches/{match_id}.json").json()["version"]


def reload_posts_nothing(page: Page, base: str) -> None:
    """Reload the page as a player would after a tap: a GET, and the match unchanged."""
    before = version(page, base)
    response = page.reload()
    assert response.request.method == "GET" and response.status == 200, page.url
    assert version(page, base) == before


def test_taps_without_javascript_leave_nothing_to_resubmit(make_page, live_server):
    page = make_page(javascript=False)
    names = ["Anna", "Bruno", "Carla", "Dario"]
    for game in ("quarantotto", "scala40"):
        create_match(page, live_server, game, names[:3])
        page.locator("#pad-1 button[value='1:K']").click()
        assert "?n=1&" in page.url
        reload_posts_nothing(page, live_server)
        expect(page.locator("#values-1")).to_have_value("K")
        page.locator("label.key.pick", has_text="Anna").click()
        page.locator(".closer-pick button[value=refresh]").click()
        reload_posts_nothing(page, live_server)
        expect(page.locator(".closed-line", has_text="Anna")).to_be_visible()
        page.locator("#pad-2 button[value='2:7']").click()
        page.locator("button[value=save]").click()
        assert "saved=1" in page.url
        reload_posts_nothing(page, live_server)
        expect(page.locator("#notice")).to_contain_text("1 saved.")
    create_match(page, live_server, "fortyfive", names)
    page.locator(".ff-taps button", has_text="Bruno").click()
    reload_posts_nothing(page, live_server)
    expect(page.locator("input[name=winners]")).to_have_value("1")
    page.locator(".ff-modes a", has_text="Trick helper").click()
    page.locator(".ff-trump label", has_text="♠").click()
    page.locator(".ff-suits:not(.ff-trump *) label", has_text="♥").last.click()
    page.locator(".ff-ranks button", has_text="K").click()
    reload_posts_nothing(page, live_server)
    expect(page.locator("input[name=cards]")).to_have_value("K♥")
    create_match(page, live_server, "navawhist", names)
    for _bid in range(2):
        page.locator(".keypad button[value='0']").first.click()
        reload_posts_nothing(page, live_server)
    page.locator("button.bid-change").first.click()
    reload_posts_nothing(page, live_server)
    expect(page.locator("#bid-prompt")).to_contain_text("New bid of")
    create_match(page, live_server, "cavallore", names[:2])
    page.locator(".cr-who a", has_text="Bruno").click()
    reload_posts_nothing(page, live_server)
    page.locator(".cr-quick button[value='28']").click()
    reload_posts_nothing(page, live_server)
    expect(page.locator(".entry h2")).to_contain_text("Deal 2")
    shot(page, "no-resubmit-cavallore")
