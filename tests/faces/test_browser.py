"""The web explorer in a real browser: headless Chromium from Debian's `chromium` package, driven by Playwright
(nothing downloads a browser build). A judge builds the second-Sting table by clicking and typing, sees the
verdict and its reasons, switches a reading, exports the table and checks it with `pyengine check`, loads a
Marvel and a Duel scenario, reads the rulebook and opens a disagreement in the table builder. Each page's
screenshot is saved under the test's temporary folder.

Every wait is for a state (a locator's state, an `expect` assertion, a condition in the page), never a clock, and
any of them may take up to WAIT: on a busy machine the server's workers may still be answering an earlier test's
pages (a wait of 20 s ran out in a full run on two busy cores where it took 2.5 s alone)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT
from tests.paths import DOCS, GEMP_CARDS, not_found

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# The deadline of every wait: generous, since a wait for a state ends as soon as the state holds.
WAIT = 120_000
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if CHROMIUM is None and os.environ.get("PYENGINE_REQUIRE_BROWSER"):
    raise RuntimeError("PYENGINE_REQUIRE_BROWSER is set (as .ci/run does) but there is no chromium on PATH")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine: install Debian's package (apt-get install -y chromium); "
                             ".ci/run does so, so these tests never skip in CI")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, for the module; `expect` assertions wait as long as any other wait."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


# The states the census of the disagreements page draws on its own server: fewer than a server's default 10 (a third
# of the time, 10 s against 35), and still more than 500 classes of real cards, stopped at the states drawn.
CENSUS_STATES = 3


@pytest.fixture(scope="module")
def small_census() -> Iterator[str]:
    """The explorer served in this process (uvicorn in a thread, the census in its one worker) with a census of
    CENSUS_STATES states: its base URL."""
    import threading
    import time

    import uvicorn

    from conftest import _free_port
    from pyengine.web.app import Settings, create_app

    port = _free_port()
    settings = Settings(docs=DOCS if DOCS.is_dir() else None, scenarios=[ROOT / "examples"], workers=1,
                        census_states=CENSUS_STATES)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT / 1000
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(WAIT / 1000)


@pytest.fixture
def page(browser, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A fresh page at 1400 x 1000 px; the test fails on any script error the page raised."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(WAIT)
    yield page
    context.close()
    assert errors == [], errors


def _shot(page, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    """The whole page's screenshot, under the test's temporary folder."""
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def _add_card(page, player: str, zone: str, query: str, card_id: str) -> None:  # type: ignore[no-untyped-def]
    """Types `query` into the zone's card search (an empty zone's: the player's line of empty zones, that zone
    chosen), picks `card_id` and waits for its row in the zone: the form is redrawn just after the pointer's
    release, and text typed into a search before that redraw would be lost."""
    from playwright.sync_api import expect

    player_box = page.locator(f'fieldset[data-player="{player}"]')
    rows = player_box.locator(f'.zone[data-zone="{zone}"] div.instance')
    before = rows.count()
    search_box = player_box.locator(f'.zone[data-zone="{zone}"]' if before else ".empty-zones")
    if not before:
        search_box.locator("select.empty-zone").select_option(zone)
    search_box.locator("input.card-search").fill(query)
    search_box.locator(f'.suggestion[data-id="{card_id}"]').first.click()
    expect(rows).to_have_count(before + 1)


def test_frodo_bears_sting_and_a_renamed_instance_is_renamed_in_its_questions(page, explorer: str  # type: ignore[no-untyped-def]
                                                                                ) -> None:
    page.goto(f"{explorer}/table")
    _add_card(page, "alice", "play", "son of drogo", "1_290")
    _add_card(page, "alice", "play", "Sting", "1_313")
    sting = page.locator('div.instance[data-id="alice-sting"] select.inst-on')
    sting.select_option("alice-frodo")
    page.wait_for_function("document.getElementById('yaml').value.includes('borne_by: alice-frodo')")
    page.locator("#add-question").click()
    page.locator(".question").first.locator('select[data-field="instance"]').select_option("alice-sting")
    page.locator('div.instance[data-id="alice-sting"] input.inst-id').fill("the-sting")
    page.locator('div.instance[data-id="alice-sting"] input.inst-id').press("Enter")
    page.wait_for_function("document.getElementById('yaml').value.includes('instance: the-sting')")
    assert "on: alice-frodo" not in page.locator("#yaml").input_value().replace("borne_by: alice-frodo", "")


def _typed_in_alices_hand(page, explorer: str, text: str):  # type: ignore[no-untyped-def]
    """A new table with `text` typed into the card search of Alice's (empty) zones, her hand chosen for the card,
    its suggestions shown: that search."""
    page.goto(f"{explorer}/table")
    empty = page.locator('fieldset[data-player="alice"] .empty-zones')
    empty.locator("select.empty-zone").select_option("hand")
    search = empty.locator("input.card-search")
    search.focus()
    page.keyboard.type(text)
    page.locator('.suggestion[aria-selected="true"]').first.wait_for()
    return search


def test_a_card_is_added_with_the_keyboard_only(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    _typed_in_alices_hand(page, explorer, "Sting")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('yaml').value.includes('1_313')")
    # Focus is in the hand's own card search now. Escape closes the suggestions; a search with no match says so.
    expect(page.locator('fieldset[data-player="alice"] .zone[data-zone="hand"] input.card-search')).to_be_focused()
    page.keyboard.type("Stign")
    expect(page.locator(".suggestions .no-match")).to_contain_text("Sting")
    page.keyboard.press("Escape")
    expect(page.locator(".suggestions li")).to_have_count(0)


def _load_scenario(page, explorer: str, path: Path) -> None:  # type: ignore[no-untyped-def]
    """The scenario file at `path` loaded into a new table with the builder's file button."""
    page.goto(f"{explorer}/table")
    page.locator("#load-file").set_input_files(str(path))
    page.wait_for_function("(game) => document.getElementById('yaml').value.startsWith('game: ' + game)",
                           arg=path.read_text(encoding="utf-8").split("game:")[1].split()[0])
    # The file is read by the server (/api/parse) in a worker, which on a loaded CI machine may still be answering
    # a page an earlier test closed (its every-reading matrix): the wait allows for that.
    page.wait_for_function("() => !document.getElementById('yaml').value.includes('title: A table')")


def test_a_judge_builds_the_second_sting_table(page, explorer: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page.goto(f"{explorer}/table")
    page.locator("#title").fill("Can Alice play a second Sting?")
    page.locator("#title").dispatch_event("change")
    _add_card(page, "alice", "play", "son of drogo", "1_290")
    _add_card(page, "alice", "support", "1R313", "1_313")
    _add_card(page, "alice", "hand", "Sting", "1_313")
    _add_card(page, "bob", "hand", "sting", "1_313")
    page.locator("#add-question").click()
    question = page.locator(".question").first
    question.locator('select[data-field="instance"]').select_option("alice-sting-2")
    page.locator(".question").first.locator("select.q-expect").select_option("illegal")
    page.wait_for_function("document.getElementById('yaml').value.includes('expect: illegal')")
    _shot(page, tmp_path, "table")

    with page.expect_download() as download:
        page.locator("#download").click()
    exported = tmp_path / "second-sting.yaml"
    download.value.save_as(exported)
    done = subprocess.run([sys.executable, "-m", "pyengine", "check", str(exported)], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr

    page.locator("#to-answers").click()
    # The illegal plays are folded under their reason: opened, the second Sting is there, with its rule.
    row = page.locator('table[data-player="alice"] tr[data-play="alice-sting-2"]')
    group = page.locator("#plays details.play-group", has=row)
    expect(group.locator(":scope > summary")).to_contain_text("illegal by lotr_unique_blocks_unique")
    group.locator(":scope > summary").click()
    expect(row.locator("td.verdict")).to_have_text("illegal")
    expect(page.locator('table[data-player="bob"] tr[data-play="bob-sting"] td.verdict')).to_have_text("legal")
    question_row = page.locator('tr[data-question="q1"]')
    expect(question_row.locator("td.verdict")).to_have_text("illegal")
    expect(question_row.locator("td.pass")).to_have_text("holds")
    row.locator("button.why").click()
    explanation = page.locator(".why-row .explanation")
    explanation.wait_for()
    assert "lotr_unique_blocks_unique" in explanation.inner_text()
    assert "lotr_unique p3" in explanation.inner_text()
    page.locator("#compare table").wait_for()
    _shot(page, tmp_path, "answers")


def test_switching_a_reading_changes_a_verdict(page, explorer: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    _load_scenario(page, explorer, ROOT / "examples" / "reading_dead_pile_scope.yaml")
    page.locator("#to-answers").click()
    verdict = page.locator('table[data-player="alice"] tr[data-play="alice-gaffer"] td.verdict')
    expect(verdict).to_have_text("legal")
    page.locator('select[data-reading="lotr_dead_pile_scope"]').select_option("any_player")
    page.wait_for_function("document.querySelector('tr[data-play=\"alice-gaffer\"] td.verdict')"
                           "?.textContent === 'illegal'")
    group = page.locator("#plays details.play-group", has=page.locator('tr[data-play="alice-gaffer"]'))
    expect(group.locator(":scope > summary")).to_contain_text("lotr_dead_pile_any_player")
    page.locator("#compare tr.differs").first.wait_for()
    _shot(page, tmp_path, "reading")


def test_the_flip_says_what_would_change_a_verdict(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    _load_scenario(page, explorer, ROOT / "examples" / "judge_second_sting.yaml")
    page.locator("#to-answers").click()
    row = page.locator('tr[data-question="alice-second-sting"]')
    row.wait_for()
    row.locator("button.flip").click()
    expect(page.locator(".flip-row")).to_contain_text("legal")


@pytest.mark.parametrize("example, question", [("marvel_reading_faces.yaml", "face-up-only"),
                                               ("dfm_warg_and_elrond.yaml", "warg-reveals-elrond")])
def test_marvel_and_duel_scenarios_load_and_answer(page, explorer: str, tmp_path: Path, example: str,
                                                   question: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    _load_scenario(page, explorer, ROOT / "examples" / example)
    _shot(page, tmp_path, f"table-{example}")
    page.locator("#to-answers").click()
    expect(page.locator(f'tr[data-question="{question}"] td.pass')).to_have_text("holds")
    assert page.locator("#plays table").count() >= 1
    _shot(page, tmp_path, f"answers-{example}")


def test_a_duel_action_is_added_by_clicking(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{explorer}/table")
    page.locator("#game").select_option("dfm")
    page.locator('select[data-ally="warg"]').select_option("hidden")
    page.locator("#action-player").select_option("sauron")
    page.locator("#action-kind").select_option("end_turn")
    page.locator("#add-action").click()
    page.wait_for_function("document.getElementById('yaml').value.includes('end_turn: true')")
    assert "warg" in page.locator("#yaml").input_value()


def test_the_rulebook_and_a_disagreement(page, explorer: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{explorer}/rulebook/lotr_unique")
    assert "lotr_unique_blocks_unique" in page.locator("tr#p3").inner_text()
    _shot(page, tmp_path, "rulebook")
    page.goto(f"{explorer}/disagreements")
    page.locator("#dis-game").select_option("lotr")
    page.locator("#side-b").select_option("comprehensive_rules")
    page.locator("#dis-pool").select_option("")
    page.locator("#search-form button[type=submit]").click()
    page.locator(".finding").first.wait_for()
    shapes = page.locator(".finding li").first.inner_text()
    assert "side A (default) says" in shapes and "side B (comprehensive_rules) says" in shapes
    _shot(page, tmp_path, "disagreements")
    page.locator(".finding a.open-table").first.click()
    page.wait_for_function("document.getElementById('yaml').value.includes('game: lotr')")
    assert page.locator("fieldset.player").count() >= 1


@pytest.mark.skipif(not GEMP_CARDS.is_dir(), reason=not_found("GEMP card data", GEMP_CARDS))
def test_the_disagreements_page_counts_the_real_cards(page, small_census: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{small_census}/disagreements")
    page.locator("#dis-game").select_option("lotr")
    page.locator("#side-b").select_option("gemp")
    page.locator("#dis-pool").select_option("gemp")
    page.locator("#search-form button[type=submit]").click()
    page.locator("ul.census li").first.wait_for()
    count = page.locator("#found-count").inner_text()
    assert "classes of real cards" in count
    # The page's search is smaller than the command line's (the server's states against 40), and says so with the
    # command.
    assert f"stops at {CENSUS_STATES} states" in count
    assert "pyengine census --game lotr --catalog gemp --compare default gemp" in count
    # The classes a page at a time (1,937 rows at once before), the rest found by the filter, accents aside.
    assert page.locator("ul.census > li").count() == 20
    assert page.locator("main").evaluate("(m) => m.scrollHeight") <= 12 * 1000
    page.locator("input.list-filter").fill("mumak commander")
    page.wait_for_function("document.querySelector('ul.census').textContent.includes('Mûmak Commander')")
    assert " of " in page.locator(".page-count").inner_text()
    _shot(page, tmp_path, "census")
    page.locator("input.list-filter").fill("")
    page.wait_for_function("document.querySelectorAll('ul.census > li').length == 20")
    page.locator("ul.census a.open-table").first.click()
    page.wait_for_function("document.getElementById('yaml').value.includes('catalog: gemp')")


def _encoded(table: dict) -> str:
    import base64
    import json

    return base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")


def _pages() -> dict[str, str]:
    """Every page of the explorer, with a LOTR, a Marvel and a Duel table on the table builder and the answers."""
    from pyengine.core.yamlio import load_file

    pages = {"table": "/table", "rulebook-index": "/rulebook", "rulebook": "/rulebook/lotr_unique",
             "disagreements": "/disagreements", "api-docs": "/api/docs", "not-found": "/no/such/page"}
    for example in ("judge_second_sting.yaml", "marvel_reading_faces.yaml", "dfm_warg_and_elrond.yaml"):
        table = load_file(ROOT / "examples" / example, marks=False)
        pages[f"table-{example}"] = f"/table#t={_encoded(table)}"
        pages[f"answers-{example}"] = f"/answers#t={_encoded(table)}"
    return pages


PAGES = _pages()
# A page is drawn: the table builder has its scenario file, the answers have every answer and the board's picture
# (where the game draws one), the API's page what Swagger UI made of the description.
DRAWN = """() => document.readyState === 'complete'
    && !document.querySelector('main').textContent.includes('Answering…')
    && !document.querySelector('[aria-busy="true"]')
    && (!document.getElementById('yaml') || document.getElementById('yaml').value !== '')
    && (!document.getElementById('swagger-ui')
        || !!document.querySelector('#swagger-ui .information-container, #swagger-ui .version-pragma'))
    && (document.getElementById('board-section')?.hidden !== false
        || [...document.querySelectorAll('#board-picture img')].some((i) => i.complete && i.naturalWidth > 0))"""


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_passes_an_accessibility_scan_and_fits_a_phone(page, explorer: str,  # type: ignore[no-untyped-def]
                                                                  name: str) -> None:
    """axe-core finds nothing serious or critical; at 390 px wide the page does not scroll sideways and no control
    is under 24 px high."""
    from axe_playwright_python.sync_playwright import Axe

    page.goto(f"{explorer}{PAGES[name]}")
    page.wait_for_function(DRAWN)
    assert page.locator("#errors li").count() == 0, page.locator("#errors").inner_text()
    violations = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
                  for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert violations == [], violations
    page.set_viewport_size({"width": 390, "height": 844})
    width, viewport = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    small = page.evaluate("""[...document.querySelectorAll('button, select, input:not([type=hidden]), a.button')]
        .filter((e) => e.offsetParent !== null)
        .filter((e) => e.getBoundingClientRect().height < 24).length""")
    assert width <= viewport, f"{name}: {width} px wide in a {viewport} px window"
    assert small == 0, f"{name}: {small} controls under 24 px high"


def test_a_shared_link_keeps_the_readings_in_a_fresh_page_and_an_open_tab(page, browser, explorer: str  # type: ignore[no-untyped-def]
                                                                          ) -> None:
    from playwright.sync_api import expect

    from pyengine.core.yamlio import load_file

    table = load_file(ROOT / "examples" / "reading_dead_pile_scope.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    page.locator('select[data-reading="lotr_dead_pile_scope"]').select_option("any_player")
    page.wait_for_function("location.hash.includes('&r=')")
    link = page.url
    # A fresh page (another browser context) opens the link with the reading chosen.
    fresh = browser.new_context().new_page()
    fresh.set_default_timeout(WAIT)
    fresh.goto(link)
    expect(fresh.locator('select[data-reading="lotr_dead_pile_scope"]')).to_have_value("any_player")
    fresh.context.close()
    # The link pasted into a tab showing another table shows the linked table.
    page.goto(f"{explorer}/answers#t={_encoded({'game': 'lotr', 'title': 'Another table', 'players': {'a': {}}})}")
    # The page reloads on a new hash: while it does, the title may not be there yet, and the waits say not yet.
    page.wait_for_function("(document.getElementById('table-title')?.textContent ?? '').includes('Another table')")
    page.evaluate("(link) => { location.hash = new URL(link).hash; }", link)
    page.wait_for_function(
        "!(document.getElementById('table-title')?.textContent ?? 'Another table').includes('Another table')")
    assert page.locator('select[data-reading="lotr_dead_pile_scope"]').input_value() == "any_player"
    # A corrupted link says so.
    page.goto(f"{explorer}/table#t=@@@")
    expect(page.locator("#errors")).to_contain_text("link")


def test_a_duel_answer_shows_its_assumptions_and_plays_in_words(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    from pyengine.core.yamlio import load_file

    table = load_file(ROOT / "examples" / "dfm_warg_and_elrond.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    row = page.locator('#questions tr[data-question]').first
    row.wait_for()
    row.locator("details.assumptions summary").click()
    from pyengine.core import kb

    statements = kb.load("dfm").assumptions.values()
    assert any(statement in row.inner_text() for statement in statements)
    page.locator("#plays input.list-filter").first.fill("end_turn")
    play = page.locator('#plays tr[data-play="end_turn"]').first
    assert "end the turn" in play.inner_text()
    play.locator("details.assumptions summary").click()
    assert "rests on" in play.inner_text()


def test_the_duel_board_is_drawn_step_by_step_by_keyboard(page, explorer: str, tmp_path: Path  # type: ignore[no-untyped-def]
                                                          ) -> None:
    """The answers page draws the Duel board after the last step; the keyboard steps back through the moments,
    each picture saying its step and the Power tokens the encodings found then, with its assumptions."""
    from urllib.parse import unquote

    from pyengine.core.yamlio import load_file

    table = load_file(ROOT / "examples" / "dfm_warg_and_elrond.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    status = page.locator("#board-status")
    page.wait_for_function("document.getElementById('board-status').textContent.includes('step 3')")
    assert "refused by dfm_warg_revealed_no_exit" in status.inner_text()
    picture = page.locator("#board-picture img")
    svg = unquote(picture.get_attribute("src").split(",", 1)[1])
    assert "2.1 down" in svg and "wizards: 2" in svg and "Fellowship allies" in svg
    assert "after step 3" in picture.get_attribute("alt")
    page.locator("#board-section details.assumptions summary").click()
    from pyengine.core import kb

    assert kb.load("dfm").assumptions["covering"] in page.locator("#board-assumptions").inner_text()
    _shot(page, tmp_path, "dfm-answers")
    page.locator("#board-section").screenshot(path=str(tmp_path / "dfm-board.png"))
    # Back to the start by keyboard: the Warg's enter had spent Sauron's token; at the start Sauron holds one.
    page.locator("#board-previous").focus()
    for step in (2, 1, 0):
        page.keyboard.press("Enter")
        page.wait_for_function("(s) => document.getElementById('board-status').textContent.startsWith(s)",
                               arg=f"After step {step}" if step else "At the start")
    assert page.locator("#board-previous").is_disabled()
    start = unquote(picture.get_attribute("src").split(",", 1)[1])
    assert "sauron: 1" in start and "sauron: 0" not in start.split("Coins")[0]
    page.locator("#board-moment").select_option("1")
    page.wait_for_function("document.getElementById('board-status').textContent.includes('warg')")
    assert "sauron: 0" in unquote(picture.get_attribute("src").split(",", 1)[1]).split("Coins")[0]


def test_a_marvel_deck_is_built_in_the_form_and_answered(page, explorer: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{explorer}/table")
    page.locator("#game").select_option("marvel")
    deck = page.locator('fieldset[data-player="alice"] .zone[data-zone="deck-list"]')
    deck.locator("button.add-deck").click()
    deck = page.locator('fieldset[data-player="alice"] .zone[data-zone="deck-list"]')
    # The identity picker offers heroes only, and shows each hero's alter ego.
    deck.locator(".deck-leader input.card-search").fill("Spider")
    first = deck.locator(".deck-leader .suggestion").first
    first.wait_for()
    assert "alter ego" in first.inner_text()
    first.click()
    # The form is redrawn just after the release: typed before that, the next search would be lost.
    from playwright.sync_api import expect

    deck = page.locator('fieldset[data-player="alice"] .zone[data-zone="deck-list"]')
    expect(deck.locator(".deck-leader .card-label")).not_to_have_text("none")
    deck.locator("input.card-search").last.fill("Daredevil")
    deck.locator('.suggestion[data-id="31014"]').click()
    page.wait_for_function("document.getElementById('yaml').value.includes('31014')")
    page.locator("#add-question").click()
    question = page.locator(".question").first
    question.locator("select.q-ask").select_option("deck")
    question.locator('select[data-field="player"]').select_option("alice")
    page.locator("#to-answers").click()
    row = page.locator("#questions tr[data-question]").first
    row.wait_for()
    assert "valid" in row.inner_text()
    _shot(page, tmp_path, "marvel-deck-answer")


def test_a_bad_question_is_marked_and_the_others_still_answer(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    table = {"game": "lotr", "title": "One bad question",
             "players": {"alice": {"hand": [{"id": "s", "card": "Sting"}]}},
             "questions": [{"id": "good", "ask": "play", "instance": "s"},
                           {"id": "bad", "ask": "play", "instance": "nope"}]}
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    page.locator('tr.bad-question[data-question="bad"]').wait_for()
    assert "no instance 'nope'" in page.locator('tr.bad-question[data-question="bad"]').inner_text()
    assert "legal" in page.locator('#questions tr[data-question="good"]').inner_text()


def test_the_turn_the_phase_and_the_current_site_are_set_in_the_form(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{explorer}/table")
    _add_card(page, "alice", "adventure_path", "Meduseld", "6_117")
    page.locator("#turn-player").select_option("alice")
    page.locator("#turn-phase").select_option("shadow")
    page.locator("#current-site").select_option("alice-meduseld")
    page.wait_for_function("""(() => { const y = document.getElementById('yaml').value;
        return y.includes('phase: shadow') && y.includes("current_site: alice-meduseld"); })()""")


def test_the_duel_board_is_set_in_the_form(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{explorer}/table")
    page.locator("#game").select_option("dfm")
    page.locator('[data-units="fellowship"] input[data-field="rohan"]').fill("2")
    page.locator('[data-units="fellowship"] input[data-field="rohan"]').press("Tab")
    page.locator('[data-group="fortresses-sauron"] input[data-name="mordor"]').check()
    page.locator("#connection-from").select_option("rohan")
    page.locator("#connection-to").select_option("gondor")
    page.locator("#add-connection").click()
    page.locator('[data-alliance="fellowship"] input[data-field="elves"]').fill("1")
    page.locator('[data-alliance="fellowship"] input[data-field="elves"]').press("Tab")
    page.wait_for_function("""(() => { const y = document.getElementById('yaml').value;
        return ['rohan: 2', 'mordor', 'gondor', 'elves: 1'].every((s) => y.includes(s)); })()""")
    assert page.locator("#errors li").count() == 0, page.locator("#errors").inner_text()


# Issue 47, items 7 and 8: the explorer at a tournament table.

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("button", ["#add-question", 'fieldset[data-player="alice"] button.add-deck'])
def test_the_first_click_after_typing_in_the_title_is_taken(page, explorer: str, button: str  # type: ignore[no-untyped-def]
                                                            ) -> None:
    """Typing in the title and then clicking a button: the title's change redraws the form, and the click lands
    (it was lost, every time, when the redraw replaced the button between the press and the release)."""
    from playwright.sync_api import expect

    page.goto(f"{explorer}/table")
    page.locator("#title").fill("A judge's table")
    added = page.locator(".question, .deck-leader")
    before = added.count()
    page.locator(button).click()
    page.wait_for_function("document.getElementById('yaml').value.includes(\"A judge's table\")")
    expect(added).to_have_count(before + 1)
    assert page.locator("#title").input_value() == "A judge's table"


def test_focus_stays_in_the_card_search_after_a_pick_with_enter(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """A card picked with Enter redraws the zone; focus stays in that zone's card search, so the next card can be
    typed at once (it fell to the page body, 38 Tab presses from "Add a question")."""
    _typed_in_alices_hand(page, explorer, "Sting")
    page.keyboard.press("Enter")
    page.locator('fieldset[data-player="alice"] .zone[data-zone="hand"] div.instance').first.wait_for()
    focused = page.evaluate("""(() => { const e = document.activeElement;
        return [e.classList.contains('card-search'), e.closest('[data-zone]')?.dataset.zone,
                e.closest('[data-player]')?.dataset.player]; })()""")
    assert focused == [True, "hand", "alice"]
    page.keyboard.type("son of drogo")
    page.locator('.suggestion[aria-selected="true"]').first.wait_for()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('[data-player=alice] [data-zone=hand] div.instance').length == 2")


def test_why_keeps_focus_and_says_what_it_explains(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """Each "why?" is named after its row (question and verdict, or player, play and verdict); pressed with the
    keyboard it opens the reasons under the row and focus stays on it (it fell to the page body)."""
    from pyengine.core.yamlio import load_file

    table = load_file(ROOT / "examples" / "judge_second_sting.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    row = page.locator("#questions tr[data-question]").first
    row.wait_for()
    question = row.get_attribute("data-question")
    why = row.locator("button.why")
    name = why.get_attribute("aria-label")
    assert name.startswith(f"why {question} is ") and name.endswith("?") and len(name) > len(f"why {question} is ?")
    why.focus()
    page.keyboard.press("Enter")
    page.locator("#questions tr.why-row").first.wait_for()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == name
    assert why.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#questions tr.why-row').length == 0")
    assert why.get_attribute("aria-expanded") == "false"
    play_names = page.locator("#plays button.why").evaluate_all("(bs) => bs.map((b) => b.getAttribute('aria-label'))")
    assert play_names and all(": " in n and " is " in n for n in play_names)


def test_the_verdict_comes_before_the_readings_and_keeps_its_label_on_a_phone(page, explorer: str  # type: ignore[no-untyped-def]
                                                                             ) -> None:
    """At 390 px the questions' verdicts are on the first screen, above the readings' menus, each value with its
    column's heading beside it; the page says which catalog its cards come from."""
    from pyengine.core.yamlio import load_file

    page.set_viewport_size(PHONE)
    table = load_file(ROOT / "examples" / "judge_second_sting.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    verdict = page.locator("#questions tr[data-question] td.verdict").first
    verdict.wait_for()
    top = verdict.bounding_box()["y"]
    readings = page.locator("#reading-choices").bounding_box()["y"]
    assert top < PHONE["height"] and top < readings
    label = verdict.evaluate("(td) => getComputedStyle(td, '::before').content")
    assert label == '"verdict: "'
    assert "built-in catalog" in page.locator("#catalog-used").inner_text()


def test_the_duel_answers_page_is_a_few_screens_at_phone_width(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """The Duel example's answers page (51,148 px tall before paging) shows each list a page at a time: within
    six phone screens, with a filter and "show more" for the rest; a filter narrows the plays to those it names."""
    from playwright.sync_api import expect

    from pyengine.core.yamlio import load_file

    page.set_viewport_size(PHONE)
    table = load_file(ROOT / "examples" / "dfm_warg_and_elrond.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    page.wait_for_function(DRAWN)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 6 * PHONE["height"], f"{height} px"
    # On a phone each long list is folded under its summary; opened, each reason's plays show a page at a time.
    fellowship = page.locator("#plays details.fold").first
    fellowship.locator(":scope > summary").click()
    group = fellowship.locator("details.play-group").filter(has_text="take \u00d728")
    group.locator(":scope > summary").click()
    rows = group.locator("tbody tr")
    expect(rows).to_have_count(20)
    more = group.locator("button.show-more")
    expect(more).to_be_visible()
    more.click()
    expect(rows).to_have_count(28)
    assert page.evaluate("document.activeElement.tagName") == "TR"
    # The filter runs over every reason's plays: only the group holding the play it names stays, open.
    fellowship.locator("input.list-filter").fill("end_turn")
    shown = fellowship.locator("details.play-group:not([hidden])")
    expect(shown).to_have_count(1)
    expect(shown.locator("tbody tr")).to_have_count(1)
    expect(shown.locator("tbody tr")).to_contain_text("end the turn")


@pytest.mark.skipif(not GEMP_CARDS.is_dir(), reason=not_found("GEMP card data", GEMP_CARDS))
def test_a_new_table_takes_its_cards_from_the_imported_pool(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """With GEMP's pool in the store, a new LOTR table uses it ("Gandalf, The White Wizard" is found, not refused
    as a misspelling of a built-in card) and its answers say which catalog answered."""
    page.goto(f"{explorer}/table")
    assert page.locator("#catalog").input_value() == "gemp"
    zone = page.locator('fieldset[data-player="alice"] .empty-zones')
    zone.locator("select.empty-zone").select_option("play")
    zone.locator("input.card-search").fill("Gandalf, The White Wizard")
    zone.locator(".suggestion").first.wait_for()
    assert "White Wizard" in zone.locator(".suggestion").first.inner_text()
    zone.locator(".suggestion").first.click()
    page.wait_for_function("document.getElementById('yaml').value.includes('catalog: gemp')")
    page.locator("#to-answers").click()
    page.wait_for_function("document.getElementById('catalog-used')?.textContent.includes('cards: gemp')")


# The explorer at a judge's table, items 8 to 12 of the issue: names for placed cards, a question without an
# expectation, the builder's empty zones, the Duel answers' illegal plays grouped and folded, the flip's words.

SECOND_STING = {"game": "lotr", "title": "Which Sting?",
                "players": {"alice": {"play": [{"id": "alice-frodo", "card": "1_290"}],
                                      "support": [{"id": "alice-sting", "card": "1_313"}]}, "bob": {}},
                "questions": [{"id": "q1", "ask": "play", "instance": "alice-sting"}]}


def test_a_placed_card_is_shown_by_its_name_with_its_id_beside(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """A table opened from a link showed each placed card by its ids only (`alice-sting 1_313`): a judge could not
    see which Sting was put down. The card's name comes first, its collector's info and id beside it, in its zone
    and in every list of placed cards (borne by, a question's instance); a card picked by search is named at once."""
    from playwright.sync_api import expect

    page.goto(f"{explorer}/table#t={_encoded(SECOND_STING)}")
    sting = "\u2022Sting (1R313, 1_313)"
    expect(page.locator('div.instance[data-id="alice-sting"] .card-label')).to_have_text(sting)
    expect(page.locator('div.instance[data-id="alice-sting"] .card-name')).to_have_text("\u2022Sting")
    expect(page.locator('div.instance[data-id="alice-frodo"] .card-label')).to_have_text(
        "\u2022Frodo, Son of Drogo (1C290, 1_290)")
    borne_by = page.locator('div.instance[data-id="alice-frodo"] select.inst-on option[value="alice-sting"]')
    expect(borne_by).to_have_text(f"alice-sting — {sting}")
    asked = page.locator('.question[data-question="q1"] select[data-field="instance"] option:checked')
    expect(asked).to_have_text(f"alice-sting — {sting}")
    _add_card(page, "bob", "hand", "Sting", "1_313")
    expect(page.locator('div.instance[data-id="bob-sting"] .card-label')).to_have_text(sting)


def test_a_question_without_an_expectation_is_answered_not_held(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """A question without an expectation showed a green "holds" in a column with no heading (the command line says
    "answered without an expectation"): the column is headed, and such a question says so in neutral words."""
    from playwright.sync_api import expect

    table = {"game": "lotr", "title": "No expectation", "players": {"alice": {"hand": [{"id": "s", "card": "1_313"}]}},
             "questions": [{"id": "open", "ask": "play", "instance": "s"},
                           {"id": "checked", "ask": "play", "instance": "s", "expect": "legal"}]}
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    open_check = page.locator('#questions tr[data-question="open"] td').nth(4)
    expect(open_check).to_have_text("answered (no expectation)")
    assert "pass" not in (open_check.get_attribute("class") or "")
    assert open_check.evaluate("(td) => getComputedStyle(td).color") != "rgb(27, 94, 32)"  # not the green of "holds"
    headings = page.locator("#questions thead th").all_inner_texts()
    assert headings[4] == "check", headings
    expect(page.locator('#questions tr[data-question="checked"] td').nth(4)).to_have_text("holds")


def test_the_builder_folds_the_empty_zones_and_keeps_add_a_question_in_reach(page, explorer: str  # type: ignore[no-untyped-def]
                                                                             ) -> None:
    """A new table showed ten empty zones for each player before the turn and the questions. The empty zones are one
    line (a zone to choose, a card search); a zone holding cards shows as before; "Add a question" stays on the
    first screen however many cards the table holds."""
    from playwright.sync_api import expect

    page.goto(f"{explorer}/table")
    alice = page.locator('fieldset[data-player="alice"]')
    expect(alice.locator(".empty-zones select.empty-zone option")).to_have_count(10)
    assert alice.locator(".zone[data-zone]:not(.empty-zones):not(.deck)").count() == 0
    assert page.locator("#add-question").bounding_box()["y"] < 1000
    for zone, query, card in (("play", "son of drogo", "1_290"), ("support", "1R313", "1_313"),
                              ("hand", "Sting", "1_313"), ("hand", "1P364", "1_364"), ("hand", "1R89", "1_89")):
        _add_card(page, "alice", zone, query, card)
    expect(alice.locator(".empty-zones select.empty-zone option")).to_have_count(7)
    expect(alice.locator(".zone[data-zone]:not(.empty-zones):not(.deck)")).to_have_count(3)
    add = page.locator("#add-question")
    assert add.bounding_box()["y"] + add.bounding_box()["height"] < 1000
    add.click()
    expect(page.locator(".question")).to_have_count(1)


def test_the_duel_answers_fold_the_illegal_plays_by_reason_and_name_the_catalog(page, explorer: str  # type: ignore[no-untyped-def]
                                                                                ) -> None:
    """The Duel example's answers page was 7,521 px tall, its illegal plays one long list repeating a few reasons.
    Each player's plays come grouped by reason (verdict and rules), each group counting its plays and naming their
    kinds; the illegal groups are folded. The page is under 5,000 px at 1400 px wide (5,502 before) and says which
    catalog its cards come from."""
    from playwright.sync_api import expect

    from pyengine.core.yamlio import load_file

    table = load_file(ROOT / "examples" / "dfm_warg_and_elrond.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    page.wait_for_function(DRAWN)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 5_000, f"{height} px"
    illegal = page.locator('#plays details.play-group[data-verdict="illegal"]')
    assert illegal.count() >= 10
    assert illegal.evaluate_all("(groups) => groups.every((g) => !g.open)")
    assert page.locator('#plays details.play-group[data-verdict="legal"]').evaluate_all(
        "(groups) => groups.length > 0 && groups.every((g) => g.open)")
    # The hundreds of Warg exits Sauron may not call now are one line: a count, the rules, the kind.
    summaries = illegal.locator(":scope > summary").all_inner_texts()
    warg = [s for s in summaries if "call warg exit \u00d7" in s and int(s.split(" ")[0]) > 100]
    assert len(warg) == 1 and " plays illegal by " in warg[0], summaries
    expect(illegal.locator("tbody tr").first).to_be_hidden()
    expect(page.locator("#catalog-used")).to_have_text(re.compile(r"^cards: built-in catalog"))


def test_what_would_change_it_never_ends_in_empty_parentheses(page, explorer: str) -> None:  # type: ignore[no-untyped-def]
    """The flip's line ended "→ legal ()" where no rule gave the verdict after the change: the rules' parentheses
    only hold rules, and where no change turns the answer the line says so in a sentence."""
    from playwright.sync_api import expect

    from pyengine.core.yamlio import load_file

    table = load_file(ROOT / "examples" / "judge_second_sting.yaml", marks=False)
    page.goto(f"{explorer}/answers#t={_encoded(table)}")
    page.locator('tr[data-question="alice-second-sting"] button.flip').click()
    flipped = page.locator('tr[data-question="alice-second-sting"] + tr.flip-row')
    expect(flipped).to_contain_text("out of the state → legal")
    assert "()" not in flipped.inner_text() and flipped.inner_text().strip().endswith("→ legal")
    page.locator('tr[data-question="bob-sting"] button.flip').click()
    expect(page.locator('tr[data-question="bob-sting"] + tr.flip-row')).to_have_text(
        "no single change found that turns this answer around")
