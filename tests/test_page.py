"""The answer page: views (answer, abstention with proof, artifact, product scope), the evidence drawing shared
with `kg ask --graph`, the aiohttp routes served over real HTTP on 127.0.0.1, and headless Chromium asking a
question and following a citation."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from aiohttp import web
from browser import ARTIFACTS, headless_chromium
from test_serve import start_server

from kg.cli import main
from kg.namespaces import ORG_GRAPH, product_graph
from kg.page.app import ask_application
from kg.page.evidence import evidence_graph
from kg.page.views import answer_page, artifact_page
from kg.qa.answer import Answerer
from kg.query.sparql import product_dataset

ROOT = Path(__file__).resolve().parent.parent
AUTHORS = (
    "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie product?"
)
ABSTAINS = "Find employee IDs of QA Specialists who reviewed the Product Vision Document for ActionGenie?"
MESSAGE = "20260811-1-5d85e"  # a Slack message in ActionGenie, cited by AUTHORS
ACTIONGENIE = frozenset({product_graph("ActionGenie").value, ORG_GRAPH})
VIZFORCE = frozenset({product_graph("VizForce").value, ORG_GRAPH})
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")


@needs_dot
def test_answer_page_shows_values_citation_links_and_the_evidence_drawing(answerer: Answerer) -> None:
    page = answer_page(AUTHORS, None, answerer)
    assert page.status == 200 and "eid_13fdff84" in page.html
    assert f'<a class="citation" href="/artifact/{MESSAGE}">{MESSAGE}</a>' in page.html
    svg = re.search(r'<figure id="evidence">(<svg.*</svg>)', page.html, re.S).group(1)
    assert "prov:wasAttributedTo" in svg and "answer" in svg and "http" not in svg.split("<svg", 1)[0]


@needs_dot
def test_abstention_shows_the_proof_query_and_its_bindings(answerer: Answerer) -> None:
    page = answer_page(ABSTAINS, None, answerer)
    assert page.status == 200 and "Abstained" in page.html and "doc_reviewers_by_role.ask" in page.html
    assert "<td>?role</td><td>https://w3id.org/ekg/id/role/QA%20Specialist</td>" in page.html
    assert '<pre id="proof">' in page.html and "ASK" in page.html


def test_artifact_page_shows_text_author_time_and_channel(answerer: Answerer) -> None:
    page = artifact_page(MESSAGE, ACTIONGENIE, answerer)
    assert page.status == 200
    for text in (
        "Absolutely agree! ActionGenie is a much better fit.",
        "Emma Miller (eid_d96fb219)",
        "2026-08-11T11:13:00",
        "develop-ianmiller-ActionGenie",
        "SlackMessage",
    ):
        assert text in page.html


def test_scope_refuses_questions_and_artifacts_of_other_products(answerer: Answerer) -> None:
    refused = answer_page(AUTHORS, VIZFORCE, answerer)
    assert refused.status == 403 and "eid_13fdff84" not in refused.html
    unknown = answer_page(AUTHORS.replace("ActionGenie", "NoSuchProduct"), VIZFORCE, answerer)
    assert unknown == refused  # the same reply as for a product the store does not hold: no existence oracle
    hidden = artifact_page(MESSAGE, VIZFORCE, answerer)
    assert hidden.status == 404 and "Absolutely agree" not in hidden.html


@needs_dot
def test_kg_ask_graph_writes_the_page_drawing(
    store: Path, answerer: Answerer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "evidence.svg"
    assert main(["ask", AUTHORS, "--store", str(store), "--graph", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    drawn = evidence_graph(answerer.ask(AUTHORS), answerer.backend, product_dataset("ActionGenie"))
    assert svg.startswith("<?xml") and all(n.label.split("\n")[0] in svg for n in drawn.nodes.values())
    assert f"/artifact/{MESSAGE}" in svg
    capsys.readouterr()
    assert main(["ask", "--batch", "in.jsonl", "--graph", str(out), "--store", str(store)]) == 2
    assert "--graph has no effect with --batch" in capsys.readouterr().err


@contextmanager
def serving(app: web.Application) -> Iterator[str]:
    """The application on a real HTTP server on 127.0.0.1 (a free port), in a thread of its own."""
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.run_until_complete(runner.cleanup())
        loop.close()


@pytest.fixture(scope="module")
def server(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real `kg serve` (its /ask and /artifact routes) with an access file of three tokens."""
    access = tmp_path_factory.mktemp("page-access") / "access.json"
    access.write_text(json.dumps({"admin-token": "*", "ag-token": ["ActionGenie"], "viz-token": ["VizForce"]}))
    yield from start_server(store, "--access", str(access))


@needs_dot
def test_without_an_access_file_loopback_clients_read_everything(answerer: Answerer) -> None:
    with serving(ask_application(answerer, None)) as url:
        shown = requests.get(f"{url}/artifact/{MESSAGE}", timeout=30)
    assert shown.status_code == 200 and "Emma Miller" in shown.text and 'id="token"' not in shown.text


def test_routes_over_real_http_respect_tokens(server: str) -> None:
    assert requests.get(f"{server}/ask", timeout=30).status_code == 200  # the form itself reads nothing
    assert requests.get(f"{server}/ask", params={"q": AUTHORS}, timeout=30).status_code == 401
    bearer = {"Authorization": "Bearer viz-token"}
    assert requests.get(f"{server}/ask", params={"q": AUTHORS}, headers=bearer, timeout=30).status_code == 403
    assert requests.get(f"{server}/artifact/{MESSAGE}", headers=bearer, timeout=30).status_code == 404
    with requests.Session() as browser:
        answered = browser.post(f"{server}/ask", data={"q": AUTHORS, "token": "ag-token"}, timeout=60)
        assert answered.status_code == 200 and "eid_13fdff84" in answered.text and "kg_token" in browser.cookies
        shown = browser.get(f"{server}/artifact/{MESSAGE}", timeout=30)  # the cookie carries the token
        assert shown.status_code == 200 and "Emma Miller" in shown.text
    assert (
        requests.get(
            f"{server}/artifact/{MESSAGE}", headers={"Authorization": "Bearer admin-token"}, timeout=30
        ).status_code
        == 200
    )


@needs_dot
def test_browser_asks_sees_the_answer_and_follows_a_citation(server: str, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with headless_chromium(window="1200,1400") as driver:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as seen
        from selenium.webdriver.support.ui import WebDriverWait

        driver.get(f"{server}/ask")
        driver.find_element(By.ID, "question").send_keys(AUTHORS)
        driver.find_element(By.ID, "token").send_keys("ag-token")
        driver.find_element(By.ID, "ask").click()
        WebDriverWait(driver, 60).until(seen.presence_of_element_located((By.ID, "answer")))
        assert "eid_13fdff84" in driver.find_element(By.ID, "answer").text
        assert driver.find_element(By.CSS_SELECTOR, "#evidence svg").is_displayed()
        driver.save_screenshot(str(ARTIFACTS / "answer-page.png"))
        driver.find_element(By.CSS_SELECTOR, f'a.citation[href="/artifact/{MESSAGE}"]').click()
        WebDriverWait(driver, 30).until(seen.presence_of_element_located((By.ID, "artifact-id")))
        assert driver.find_element(By.ID, "author").text == "Emma Miller (eid_d96fb219)"
        assert "much better fit" in driver.find_element(By.ID, "text").text
        driver.save_screenshot(str(ARTIFACTS / "artifact-page.png"))
