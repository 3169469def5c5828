extension GoldenHTMLReport {
  /// The page, its style and script inline; `@DATA@` is replaced by a JSON
  /// object: `title`, `summary` (the run's time, backend and start), `run` (its
  /// command, working folder, commit, comparison settings and the command that
  /// accepts every failure) and `cases`. More cases may follow the template, one
  /// `<script type="application/json" class="case">` element each (the snapshot
  /// strategy's page grows that way: `GoldenHTMLReport.appendFailure`); the
  /// script reads them all once the document is parsed, and the body and html
  /// elements are left open for them (their end tags are optional). Only
  /// relative paths to the folder's own images: nothing leaves it.
  ///
  /// A case: `name`, `status` (passed, failed, new, error: each case has one,
  /// so the counts add up to the cases), `failure`, `folder` and `variant` (for
  /// grouping), `scene`, `message`, `seconds`, the images (`reference`,
  /// `actual`, `difference`, `overlay`: the render's differing pixels in red,
  /// those the anti-aliasing mode leaves out in amber, transparent elsewhere),
  /// `thumb` and `thumbSize`, the image's `size`, `changeBox` (the bounding box
  /// of the differing pixels the comparison counts, x, y, width, height),
  /// `masks` (the masked rectangles, in pixels), the numbers (`maxDifference`,
  /// `shareOverOne`, `psnr`, `deltaE`, `ignored`, `worst`) and `accept` (the
  /// command that re-records this case's reference).
  static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>glass-gpu report</title>
    <style>
    :root { color-scheme: light dark; --fail: #d70015; --new: #0a84ff; --pass: #248a3d; --error: #b25000;
      --mask: #ff00ff; --line: #8884; --card: #8881; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    body { margin: 0; }
    header { position: sticky; top: 0; z-index: 2; padding: 10px 20px; background: Canvas; border-bottom: 1px solid var(--line); }
    h1 { font-size: 18px; margin: 0 12px 2px 0; display: inline-block; }
    #summary { display: inline; }
    #summary span { margin-right: 12px; }
    #summary .failed { color: var(--fail); } #summary .new { color: var(--new); }
    #summary .passed { color: var(--pass); } #summary .error { color: var(--error); }
    #run { font-size: 12px; margin: 4px 0 0; }
    #run summary { cursor: pointer; opacity: 0.85; }
    #run dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 3px 12px; margin: 6px 0 2px; }
    #run dt { opacity: 0.7; } #run dd { margin: 0; }
    .command { display: flex; gap: 6px; align-items: flex-start; }
    .command code { flex: 1; white-space: pre-wrap; word-break: break-all; background: var(--card);
      padding: 4px 6px; border-radius: 4px; font-size: 12px; }
    .controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 6px; }
    button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--card);
      color: inherit; cursor: pointer; }
    button:disabled { opacity: 0.4; cursor: default; }
    button[aria-pressed="true"] { background: var(--new); color: white; }
    button.copy { font-size: 12px; padding: 2px 8px; }
    #search, select { font: inherit; padding: 3px 8px; border: 1px solid var(--line); border-radius: 6px;
      background: Canvas; color: inherit; }
    #search { min-width: 14em; }
    .keys { font-size: 12px; opacity: 0.7; }
    #cards { padding: 4px 20px 16px; }
    .group h3 { font-size: 14px; margin: 14px 0 6px; }
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
    .empty { opacity: 0.7; }
    .card { border: 1px solid var(--line); border-radius: 10px; padding: 8px; background: var(--card); cursor: pointer;
      content-visibility: auto; contain-intrinsic-size: 260px 230px; }
    .card:focus, .card.selected { outline: 3px solid var(--new); outline-offset: 1px; }
    .thumbframe { height: 150px; display: flex; align-items: center; justify-content: center; background: #8882;
      margin-bottom: 6px; }
    .thumbwrap { position: relative; }
    .thumbwrap img { display: block; width: 100%; height: 100%; }
    .card h2 { font-size: 13px; margin: 0; word-break: break-all; }
    .badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 4px; color: white; margin-right: 6px; }
    .badge.failed { background: var(--fail); } .badge.new { background: var(--new); }
    .badge.passed { background: var(--pass); } .badge.error { background: var(--error); }
    .numbers { font-size: 12px; opacity: 0.8; }
    .box { position: absolute; box-sizing: border-box; pointer-events: none; min-width: 6px; min-height: 6px; }
    .box.change { border: 2px solid var(--fail); box-shadow: 0 0 0 1px #fffa; }
    .box.mask { border: 1px dashed var(--mask);
      background: repeating-linear-gradient(45deg, #ff00ff55 0 3px, transparent 3px 7px); }
    #inspector { position: fixed; inset: 0; z-index: 3; background: Canvas; overflow: auto; padding: 12px 20px; }
    #inspector[hidden] { display: none; }
    .bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
    #title { font-size: 15px; margin-right: 8px; word-break: break-all; }
    #position { font-size: 12px; opacity: 0.8; margin-right: 8px; }
    #view { margin-top: 12px; }
    .side { display: flex; gap: 12px; flex-wrap: wrap; }
    .side figure { margin: 0; }
    .framed { position: relative; display: inline-block; vertical-align: top; border: 1px solid var(--line); }
    .framed > img { display: block; image-rendering: pixelated; }
    .side .framed > img { min-width: min(360px, 31vw); max-width: 31vw; }
    figcaption { font-size: 12px; opacity: 0.8; }
    .swipe > img, .strobe .framed > img, .overlay > img { min-width: min(640px, 90vw); max-width: 90vw; }
    .swipe > img.top, .overlay > img.top { position: absolute; inset: 0; width: 100%; height: 100%; min-width: 0; }
    .swipe .split { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--new); pointer-events: none; }
    .overlay > img.dim { filter: grayscale(1) opacity(0.35); }
    #split { width: min(90vw, 600px); display: block; margin-top: 8px; }
    .zoom { display: flex; gap: 12px; flex-wrap: wrap; }
    .zoom figure { margin: 0; }
    .zoom canvas { border: 1px solid var(--line); cursor: crosshair; image-rendering: pixelated; }
    .legend { font-size: 12px; opacity: 0.8; margin: 6px 0; }
    .legend label { margin-right: 12px; }
    .message { white-space: pre-wrap; font-size: 12px; }
    #acceptBox p { margin: 10px 0 4px; }
    </style>
    </head>
    <body>
    <header>
    <h1 id="heading">glass-gpu</h1><div id="summary"></div>
    <details id="run" hidden><summary>Run</summary><dl id="runList"></dl></details>
    <div class="controls">
    <nav id="filters" aria-label="Filter cases">
    <button data-filter="failed">Failed (<span class="count">0</span>)</button>
    <button data-filter="new">New (<span class="count">0</span>)</button>
    <button data-filter="error">Errors (<span class="count">0</span>)</button>
    <button data-filter="passed">Passed (<span class="count">0</span>)</button>
    <button data-filter="all">All (<span class="count">0</span>)</button>
    </nav>
    <input id="search" type="search" placeholder="Search by name ( / )" aria-label="Search cases by name">
    <select id="sort" aria-label="Sort">
    <option value="run">Run order</option><option value="share">Most pixels changed</option>
    <option value="max">Largest difference</option><option value="name">Name</option>
    </select>
    <select id="group" aria-label="Group">
    <option value="">No groups</option><option value="folder">Group by folder</option>
    <option value="variant">Group by variant</option>
    </select>
    <span class="keys">/ search · j / k: move · Enter: open · 1–5: mode · Esc: close</span>
    </div>
    </header>
    <main id="cards"></main>
    <section id="inspector" hidden>
    <div class="bar"><button id="prev" title="Previous (k)">‹ Prev</button><button id="next" title="Next (j)">Next ›</button>
    <span id="position"></span><strong id="title"></strong></div>
    <div class="bar">
    <button data-mode="side">1 Side by side</button><button data-mode="slider">2 Slider</button>
    <button data-mode="strobe">3 Strobe</button><button data-mode="zoom">4 Zoom</button>
    <button data-mode="overlay">5 Overlay</button><button id="close">Esc Close</button></div>
    <div id="numbers" class="numbers"></div>
    <div id="view"></div>
    <div id="message" class="message"></div>
    <div id="acceptBox" hidden><p id="acceptLabel"></p>
    <div class="command"><code id="accept"></code><button class="copy" data-copy="accept">Copy</button></div></div>
    </section>
    <script type="application/json" id="data">@DATA@</script>
    <script>
    "use strict";
    const $ = (id) => document.getElementById(id);
    const modes = ["side", "slider", "strobe", "zoom", "overlay"];
    let data = {};
    let cases = [];
    let visible = [];
    let cardElements = [];
    let selected = -1;
    let filter = "all";
    let query = "";
    let sortKey = "run";
    let groupKey = "";
    let mode = "side";
    let strobeTimer = null;
    let zoomCentre = null;

    function el(tag, props, ...children) {
      const e = document.createElement(tag);
      Object.assign(e, props || {});
      for (const c of children) e.append(c);
      return e;
    }
    // A rectangle [x, y, width, height] of an image of `size` pixels, drawn over it.
    function box(kind, rect, size) {
      const b = el("div", { className: "box " + kind });
      b.style.left = (100 * rect[0] / size[0]) + "%";
      b.style.top = (100 * rect[1] / size[1]) + "%";
      b.style.width = (100 * rect[2] / size[0]) + "%";
      b.style.height = (100 * rect[3] / size[1]) + "%";
      return b;
    }
    function masks(c) { return c.size ? (c.masks || []).map((m) => box("mask", m, c.size)) : []; }
    function framed(src, alt, c, extra) {
      const img = el("img", { src, alt });
      return el("span", { className: "framed" }, img, ...masks(c), ...(extra || []));
    }
    function numbers(c) {
      const parts = [];
      if (c.failure === "missing-reference") parts.push("no reference yet");
      if (c.failure === "size-differs") parts.push("size differs");
      if (c.maxDifference !== undefined) parts.push("max " + c.maxDifference + "/255");
      if (c.shareOverOne !== undefined) parts.push((100 * c.shareOverOne).toFixed(3) + " % over 1/255");
      if (c.psnr !== undefined) parts.push("PSNR " + (c.psnr === null ? "∞" : c.psnr + " dB"));
      if (c.deltaE !== undefined) parts.push("ΔE " + c.deltaE);
      if (c.ignored) parts.push(c.ignored + " px left out");
      if (c.seconds !== undefined) parts.push(c.seconds + " s");
      return parts.join(" · ");
    }
    function matchesQuery(c) { return !query || c.name.toLowerCase().includes(query); }
    function counts(all) {
      const n = { all: 0, failed: 0, new: 0, error: 0, passed: 0 };
      for (const c of cases) if (all || matchesQuery(c)) { n.all++; n[c.status]++; }
      return n;
    }
    function summary() {
      const n = counts(true);
      const parts = [el("span", { textContent: n.all + " cases:" })];
      for (const [key, label] of [["passed", "passed"], ["failed", "failed"], ["new", "new"], ["error", "errors"]]) {
        const span = el("span", { className: key, textContent: n[key] + " " + label });
        span.dataset.count = key;
        parts.push(span);
      }
      const s = data.summary;
      if (s) parts.push(el("span", { textContent: s.seconds + " s on " + s.backend + ", " + s.when }));
      $("summary").replaceChildren(...parts);
    }
    function command(id, text) {
      const code = el("code", { id, textContent: text });
      const button = el("button", { className: "copy", textContent: "Copy" });
      button.dataset.copy = id;
      return el("div", { className: "command" }, code, button);
    }
    function runInfo() {
      const r = data.run;
      if (!r) return;
      const rows = [];
      const row = (label, ...value) => rows.push(el("dt", { textContent: label }), el("dd", {}, ...value));
      if (r.command) row("Command", command("runCommand", r.command));
      if (r.folder) row("Working folder", el("code", { id: "runFolder", textContent: r.folder }));
      if (r.commit) row("Commit", el("code", { id: "runCommit", textContent: r.commit }));
      if (r.settings) {
        const s = r.settings;
        const words = [];
        words.push(s.maxDifference === null ? "any difference" : "largest difference " + s.maxDifference + "/255");
        if (s.maxShare !== null) words.push("share over 1/255 at most " + s.maxShare + " %");
        words.push("anti-aliasing " + (s.antiAliasing ? "on" : "off"));
        words.push(s.masks.length ? "masks (drawn on the images): " + s.masks.join("; ") : "no masks");
        row("Comparison", el("span", { id: "runSettings", textContent: words.join(" · ") }));
      }
      if (r.acceptAll) row("Accept every failure", command("acceptAll", r.acceptAll));
      $("runList").replaceChildren(...rows);
      $("run").hidden = false;
      if (r.acceptAll) $("run").open = true;
    }
    function ordered(list) {
      const key = { share: (c) => c.shareOverOne, max: (c) => c.maxDifference }[sortKey];
      if (sortKey === "name") {
        return list.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.order - b.order));
      }
      if (!key) return list;
      // Largest first; cases with no comparison (new, errors) after, in run order.
      return list.slice().sort((a, b) => {
        const x = key(a), y = key(b);
        if (x === undefined || y === undefined) return (x === undefined) - (y === undefined) || a.order - b.order;
        return y - x || a.order - b.order;
      });
    }
    function groupOf(c) {
      if (groupKey === "folder") return c.folder || "(top level)";
      if (groupKey === "variant") return c.variant || "(no variant)";
      return "";
    }
    function card(c, i) {
      const article = el("article", { className: "card " + c.status, tabIndex: 0 });
      article.dataset.index = String(i);
      article.dataset.name = c.name;
      article.dataset.status = c.status;
      if (c.thumb && c.thumbSize) {
        const [w, h] = c.thumbSize;
        const s = Math.min(1, 240 / w, 150 / h);
        const wrap = el("div", { className: "thumbwrap" },
          el("img", { className: "thumb", loading: "lazy", alt: c.name, src: c.thumb }));
        wrap.style.width = (w * s) + "px";
        wrap.style.height = (h * s) + "px";
        if (c.changeBox && c.size) wrap.append(box("change", c.changeBox, c.size));
        article.append(el("div", { className: "thumbframe" }, wrap));
      }
      article.append(el("h2", {}, el("span", { className: "badge " + c.status, textContent: c.status }), c.name));
      article.append(el("div", { className: "numbers", textContent: numbers(c) }));
      article.addEventListener("click", () => { select(i); openCase(); });
      return article;
    }
    function renderCards() {
      const shown = ordered(cases.filter((c) => (filter === "all" || c.status === filter) && matchesQuery(c)));
      const groups = new Map();
      for (const c of shown) {
        const g = groupOf(c);
        if (!groups.has(g)) groups.set(g, []);
        groups.get(g).push(c);
      }
      visible = [];
      cardElements = [];
      const fragment = document.createDocumentFragment();
      for (const g of [...groups.keys()].sort()) {
        const section = el("section", { className: "group" });
        section.dataset.group = g;
        if (groupKey) section.append(el("h3", { textContent: g + " (" + groups.get(g).length + ")" }));
        const grid = el("div", { className: "grid" });
        for (const c of groups.get(g)) {
          const element = card(c, visible.length);
          visible.push(c);
          cardElements.push(element);
          grid.append(element);
        }
        section.append(grid);
        fragment.append(section);
      }
      if (!visible.length) fragment.append(el("p", { className: "empty", textContent: "No case matches." }));
      $("cards").replaceChildren(fragment);
      const n = counts(false);
      for (const b of document.querySelectorAll("#filters button")) {
        b.setAttribute("aria-pressed", String(b.dataset.filter === filter));
        b.querySelector(".count").textContent = String(n[b.dataset.filter]);
      }
      selected = -1;
      if (visible.length) select(0, false);
    }
    function select(i, scroll = true) {
      if (selected >= 0 && cardElements[selected]) cardElements[selected].classList.remove("selected");
      selected = Math.max(0, Math.min(i, visible.length - 1));
      const element = cardElements[selected];
      if (!element) return;
      element.classList.add("selected");
      if (scroll) { element.focus({ preventScroll: true }); element.scrollIntoView({ block: "nearest" }); }
    }
    function stopStrobe() { if (strobeTimer) { clearInterval(strobeTimer); strobeTimer = null; } }
    function openCase() {
      const c = visible[selected];
      if (!c) return;
      $("inspector").hidden = false;
      $("title").textContent = c.name + " — " + c.status;
      $("position").textContent = (selected + 1) + " of " + visible.length;
      $("prev").disabled = selected <= 0;
      $("next").disabled = selected >= visible.length - 1;
      $("numbers").textContent = numbers(c);
      $("message").textContent = c.message || "";
      const all = data.run && data.run.acceptAll;
      const failing = c.status === "failed" || c.failure === "missing-reference";
      $("acceptBox").hidden = !c.accept && !(all && failing);
      $("acceptLabel").textContent = c.accept ? "Accept this change (re-record this case's reference):"
        : "This case cannot be re-recorded alone (a manifest's job); this accepts every failure of the run:";
      $("accept").textContent = c.accept || all || "";
      zoomCentre = c.worst ? { x: c.worst[0], y: c.worst[1] } : null;
      if (location.hash !== "#case=" + encodeURIComponent(c.name)) {
        history.replaceState(null, "", "#case=" + encodeURIComponent(c.name));
      }
      show(c.reference && c.actual ? mode : "side");
    }
    function closeCase() {
      stopStrobe();
      $("inspector").hidden = true;
      $("view").replaceChildren();
      history.replaceState(null, "", location.pathname + location.search);
      select(selected);
    }
    function move(step) {
      if (!visible.length) return;
      select(selected + step);
      if (!$("inspector").hidden) openCase();
    }
    function figure(src, caption, c) {
      return el("figure", {}, framed(src, caption, c), el("figcaption", { textContent: caption }));
    }
    function show(m) {
      const c = visible[selected];
      if (!c) return;
      const both = !!(c.reference && c.actual);
      mode = m;
      stopStrobe();
      for (const b of document.querySelectorAll(".bar button[data-mode]")) {
        b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
        b.disabled = b.dataset.mode !== "side" && !(both && (b.dataset.mode !== "overlay" || c.overlay));
      }
      const view = $("view");
      const legend = [];
      if (c.masks && c.masks.length) legend.push("Magenta hatching: masked, not compared.");
      if (mode === "side" || !both || (mode === "overlay" && !c.overlay)) {
        const side = el("div", { className: "side" });
        if (c.reference) side.append(figure(c.reference, "Reference", c));
        if (c.actual) side.append(figure(c.actual, "Render", c));
        if (c.difference) side.append(figure(c.difference, "Difference (x16)", c));
        if (!side.children.length) side.append(el("p", { textContent: "No image: " + (c.message || c.status) }));
        view.replaceChildren(side, el("p", { className: "legend", textContent: legend.join(" ") }));
      } else if (mode === "slider") {
        const base = el("img", { src: c.reference, alt: "Reference" });
        const top = el("img", { className: "top", src: c.actual, alt: "Render" });
        const line = el("div", { className: "split" });
        const swipe = el("div", { className: "framed swipe", id: "swipe" }, base, top, line, ...masks(c));
        const range = el("input", { type: "range", min: 0, max: 100, value: 50, id: "split" });
        range.setAttribute("aria-label", "Split between reference (left) and render (right)");
        const place = () => {
          top.style.clipPath = "inset(0 0 0 " + range.value + "%)";
          line.style.left = range.value + "%";
        };
        range.addEventListener("input", place);
        place();
        view.replaceChildren(swipe, range, el("figcaption", { textContent: "Left: reference · right: render" }));
      } else if (mode === "strobe") {
        const wrap = framed(c.reference, "Reference", c);
        const img = wrap.firstChild;
        img.id = "strobe";
        const label = el("figcaption", { textContent: "Reference", id: "strobeLabel" });
        let showingRender = false;
        strobeTimer = setInterval(() => {
          showingRender = !showingRender;
          img.src = showingRender ? c.actual : c.reference;
          img.alt = label.textContent = showingRender ? "Render" : "Reference";
        }, 500);
        view.replaceChildren(el("div", { className: "strobe" }, wrap, label));
      } else if (mode === "zoom") {
        zoomView(c, view);
      } else if (mode === "overlay") {
        const base = el("img", { src: c.actual, alt: "Render", className: "dim" });
        const top = el("img", { className: "top", src: c.overlay, alt: "Differing pixels" });
        const extra = c.changeBox && c.size ? [box("change", c.changeBox, c.size)] : [];
        const wrap = el("div", { className: "framed overlay", id: "overlay" }, base, top, ...masks(c), ...extra);
        const dim = el("input", { type: "checkbox", id: "dim", checked: true });
        dim.addEventListener("change", () => base.classList.toggle("dim", dim.checked));
        const shown = el("input", { type: "checkbox", id: "showOverlay", checked: true });
        shown.addEventListener("change", () => { top.hidden = !shown.checked; });
        const controls = el("div", { className: "legend" },
          el("label", {}, shown, " Differing pixels (red: counted; amber: left out as anti-aliasing)"),
          el("label", {}, dim, " Dim the render"));
        legend.push("Red frame: where the counted differences are.");
        view.replaceChildren(wrap, controls, el("p", { className: "legend", textContent: legend.join(" ") }));
      }
    }
    function zoomView(c, view) {
      const sources = [[c.reference, "Reference"], [c.actual, "Render"], [c.difference, "Difference"]]
        .filter((s) => s[0]);
      const images = sources.map((s) => el("img", { src: s[0] }));
      const canvases = sources.map(() => el("canvas", { width: 264, height: 264 }));
      const caption = el("figcaption", { textContent: "Click a picture to centre the zoom (x12, one square a pixel)" });
      const cell = 12, span = 22;
      function draw() {
        const first = images[0];
        if (!zoomCentre) zoomCentre = { x: first.naturalWidth >> 1, y: first.naturalHeight >> 1 };
        const x0 = zoomCentre.x - (span >> 1), y0 = zoomCentre.y - (span >> 1);
        canvases.forEach((canvas, i) => {
          const g = canvas.getContext("2d");
          g.imageSmoothingEnabled = false;
          g.clearRect(0, 0, canvas.width, canvas.height);
          g.drawImage(images[i], x0, y0, span, span, 0, 0, span * cell, span * cell);
          g.strokeStyle = "rgba(128,128,128,0.5)";
          g.lineWidth = 1;
          for (let k = 0; k <= span; k++) {
            g.beginPath(); g.moveTo(k * cell + 0.5, 0); g.lineTo(k * cell + 0.5, span * cell); g.stroke();
            g.beginPath(); g.moveTo(0, k * cell + 0.5); g.lineTo(span * cell, k * cell + 0.5); g.stroke();
          }
          g.strokeStyle = "#ff00ff";
          for (const m of c.masks || []) {
            g.strokeRect((m[0] - x0) * cell + 0.5, (m[1] - y0) * cell + 0.5, m[2] * cell, m[3] * cell);
          }
          g.strokeStyle = "#0a84ff";
          g.strokeRect((span >> 1) * cell + 0.5, (span >> 1) * cell + 0.5, cell, cell);
        });
        caption.textContent = "Pixel (" + zoomCentre.x + ", " + zoomCentre.y + "), x12; click a picture to move";
      }
      let loaded = 0;
      images.forEach((img) => img.addEventListener("load", () => { if (++loaded === images.length) draw(); }));
      canvases.forEach((canvas) => canvas.addEventListener("click", (e) => {
        const r = canvas.getBoundingClientRect();
        zoomCentre = { x: zoomCentre.x + Math.floor((e.clientX - r.left) / cell) - (span >> 1),
                       y: zoomCentre.y + Math.floor((e.clientY - r.top) / cell) - (span >> 1) };
        draw();
      }));
      const figures = canvases.map((canvas, i) => el("figure", {}, canvas, el("figcaption", { textContent: sources[i][1] })));
      view.replaceChildren(el("div", { className: "zoom" }, ...figures), caption);
    }
    // Copies a command: the Clipboard API where the page may use it, else a
    // selected text area and the copy command (pages opened from file://).
    async function copy(button) {
      const text = $(button.dataset.copy).textContent;
      const focused = document.activeElement;
      let done = false;
      try {
        await navigator.clipboard.writeText(text);
        done = true;
      } catch (error) {
        const area = el("textarea", { value: text });
        area.style.position = "fixed";
        area.style.opacity = "0";
        document.body.append(area);
        area.select();
        done = document.execCommand("copy");
        area.remove();
        if (focused && focused.focus) focused.focus({ preventScroll: true });
      }
      button.textContent = done ? "Copied" : "Select and copy";
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    }
    const sliderKeys = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);
    document.addEventListener("keydown", (e) => {
      const t = e.target;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const open = !$("inspector").hidden;
      // Typing goes to the search field; Escape or Enter leaves it.
      if (t instanceof HTMLInputElement && t.type === "search") {
        if (e.key === "Escape" || e.key === "Enter") {
          t.blur();
          if (visible.length) select(selected < 0 ? 0 : selected);
          e.preventDefault();
        }
        return;
      }
      if (t instanceof HTMLSelectElement && e.key !== "Escape") return;
      // A slider keeps its arrows, a button or checkbox its Enter and space; every other key works as anywhere.
      if (t instanceof HTMLInputElement && t.type === "range" && sliderKeys.has(e.key)) return;
      if ((t instanceof HTMLButtonElement || t instanceof HTMLInputElement) && (e.key === "Enter" || e.key === " ")) return;
      if (e.key === "Escape" && open) { closeCase(); e.preventDefault(); return; }
      if (e.key === "/") { $("search").focus(); e.preventDefault(); }
      else if (e.key === "j" || e.key === "ArrowDown") { move(1); e.preventDefault(); }
      else if (e.key === "k" || e.key === "ArrowUp") { move(-1); e.preventDefault(); }
      else if (e.key === "Enter" && !open) { openCase(); e.preventDefault(); }
      else if (open && ["1", "2", "3", "4", "5"].includes(e.key)) {
        const button = document.querySelector('.bar button[data-mode="' + modes[Number(e.key) - 1] + '"]');
        if (!button.disabled) show(modes[Number(e.key) - 1]);
        e.preventDefault();
      }
    });
    function start() {
      data = JSON.parse($("data").textContent);
      cases = (data.cases || []).slice();
      // Cases appended after the page (the snapshot strategy's): a piece cut short is left out.
      for (const script of document.querySelectorAll('script.case[type="application/json"]')) {
        try { cases.push(JSON.parse(script.textContent)); } catch (error) { /* cut short: left out */ }
      }
      cases.forEach((c, i) => { c.order = i; });
      if (data.title) { document.title = data.title; $("heading").textContent = data.title; }
      const n = counts(true);
      filter = n.failed > 0 ? "failed" : n.new > 0 ? "new" : n.error > 0 ? "error" : "all";
      for (const b of document.querySelectorAll("#filters button")) {
        b.addEventListener("click", () => { filter = b.dataset.filter; renderCards(); });
      }
      for (const b of document.querySelectorAll(".bar button[data-mode]")) {
        b.addEventListener("click", () => show(b.dataset.mode));
      }
      document.addEventListener("click", (e) => {
        const b = e.target instanceof Element && e.target.closest("button.copy");
        if (b) copy(b);
      });
      $("search").addEventListener("input", () => { query = $("search").value.trim().toLowerCase(); renderCards(); });
      for (const id of ["sort", "group"]) {
        $(id).addEventListener("change", () => {
          sortKey = $("sort").value;
          groupKey = $("group").value;
          renderCards();
          $(id).blur();
        });
      }
      $("prev").addEventListener("click", () => move(-1));
      $("next").addEventListener("click", () => move(1));
      $("close").addEventListener("click", closeCase);
      summary();
      runInfo();
      renderCards();
      const wanted = decodeURIComponent((location.hash.match(/^#case=(.*)$/) || [])[1] || "");
      if (wanted) {
        let i = visible.findIndex((c) => c.name === wanted);
        if (i < 0) { filter = "all"; renderCards(); i = visible.findIndex((c) => c.name === wanted); }
        if (i >= 0) { select(i); openCase(); }
      }
    }
    document.addEventListener("DOMContentLoaded", start);
    </script>

    """#
}
