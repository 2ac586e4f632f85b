"""Headless Debian Chromium for the page tests, driven by selenium (skipped with a reason when not installed)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from programs import require

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: Without the background-networking flags Chromium tries hosts this machine cannot reach.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


@contextmanager
def headless_chromium(window: str = "1280,900", browser_log: bool = False) -> Iterator[object]:
    """A selenium driver of Debian's chromium with a fresh profile, quit and removed afterwards."""
    require("chromium", "chromedriver")
    chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="kg-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*FLAGS, f"--window-size={window}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if browser_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
