#!/usr/bin/env python3
"""Drives headless Chromium through a glass-gpu goldens HTML report (test tooling
only, never a runtime dependency of glass-gpu) and prints what it measured as one
JSON object. Called by ReportBrowserTests.

  report_check.py interact REPORT/index.html SCREENSHOT.png
      loads the page from file://, then: counts the cards of each filter and the
      summary, searches, sorts, groups, reads the run's panel and the thumbnails'
      change frames, opens the first failure, steps with previous / next, reads
      the masks drawn, copies the accept command and pastes it back, moves and
      drags the slider and presses keys after it, watches the strobe, opens the
      zoom and the overlay, takes screenshots (SCREENSHOT.png: the cards;
      SCREENSHOT-slider.png, SCREENSHOT-overlay.png: the inspector); reports the
      browser console's errors and every URL the page requested.
  report_check.py scale REPORT/index.html
      counts the images requested on load and after scrolling to the end.
  report_check.py snapshot PAGE/index.html
      the snapshot strategy's page: counts its cards.

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
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
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
        js = driver.execute_script
        cards = lambda: js("return Array.from(document.querySelectorAll('#cards .card')).map(c => c.dataset.name)")
        body = driver.find_element(By.TAG_NAME, "body")
        out["cardsDefault"] = len(cards())
        # The summary and every filter: its count, and the cards it shows.
        out["summary"] = js("return Object.fromEntries(Array.from(document.querySelectorAll('#summary [data-count]'))"
                            ".map(s => [s.dataset.count, parseInt(s.textContent)]))")
        out["summaryText"] = js("return document.getElementById('summary').textContent")
        filters = {}
        for name in ["failed", "new", "error", "passed", "all"]:
            driver.find_element(By.CSS_SELECTOR, f'#filters button[data-filter="{name}"]').click()
            count = js(f"return parseInt(document.querySelector('#filters button[data-filter=\"{name}\"] .count')"
                       ".textContent)")
            filters[name] = {"count": count, "cards": cards()}
        out["filters"] = filters
        # Search by name: "/" focuses the field; the counts follow the search.
        body.send_keys("/")
        out["searchFocused"] = js("return document.activeElement.id")
        driver.switch_to.active_element.send_keys("bravo")
        time.sleep(0.1)
        out["searchCards"] = cards()
        out["searchCounts"] = js("return Object.fromEntries(Array.from(document.querySelectorAll('#filters button'))"
                                 ".map(b => [b.dataset.filter, parseInt(b.querySelector('.count').textContent)]))")
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        js("const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input'))")
        out["afterSearchCards"] = len(cards())
        # Sorting by the size of the difference, among the failures.
        driver.find_element(By.CSS_SELECTOR, '#filters button[data-filter="failed"]').click()
        sort = Select(driver.find_element(By.ID, "sort"))
        order = "return visible.map(c => [c.name, c.shareOverOne, c.maxDifference])"
        out["runOrder"] = js(order)
        sort.select_by_value("share")
        out["shareOrder"] = js(order)
        out["shareCards"] = cards()
        sort.select_by_value("max")
        out["maxOrder"] = js(order)
        sort.select_by_value("run")
        # Grouping by folder and by variant: the headings, and the cards under each.
        group = Select(driver.find_element(By.ID, "group"))
        groups = ("return Array.from(document.querySelectorAll('#cards section.group')).map(s => "
                  "[s.querySelector('h3') ? s.querySelector('h3').textContent : '', "
                  "Array.from(s.querySelectorAll('.card')).map(c => c.dataset.name)])")
        group.select_by_value("folder")
        out["groupsByFolder"] = js(groups)
        group.select_by_value("variant")
        out["groupsByVariant"] = js(groups)
        # Keys work after a select: j moves.
        first = js("return document.querySelector('#cards .card.selected').dataset.name")
        driver.switch_to.active_element.send_keys("j")
        out["keysAfterSelect"] = first != js("return document.querySelector('#cards .card.selected').dataset.name")
        group.select_by_value("")
        # The run: command, working folder, commit, comparison settings, accept every failure.
        text = lambda i: js(f"const e = document.getElementById('{i}'); return e ? e.textContent : null")
        for key in ["runCommand", "runFolder", "runCommit", "runSettings", "acceptAll"]:
            out[key] = text(key)
        out["runOpen"] = js("return document.getElementById('run').open")
        # Thumbnails frame where the change is: each failure's box, as data and as drawn.
        out["thumbBoxes"] = js(
            "return Array.from(document.querySelectorAll('#cards .card')).map(card => {"
            " const c = visible[Number(card.dataset.index)]; const b = card.querySelector('.thumbwrap .box.change');"
            " const img = card.querySelector('.thumbwrap img');"
            " if (!b) return {name: c.name, box: c.changeBox || null};"
            " const r = b.getBoundingClientRect(), i = img.getBoundingClientRect();"
            " return {name: c.name, box: c.changeBox, size: c.size, style: [b.style.left, b.style.top, b.style.width,"
            " b.style.height], inside: r.left >= i.left - 0.5 && r.top >= i.top - 0.5 && r.right <= i.right + 0.5"
            " && r.bottom <= i.bottom + 0.5}; })")
        # Keyboard: j moves the selection, Enter opens the case.
        first = js("return document.querySelector('#cards .card.selected').dataset.name")
        body.send_keys("j")
        second = js("return document.querySelector('#cards .card.selected').dataset.name")
        body.send_keys("k")
        out["keyboardMoves"] = first != second or len(cards()) < 2
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        time.sleep(0.2)
        out["inspectorOpen"] = js("return !document.getElementById('inspector').hidden")
        out["opened"] = text("title")
        out["accept"] = text("accept")
        out["acceptLabel"] = text("acceptLabel")
        # Previous / next, and "n of m".
        out["position"] = text("position")
        out["prevDisabled"] = js("return document.getElementById('prev').disabled")
        driver.find_element(By.ID, "next").click()
        out["positionNext"] = text("position")
        out["openedNext"] = text("title")
        driver.find_element(By.ID, "prev").click()
        out["positionBack"] = text("position")
        out["openedBack"] = text("title")
        # Masks drawn on the images: one box per image, where the mask is.
        out["maskBoxes"] = js(
            "return Array.from(document.querySelectorAll('#view .framed .box.mask')).map(b => "
            "[b.style.left, b.style.top, b.style.width, b.style.height])")
        out["caseMasks"] = js("return [visible[selected].masks || [], visible[selected].size]")
        # The copy button: what it copies pastes back.
        driver.find_element(By.CSS_SELECTOR, '#acceptBox button.copy').click()
        time.sleep(0.3)
        out["copyLabel"] = js("return document.querySelector('#acceptBox button.copy').textContent")
        js("const t = document.createElement('textarea'); t.id = 'paste'; document.body.append(t); t.focus()")
        driver.switch_to.active_element.send_keys(Keys.CONTROL, "v")
        time.sleep(0.2)
        out["pasted"] = js("const t = document.getElementById('paste'); const v = t.value; t.remove(); return v")
        # The slider: the render's clip follows the range.
        body.send_keys("2")
        time.sleep(0.3)
        clip = lambda: js("return document.querySelector('#swipe img.top').style.clipPath")
        out["clipBefore"] = clip()
        js("const r = document.getElementById('split'); r.value = 80; r.dispatchEvent(new Event('input'))")
        out["clipAfter"] = clip()
        slider = driver.find_element(By.ID, "split")
        slider.send_keys(Keys.ARROW_LEFT)
        out["clipAfterKey"] = clip()
        # Dragged with the mouse, the slider keeps the focus; the keys still work.
        ActionChains(driver).click_and_hold(slider).move_by_offset(-120, 0).release().perform()
        time.sleep(0.1)
        out["clipAfterDrag"] = clip()
        out["focusAfterDrag"] = js("return document.activeElement.id")
        driver.switch_to.active_element.send_keys("j")
        time.sleep(0.2)
        out["positionAfterDragKey"] = text("position")
        driver.switch_to.active_element.send_keys("k")
        time.sleep(0.2)
        out["positionAfterDragBack"] = text("position")
        driver.switch_to.active_element.send_keys("2")
        time.sleep(0.2)
        driver.save_screenshot(screenshot.replace(".png", "-slider.png"))
        # The strobe: the picture alternates.
        driver.switch_to.active_element.send_keys("3")
        out["modeAfterKey"] = js("return document.querySelector('.bar button[aria-pressed=\"true\"]').dataset.mode")
        seen = []
        for _ in range(5):
            seen.append(text("strobeLabel"))
            time.sleep(0.3)
        out["strobe"] = seen
        # The zoom draws three canvases.
        body.send_keys("4")
        time.sleep(0.4)
        out["zoomCanvases"] = len(driver.find_elements(By.CSS_SELECTOR, ".zoom canvas"))
        # The difference overlay on the render.
        body.send_keys("5")
        time.sleep(0.4)
        out["overlay"] = js(
            "const o = document.querySelector('#overlay img.top'), b = document.querySelector('#overlay img:not(.top)');"
            " return o && b ? {src: o.getAttribute('src'), base: b.getAttribute('src'), loaded: o.complete &&"
            " o.naturalWidth > 0 && o.naturalWidth === b.naturalWidth && o.naturalHeight === b.naturalHeight,"
            " dim: b.classList.contains('dim'), change: !!document.querySelector('#overlay .box.change')} : null")
        driver.find_element(By.ID, "dim").click()
        out["overlayDimOff"] = js("return document.querySelector('#overlay img:not(.top)').classList.contains('dim')")
        driver.find_element(By.ID, "dim").click()
        driver.save_screenshot(screenshot.replace(".png", "-overlay.png"))
        body.send_keys(Keys.ESCAPE)
        out["inspectorClosed"] = js("return document.getElementById('inspector').hidden")
        # The cards, sorted by the share changed and grouped by folder, for the README.
        Select(driver.find_element(By.ID, "sort")).select_by_value("share")
        Select(driver.find_element(By.ID, "group")).select_by_value("folder")
        js("window.scrollTo(0, 0)")
        time.sleep(0.5)
        driver.save_screenshot(screenshot)
        out["requests"] = requested(driver)
        out["console"] = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    finally:
        driver.quit()
    print(json.dumps(out))


def snapshot_page(page):
    """The snapshot strategy's page: every appended case becomes a card."""
    driver = browser()
    out = {}
    try:
        driver.get("file://" + os.path.abspath(page))
        time.sleep(0.5)
        js = driver.execute_script
        driver.find_element(By.CSS_SELECTOR, '#filters button[data-filter="all"]').click()
        out["cards"] = js("return document.querySelectorAll('#cards .card').length")
        out["names"] = js("return Array.from(document.querySelectorAll('#cards .card')).map(c => c.dataset.name)")
        out["failedCount"] = js("return parseInt(document.querySelector('#filters button[data-filter=\"failed\"] "
                                ".count').textContent)")
        out["title"] = driver.title
        out["console"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
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
    elif len(sys.argv) >= 3 and sys.argv[1] == "snapshot":
        snapshot_page(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
