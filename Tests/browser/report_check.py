#!/usr/bin/env python3
"""Drives headless Chromium through a glass-gpu goldens HTML report (test tooling
only, never a runtime dependency of glass-gpu) and prints what it measured as one
JSON object. Called by ReportBrowserTests.

  report_check.py interact REPORT/index.html SCREENSHOT.png
      loads the page from file://, then: counts the cards of each filter, opens
      the first failure, moves the slider, watches the strobe, takes a screenshot;
      reports the browser console's errors and every URL the page requested.
  report_check.py scale REPORT/index.html
      counts the images requested on load and after scrolling to the end.

Exit status 3 (and {"skip": reason}) when Chromium, chromedriver or Selenium is
missing.
"""
import json
import os
import sys
import time


def fail_skip(reason):
    print(json.dumps({"skip": reason}))
    sys.exit(3)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError as error:
    fail_skip(f"Selenium is not installed ({error}); apt-get install -y python3-selenium")

CHROMIUM = next((p for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] if os.path.exists(p)), None)
DRIVER = next((p for p in ["/usr/bin/chromedriver"] if os.path.exists(p)), None)
if not CHROMIUM or not DRIVER:
    fail_skip("Chromium or chromedriver is not installed; apt-get install -y chromium chromium-driver")


def browser(width=1280, height=900):
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--allow-file-access-from-files"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(DRIVER), options=options)
    except Exception as error:  # noqa: BLE001 - any start failure is a reason to skip
        fail_skip(f"Chromium did not start: {str(error).splitlines()[0]}")


def requested(driver):
    """Every URL the page asked for: the document, resource timing's entries, and
    every image, script and link in the document (Chromium keeps no resource
    timing for file:// URLs)."""
    return driver.execute_script(
        "return [location.href].concat(performance.getEntriesByType('resource').map(e => e.name),"
        " Array.from(document.querySelectorAll('img[src], script[src], link[href], iframe[src]'))"
        ".map(e => e.src || e.href))")


def interact(page, screenshot):
    driver = browser()
    out = {}
    try:
        url = "file://" + os.path.abspath(page)
        driver.get(url)
        time.sleep(0.3)
        visible = lambda: len(driver.find_elements(By.CSS_SELECTOR, "#cards .card"))
        out["cardsFailed"] = visible()
        driver.find_element(By.CSS_SELECTOR, '#filters button[data-filter="all"]').click()
        out["cardsAll"] = visible()
        driver.find_element(By.CSS_SELECTOR, '#filters button[data-filter="new"]').click()
        out["cardsNew"] = visible()
        driver.find_element(By.CSS_SELECTOR, '#filters button[data-filter="failed"]').click()
        out["cardsFailedAgain"] = visible()
        # Keyboard: j moves the selection, Enter opens the case.
        body = driver.find_element(By.TAG_NAME, "body")
        first = driver.execute_script("return document.querySelector('#cards .card.selected').dataset.name")
        body.send_keys("j")
        second = driver.execute_script("return document.querySelector('#cards .card.selected').dataset.name")
        body.send_keys("k")
        out["keyboardMoves"] = first != second or out["cardsFailed"] < 2
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        time.sleep(0.2)
        out["inspectorOpen"] = driver.execute_script("return !document.getElementById('inspector').hidden")
        out["opened"] = driver.execute_script("return document.getElementById('title').textContent")
        out["accept"] = driver.execute_script("return document.getElementById('accept').textContent")
        # The slider: the render's clip follows the range.
        driver.find_element(By.TAG_NAME, "body").send_keys("2")
        time.sleep(0.3)
        clip = lambda: driver.execute_script("return document.querySelector('#swipe img.top').style.clipPath")
        out["clipBefore"] = clip()
        driver.execute_script(
            "const r = document.getElementById('split'); r.value = 80; r.dispatchEvent(new Event('input'))")
        out["clipAfter"] = clip()
        slider = driver.find_element(By.ID, "split")
        slider.send_keys(Keys.ARROW_LEFT)
        out["clipAfterKey"] = clip()
        driver.save_screenshot(screenshot)
        # The strobe: the picture alternates.
        driver.find_element(By.TAG_NAME, "body").send_keys("3")
        seen = []
        for _ in range(5):
            seen.append(driver.execute_script("return document.getElementById('strobeLabel').textContent"))
            time.sleep(0.3)
        out["strobe"] = seen
        # The zoom draws three canvases.
        driver.find_element(By.TAG_NAME, "body").send_keys("4")
        time.sleep(0.4)
        out["zoomCanvases"] = len(driver.find_elements(By.CSS_SELECTOR, ".zoom canvas"))
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        out["inspectorClosed"] = driver.execute_script("return document.getElementById('inspector').hidden")
        out["requests"] = requested(driver)
        out["console"] = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    finally:
        driver.quit()
    print(json.dumps(out))


def scale(page):
    driver = browser()
    out = {}
    try:
        driver.get("file://" + os.path.abspath(page))
        time.sleep(1.0)
        # Chromium keeps no resource timing for file:// URLs: an image counts as
        # requested once it has loaded (a lazy image not yet near the viewport
        # has not).
        count = lambda: driver.execute_script(
            "return Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0)"
            ".map(i => i.getAttribute('src'))")
        out["cards"] = driver.execute_script("return document.querySelectorAll('#cards .card').length")
        before = count()
        out["beforeThumbs"] = len([n for n in before if n.startswith("thumbs/")])
        out["beforeFull"] = len([n for n in before if n.startswith("images/")])
        height = driver.execute_script("return document.body.scrollHeight")
        y = 0
        while y < height:
            y += 1200
            driver.execute_script(f"window.scrollTo(0, {y})")
            time.sleep(0.02)
            height = driver.execute_script("return document.body.scrollHeight")
        time.sleep(1.0)
        after = count()
        out["afterThumbs"] = len([n for n in after if n.startswith("thumbs/")])
        out["afterFull"] = len([n for n in after if n.startswith("images/")])
        out["console"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    print(json.dumps(out))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "interact":
        interact(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "scale":
        scale(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
