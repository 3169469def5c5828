extension GoldenHTMLReport {
  /// The page, its style and script inline; `@DATA@` is replaced by the cases
  /// as JSON. Only relative paths to the folder's own images: nothing leaves it.
  static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>glass-gpu goldens</title>
    <style>
    :root { color-scheme: light dark; --fail: #d70015; --new: #0a84ff; --pass: #248a3d; --error: #b25000;
      --line: #8884; --card: #8881; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    body { margin: 0; }
    header { position: sticky; top: 0; z-index: 2; padding: 12px 20px; background: Canvas; border-bottom: 1px solid var(--line); }
    h1 { font-size: 18px; margin: 0 0 4px; }
    #summary span { margin-right: 14px; }
    #summary .failed { color: var(--fail); } #summary .new { color: var(--new); }
    #summary .passed { color: var(--pass); } #summary .error { color: var(--error); }
    nav button, .bar button { font: inherit; padding: 4px 10px; margin: 6px 6px 0 0; border: 1px solid var(--line);
      border-radius: 6px; background: var(--card); color: inherit; cursor: pointer; }
    nav button[aria-pressed="true"], .bar button[aria-pressed="true"] { background: var(--new); color: white; }
    #cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; padding: 16px 20px; }
    .card { border: 1px solid var(--line); border-radius: 10px; padding: 8px; background: var(--card); cursor: pointer;
      content-visibility: auto; contain-intrinsic-size: 260px 230px; }
    .card:focus, .card.selected { outline: 3px solid var(--new); outline-offset: 1px; }
    .card .thumb { display: block; width: 240px; height: 150px; object-fit: contain; background: #8882; margin: 0 auto 6px; }
    .card h2 { font-size: 13px; margin: 0; word-break: break-all; }
    .badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 4px; color: white; margin-right: 6px; }
    .badge.failed { background: var(--fail); } .badge.new { background: var(--new); }
    .badge.passed { background: var(--pass); } .badge.error { background: var(--error); }
    .numbers { font-size: 12px; opacity: 0.8; }
    #inspector { position: fixed; inset: 0; z-index: 3; background: Canvas; overflow: auto; padding: 12px 20px; }
    #inspector[hidden] { display: none; }
    #view { margin-top: 12px; }
    .side { display: flex; gap: 12px; flex-wrap: wrap; }
    .side figure { margin: 0; }
    .side img { min-width: min(360px, 31vw); max-width: 31vw; image-rendering: pixelated; border: 1px solid var(--line); }
    figcaption { font-size: 12px; opacity: 0.8; }
    .swipe { position: relative; display: inline-block; border: 1px solid var(--line); }
    .swipe img { display: block; min-width: min(640px, 90vw); max-width: 90vw; image-rendering: pixelated; }
    .swipe img.top { position: absolute; inset: 0; width: 100%; height: 100%; }
    .swipe .split { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--new); pointer-events: none; }
    #split { width: min(90vw, 600px); display: block; margin-top: 8px; }
    .strobe img { min-width: min(640px, 90vw); max-width: 90vw; image-rendering: pixelated; border: 1px solid var(--line); }
    .zoom { display: flex; gap: 12px; flex-wrap: wrap; }
    .zoom canvas { border: 1px solid var(--line); cursor: crosshair; image-rendering: pixelated; }
    pre { white-space: pre-wrap; background: var(--card); padding: 8px; border-radius: 6px; }
    .message { white-space: pre-wrap; font-size: 12px; }
    </style>
    </head>
    <body>
    <header>
    <h1>glass-gpu goldens</h1>
    <div id="summary"></div>
    <nav id="filters" aria-label="Filter cases">
    <button data-filter="failed">Failed</button><button data-filter="new">New</button><button data-filter="error">Errors</button><button data-filter="all">All</button>
    <span class="keys">j / k or arrows: move · Enter: open · 1–4: mode · Esc: close</span>
    </nav>
    </header>
    <main id="cards"></main>
    <section id="inspector" hidden>
    <div class="bar"><strong id="title"></strong><br>
    <button data-mode="side">1 Side by side</button><button data-mode="slider">2 Slider</button><button data-mode="strobe">3 Strobe</button><button data-mode="zoom">4 Zoom</button><button id="close">Esc Close</button></div>
    <div id="numbers" class="numbers"></div>
    <div id="view"></div>
    <div id="message" class="message"></div>
    <div id="acceptBox" hidden><p>Accept this change (re-record its reference):</p><pre id="accept"></pre></div>
    </section>
    <script type="application/json" id="data">@DATA@</script>
    <script>
    "use strict";
    const data = JSON.parse(document.getElementById("data").textContent);
    const $ = (id) => document.getElementById(id);
    const counts = { failed: data.summary.failed, new: data.summary.new, error: data.summary.errors,
      all: data.cases.length };
    let filter = data.summary.failed > 0 ? "failed" : data.summary.new > 0 ? "new" : "all";
    let visible = [];
    let selected = -1;
    let mode = "side";
    let strobeTimer = null;
    let zoomCentre = null;

    function el(tag, props, ...children) {
      const e = document.createElement(tag);
      Object.assign(e, props || {});
      for (const c of children) e.append(c);
      return e;
    }
    function numbers(c) {
      const parts = [];
      if (c.maxDifference !== undefined) parts.push("max " + c.maxDifference + "/255");
      if (c.shareOverOne !== undefined) parts.push((100 * c.shareOverOne).toFixed(3) + " % over 1/255");
      if (c.psnr !== undefined) parts.push("PSNR " + (c.psnr === null ? "∞" : c.psnr + " dB"));
      if (c.deltaE !== undefined) parts.push("ΔE " + c.deltaE);
      if (c.ignored) parts.push(c.ignored + " px left out");
      parts.push(c.seconds + " s");
      return parts.join(" · ");
    }
    function summary() {
      const s = data.summary;
      $("summary").replaceChildren(
        el("span", { className: "passed", textContent: s.passed + " passed" }),
        el("span", { className: "failed", textContent: s.failed + " failed" }),
        el("span", { className: "new", textContent: s.new + " new" }),
        el("span", { className: "error", textContent: s.errors + " errors" }),
        el("span", { textContent: s.seconds + " s on " + s.backend + ", " + s.when }));
    }
    function matches(c) { return filter === "all" || c.status === filter; }
    function renderCards() {
      visible = data.cases.filter(matches);
      const fragment = document.createDocumentFragment();
      visible.forEach((c, i) => {
        const card = el("article", { className: "card " + c.status, tabIndex: 0 });
        card.dataset.index = String(i);
        card.dataset.name = c.name;
        if (c.thumb) {
          const img = el("img", { className: "thumb", loading: "lazy", alt: c.name, src: c.thumb });
          card.append(img);
        }
        card.append(el("h2", {}, el("span", { className: "badge " + c.status, textContent: c.status }), c.name));
        card.append(el("div", { className: "numbers", textContent: numbers(c) }));
        card.addEventListener("click", () => { select(i); openCase(); });
        fragment.append(card);
      });
      $("cards").replaceChildren(fragment);
      for (const b of document.querySelectorAll("#filters button")) {
        b.setAttribute("aria-pressed", String(b.dataset.filter === filter));
        b.textContent = b.textContent.replace(/ \(\d+\)$/, "") + " (" + counts[b.dataset.filter] + ")";
      }
      selected = -1;
      if (visible.length) select(0, false);
    }
    function select(i, scroll = true) {
      const cards = $("cards").children;
      if (selected >= 0 && cards[selected]) cards[selected].classList.remove("selected");
      selected = Math.max(0, Math.min(i, visible.length - 1));
      const card = cards[selected];
      if (!card) return;
      card.classList.add("selected");
      if (scroll) { card.focus({ preventScroll: true }); card.scrollIntoView({ block: "nearest" }); }
    }
    function stopStrobe() { if (strobeTimer) { clearInterval(strobeTimer); strobeTimer = null; } }
    function openCase() {
      const c = visible[selected];
      if (!c) return;
      $("inspector").hidden = false;
      $("title").textContent = c.name + " — " + c.status;
      $("numbers").textContent = numbers(c);
      $("message").textContent = c.message || "";
      $("acceptBox").hidden = !c.accept;
      $("accept").textContent = c.accept || "";
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
    function figure(src, caption) {
      return el("figure", {}, el("img", { src, alt: caption }), el("figcaption", { textContent: caption }));
    }
    function show(m) {
      const c = visible[selected];
      if (!c) return;
      mode = m;
      stopStrobe();
      for (const b of document.querySelectorAll(".bar button[data-mode]")) {
        b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
        b.disabled = b.dataset.mode !== "side" && !(c.reference && c.actual);
      }
      const view = $("view");
      if (mode === "side" || !(c.reference && c.actual)) {
        const side = el("div", { className: "side" });
        if (c.reference) side.append(figure(c.reference, "Reference"));
        if (c.actual) side.append(figure(c.actual, "Render"));
        if (c.difference) side.append(figure(c.difference, "Difference (x16)"));
        if (!side.children.length) side.append(el("p", { textContent: "No image: " + (c.message || c.status) }));
        view.replaceChildren(side);
      } else if (mode === "slider") {
        const base = el("img", { src: c.reference, alt: "Reference" });
        const top = el("img", { className: "top", src: c.actual, alt: "Render" });
        const line = el("div", { className: "split" });
        const box = el("div", { className: "swipe", id: "swipe" }, base, top, line);
        const range = el("input", { type: "range", min: 0, max: 100, value: 50, id: "split" });
        range.setAttribute("aria-label", "Split between reference (left) and render (right)");
        const place = () => {
          top.style.clipPath = "inset(0 0 0 " + range.value + "%)";
          line.style.left = range.value + "%";
        };
        range.addEventListener("input", place);
        place();
        view.replaceChildren(box, range, el("figcaption", { textContent: "Left: reference · right: render" }));
      } else if (mode === "strobe") {
        const img = el("img", { src: c.reference, alt: "Reference", id: "strobe" });
        const label = el("figcaption", { textContent: "Reference", id: "strobeLabel" });
        let showingRender = false;
        strobeTimer = setInterval(() => {
          showingRender = !showingRender;
          img.src = showingRender ? c.actual : c.reference;
          img.alt = label.textContent = showingRender ? "Render" : "Reference";
        }, 500);
        view.replaceChildren(el("div", { className: "strobe" }, img, label));
      } else if (mode === "zoom") {
        zoomView(c, view);
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
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement && e.key !== "Escape") return;
      const open = !$("inspector").hidden;
      if (e.key === "Escape" && open) { closeCase(); e.preventDefault(); return; }
      if (e.key === "j" || e.key === "ArrowDown") { select(selected + 1); if (open) openCase(); e.preventDefault(); }
      else if (e.key === "k" || e.key === "ArrowUp") { select(selected - 1); if (open) openCase(); e.preventDefault(); }
      else if (e.key === "Enter" && !open) { openCase(); e.preventDefault(); }
      else if (open && ["1", "2", "3", "4"].includes(e.key)) {
        show(["side", "slider", "strobe", "zoom"][Number(e.key) - 1]);
      }
    });
    for (const b of document.querySelectorAll("#filters button")) {
      b.addEventListener("click", () => { filter = b.dataset.filter; renderCards(); });
    }
    for (const b of document.querySelectorAll(".bar button[data-mode]")) {
      b.addEventListener("click", () => show(b.dataset.mode));
    }
    $("close").addEventListener("click", closeCase);
    summary();
    renderCards();
    const wanted = decodeURIComponent((location.hash.match(/^#case=(.*)$/) || [])[1] || "");
    if (wanted) {
      let i = visible.findIndex((c) => c.name === wanted);
      if (i < 0) { filter = "all"; renderCards(); i = visible.findIndex((c) => c.name === wanted); }
      if (i >= 0) { select(i); openCase(); }
    }
    </script>
    </body>
    </html>

    """#
}
