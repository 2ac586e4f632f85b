"""The query page in a real browser: headless Debian Chromium opens `/`, takes a product token, runs a query
through the endpoint and shows its rows. The screenshot is kept under tests/artifacts/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import ARTIFACTS, headless_chromium
from test_serve import ALPHA_TOKEN, TOKENS, start_server
from test_serve import store_dir as store_dir  # the fixture

pytestmark = pytest.mark.slow

QUERY = "SELECT ?label WHERE { ?x <http://www.w3.org/2000/01/rdf-schema#label> ?label } ORDER BY ?label"


@pytest.fixture(scope="module")
def browser():
    with headless_chromium(browser_log=True) as driver:
        yield driver


def test_the_page_runs_a_query_with_the_token_and_shows_rows(browser, store_dir: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    access = tmp_path / "access.json"
    access.write_text(json.dumps(TOKENS))
    for url in start_server(store_dir, "--access", str(access)):
        browser.get(f"{url}/")
        wait = WebDriverWait(browser, 30)
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".yasqe .CodeMirror")))
        browser.find_element(By.ID, "token").send_keys(ALPHA_TOKEN)
        browser.execute_script("window.yasgui.getTab().getYasqe().setValue(arguments[0]);", QUERY)
        browser.execute_script("window.yasgui.getTab().getYasqe().query();")
        wait.until(lambda d: "Alpha design" in d.find_element(By.CSS_SELECTOR, ".yasr").text)
        text = browser.find_element(By.CSS_SELECTOR, ".yasr").text
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "endpoint-query-page.png"
        browser.save_screenshot(str(shot))
        print(f"screenshot: {shot}")
        assert "Alice Ng" in text and "Bob Ruiz" in text
        assert "BETA-SECRET" not in text and "GAMMA-SECRET" not in text  # the token's graphs only
        # without a token the page shows the endpoint's 401
        browser.find_element(By.ID, "token").clear()
        browser.execute_script("window.yasgui.getTab().getYasqe().query();")
        wait.until(
            lambda d: (
                "401" in d.find_element(By.CSS_SELECTOR, ".yasr").text
                or "bearer token" in d.find_element(By.CSS_SELECTOR, ".yasr").text
            )
        )
        offsite = [e for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
        assert offsite == [], offsite  # the page asked for nothing outside this origin


def test_the_page_preloads_prefixes_offers_the_library_and_links_to_ask(browser, store_dir: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    for url in start_server(store_dir):
        browser.get(f"{url}/")
        wait = WebDriverWait(browser, 30)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-examples"))
        value = browser.execute_script("return window.yasgui.getTab().getYasqe().getValue();")
        assert value.startswith("PREFIX ekg: <https://w3id.org/ekg/ont#>") and "PREFIX prov:" in value
        assert browser.find_element(By.ID, "ask-link").get_attribute("href") == f"{url}/ask"
        names = [o.text.split(" — ")[0] for o in Select(browser.find_element(By.ID, "examples")).options[1:]]
        assert "named_graphs" in names and "people" in names
        Select(browser.find_element(By.ID, "examples")).select_by_index(names.index("named_graphs") + 1)
        value = browser.execute_script("return window.yasgui.getTab().getYasqe().getValue();")
        assert "GRAPH ?graph { }" in value and value.startswith("PREFIX ekg:")
        browser.execute_script("window.yasgui.getTab().getYasqe().query();")
        wait.until(lambda d: "Alpha" in d.find_element(By.CSS_SELECTOR, ".yasr").text)
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "endpoint-query-page-examples.png"))
        offsite = [e for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
        assert offsite == [], offsite


#: Window widths the query page's header must hold at, with the examples loaded.
WIDTHS = (1000, 1280, 1600)


def test_the_header_holds_from_1000_to_1600_px_with_the_examples_loaded(browser, store_dir: Path) -> None:
    """Every header item stays on one line of its own and inside the window: no word-per-line wrapping, and the
    link to the answer page stays on screen. A screenshot per width is kept under tests/artifacts/."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ARTIFACTS.mkdir(exist_ok=True)
    for url in start_server(store_dir):
        for width in WIDTHS:
            browser.set_window_size(width, 700)
            browser.get(f"{url}/")
            WebDriverWait(browser, 30).until(
                lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-examples")
            )
            boxes = browser.execute_script(
                "const line = parseFloat(getComputedStyle(document.body).fontSize) * 2;"
                "return [...document.querySelectorAll('header > *')].map(e => {"
                "  const r = e.getBoundingClientRect();"
                "  return {id: e.id || e.tagName, left: r.left, right: r.right, height: r.height, line: line,"
                "          view: document.documentElement.clientWidth}; });"
            )
            browser.save_screenshot(str(ARTIFACTS / f"endpoint-query-page-header-{width}.png"))
            assert {"intro", "ask-link"} <= {box["id"] for box in boxes}, boxes
            for box in boxes:
                assert box["left"] >= 0 and box["right"] <= box["view"], (width, box)  # on screen
                assert box["height"] <= box["line"], (width, box)  # one line: no word per line
            assert browser.find_element(By.ID, "ask-link").is_displayed()
