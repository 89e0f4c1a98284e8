// bjsolve web pages: re-ask the server when a field changes (no Calculate button).
// Our own small script, shipped with the package: nothing is fetched from elsewhere.
"use strict";

(function () {
  const page = document.body.dataset.page;          // edge, hand, counting or simulate
  const rulesForm = document.getElementById("rules-form");
  const pageForm = document.getElementById("page-form");
  const status = document.getElementById("status");
  const DEBOUNCE_MS = 120;
  let timer = null;
  let latest = 0;                                    // number of the newest request
  let summaryMode = false;                           // the summary box was edited last
  const edits = new WeakMap();                       // field -> how often the user typed in it

  function controls(form) {
    return form ? Array.from(form.elements).filter((el) => el.name) : [];
  }

  // The query for the server: the summary, and the rule fields one by one unless the
  // summary was typed (or a preset picked) last.  The fields override the summary's
  // classic rules; the summary keeps the games' rules (P22, RDx3, ...) that have no field.
  function query() {
    const q = new URLSearchParams();
    for (const el of controls(rulesForm)) {
      if (el.name === "rules") {
        q.set("rules", el.value);
      } else if (el.name === "split") {
        q.set("split", el.value);
      } else if (!summaryMode) {
        q.set(el.name, el.type === "checkbox" ? (el.checked ? "1" : "0") : el.value);
      }
    }
    for (const el of controls(pageForm)) q.set(el.name, el.value);
    return q.toString();
  }

  function showErrors(errors) {
    for (const span of document.querySelectorAll("[data-error-for]")) {
      span.textContent = errors[span.dataset.errorFor] || "";
    }
    document.getElementById("results").classList.toggle("stale", Object.keys(errors).length > 0);
  }

  // the fields' values, but none the user has typed into since the request left (nor the
  // one with the caret)
  function showFields(fields, summary, editsThen) {
    for (const el of controls(rulesForm)) {
      if (el === document.activeElement || (edits.get(el) || 0) !== editsThen.get(el)) continue;
      if (el.name === "rules") el.value = summary;
      else if (el.name in fields) {
        if (el.type === "checkbox") el.checked = fields[el.name] === "1";
        else el.value = fields[el.name];
      }
    }
  }

  function showLinks(search) {
    history.replaceState(null, "", location.pathname + search);
    for (const a of document.querySelectorAll("[data-nav]")) {
      a.href = (a.dataset.nav === "edge" ? "/" : "/" + a.dataset.nav) + search;
    }
    for (const a of document.querySelectorAll("[data-download]")) {
      a.href = "/download/" + a.dataset.download + search;
    }
  }

  // the preset list shows the preset the rules are exactly, else "custom"
  const presetList = document.getElementById("f-preset");
  function showPreset(summaryText) {
    if (!presetList) return;
    const match = Array.from(presetList.options).find((o) => o.value && o.dataset.summary === summaryText);
    presetList.value = match ? match.value : "";
  }

  function fill(fragments) {
    for (const [name, html] of Object.entries(fragments)) {
      const box = document.getElementById("out-" + name);
      if (box) box.innerHTML = html;
    }
  }

  // this page's name for the server: a counted game that only this page's older requests
  // wait for is stopped when a newer one arrives (see compute.counted_game)
  const client = Math.random().toString(36).slice(2) + Date.now().toString(36);

  async function ask(view, q) {
    const own = view === "counting" ? "&client=" + client : "";
    const response = await fetch("/api/" + view + "?" + q + own);
    return response.json();
  }

  // a text field left empty is being typed into: wait for its value
  function incomplete() {
    return controls(rulesForm).concat(controls(pageForm)).some((el) =>
      (el.tagName === "TEXTAREA" ? summaryMode : el.type === "text" && !summaryMode)
      && !el.dataset.optional && el.value.trim() === "");   // an optional field may be empty
  }

  let lastQuery = null;                              // the query of the newest request

  async function update() {
    if (incomplete()) return;
    clearTimeout(timer);                             // asked now: no need to ask again
    if (page === "simulate") {                      // a run starts only on its button
      showLinks("?" + query());
      return;
    }
    const number = ++latest;
    const q = query();
    lastQuery = q;
    const editsThen = new Map(controls(rulesForm).map((el) => [el, edits.get(el) || 0]));
    const slow = setTimeout(() => {
      status.textContent = page === "counting" ? "computing the counted game (up to a minute)..."
                                               : "computing...";
    }, 250);
    try {
      const answer = await ask(page, q);
      clearTimeout(slow);
      if (number !== latest) return;                // a newer request is on its way
      status.textContent = "";
      showErrors(answer.errors || {});
      if (answer.errors && Object.keys(answer.errors).length) return;
      summaryMode = false;
      fill(answer.html);
      showFields(answer.fields, answer.summary, editsThen);
      showLinks(answer.query);
      document.body.dataset.summary = answer.summary;
      showPreset(answer.summary);
      if (page === "edge") loadExceptions(answer.query.slice(1), number);
    } catch (err) {
      clearTimeout(slow);
      if (number === latest) status.textContent = "no answer from the server: " + err;
    }
  }

  // the chart's exceptions take longer than the chart: asked for once it is shown
  async function loadExceptions(q, number) {
    const box = document.getElementById("out-exceptions");
    if (!box) return;
    try {
      const answer = await ask("exceptions", q);
      if (number !== latest) return;
      // bad rules are reported beside their fields already: nothing to show here then
      box.innerHTML = answer.html ? answer.html.exceptions : "";
    } catch (err) {
      if (number === latest) box.textContent = "no answer from the server: " + err;
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  }

  rulesForm.addEventListener("change", (ev) => {
    if (ev.target === presetList) {
      // a preset fills the panel: its summary is sent, the answer fills the fields
      const chosen = presetList.selectedOptions[0];
      if (!chosen || !chosen.value) return;           // "custom": nothing to fill
      summary.value = chosen.dataset.summary;
      edits.set(summary, (edits.get(summary) || 0) + 1);
      summaryMode = true;
      update();
      return;
    }
    edits.set(ev.target, (edits.get(ev.target) || 0) + 1);
    if (ev.target.name === "rules") return;          // the summary applies on Enter or leaving it
    summaryMode = false;
    // a tick box or a list is one deliberate change: ask at once (typing waits for a pause)
    if (ev.target.type === "checkbox" || ev.target.tagName === "SELECT") update();
    else later();
  });
  rulesForm.addEventListener("input", (ev) => {
    edits.set(ev.target, (edits.get(ev.target) || 0) + 1);
    if (ev.target.name === "decks" || ev.target.name === "payout") { summaryMode = false; later(); }
  });
  const summary = document.getElementById("f-rules");
  summary.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); summaryMode = true; update(); }
  });
  summary.addEventListener("change", () => { summaryMode = true; update(); });

  if (pageForm) {
    pageForm.addEventListener("change", (ev) => {
      // a list is one deliberate change; Enter in (or leaving) a typed field on the
      // Counting page applies it at once, without the pause typing waits for
      if (ev.target.tagName === "SELECT") update();
      else if (page === "counting" && query() !== lastQuery) update();
    });
  }
  if (pageForm && page === "counting") {
    pageForm.addEventListener("input", later);
    if (pageForm.dataset.autoload) update();        // the game was not ready when the page came
  }

  if (pageForm && page === "hand") {
    const hand = document.getElementById("f-hand");
    hand.addEventListener("input", later);
    const parts = () => {
      const m = hand.value.split(/\s+vs?\.?\s+/i);
      return [m[0] || "", m[1] || ""];
    };
    for (const b of pageForm.querySelectorAll("button[data-player]")) {
      b.addEventListener("click", () => {
        const [player, dealer] = parts();
        const cards = player.replace(/\s+/g, "") + b.dataset.player;
        hand.value = cards + " v " + dealer;
        if (cards.length >= 2) later();              // one card is no hand yet: wait
      });
    }
    for (const b of pageForm.querySelectorAll("button[data-dealer]")) {
      b.addEventListener("click", () => {
        // the exposed game shows both dealer cards: a second click adds the second one
        const holeCard = rulesForm && rulesForm.elements.namedItem("hole_card");
        const dealer = parts()[1].trim();
        const second = holeCard && holeCard.value === "exposed"
          && dealer.replace(/[\s,]+/g, "").replace(/10/g, "T").length === 1;
        hand.value = parts()[0] + " v " + (second ? dealer + " " : "") + b.dataset.dealer;
        later();
      });
    }
    pageForm.querySelector("[data-clear]").addEventListener("click", () => {
      hand.value = " v " + parts()[1];
      showErrors({});
    });
  }

  // An index file (Counting and Simulate): the page reads its text and posts it; the server
  // checks it with the library's parser and keeps it under a hash of its content, and that
  // key ("file:...") joins the list of index plays, so the link carries it. A file refused
  // leaves the list as it was and puts the parser's message beside the field.
  const indexFile = document.getElementById("f-index-file");
  if (indexFile) {
    indexFile.addEventListener("input", (ev) => ev.stopPropagation());  // not in the query
    indexFile.addEventListener("change", async (ev) => {
      ev.stopPropagation();
      const file = indexFile.files[0];
      if (!file) return;
      const errorBox = document.querySelector('[data-error-for="indices"]');
      try {
        const response = await fetch("/api/indices", {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({name: file.name, text: await file.text()})});
        const answer = await response.json();
        indexFile.value = "";                        // the same file chosen again is read again
        if (!answer.indices) {
          errorBox.textContent = (answer.errors || {}).indices || "the index file was refused";
          return;
        }
        errorBox.textContent = "";
        const select = document.getElementById("f-indices");
        if (!Array.from(select.options).some((o) => o.value === answer.indices)) {
          select.add(new Option(answer.label, answer.indices));
        }
        select.value = answer.indices;
        update();
      } catch (err) {
        errorBox.textContent = "the index file was not sent: " + err;
      }
    });
  }

  if (page === "edge") loadExceptions(location.search.slice(1), latest);

  // The Simulate page: Run starts a job on the server, the bar follows it (a poll every
  // quarter second), Stop asks the server to stop it and keeps the rounds played so far.
  if (page === "simulate") {
    const startButton = document.getElementById("sim-start");
    const stopButton = document.getElementById("sim-stop");
    const bar = document.getElementById("sim-progress");
    const doneText = document.getElementById("sim-done");
    const POLL_MS = 250;
    let job = null;

    pageForm.addEventListener("input", later);

    function show(answer) {
      const running = answer.state === "queued" || answer.state === "running";
      bar.max = answer.total;
      bar.value = answer.done;
      const words = {queued: "waiting for the run before it", running: "running",
                     done: "done", stopped: "stopped: PARTIAL", error: "failed"};
      doneText.textContent = answer.done.toLocaleString("en") + " / "
        + answer.total.toLocaleString("en") + " rounds, " + (words[answer.state] || "");
      startButton.disabled = running;
      stopButton.disabled = !running;
      if (answer.html && Object.keys(answer.html).length) fill(answer.html);
      if (answer.errors && Object.keys(answer.errors).length) showErrors(answer.errors);
      if (!running) {
        status.textContent = "";
        for (const a of document.querySelectorAll("[data-download]")) {
          const url = new URL(a.href);
          url.searchParams.set("job", answer.job);
          a.href = url.pathname + url.search;
        }
      }
      return running;
    }

    async function poll(id) {
      if (id !== job) return;                        // a newer run replaced this one
      try {
        const response = await fetch("/api/simulate/" + id);
        if (show(await response.json())) setTimeout(() => poll(id), POLL_MS);
      } catch (err) {
        status.textContent = "no answer from the server: " + err;
      }
    }

    startButton.addEventListener("click", async () => {
      if (incomplete()) return;
      try {
        const response = await fetch("/api/simulate?" + query(), {method: "POST"});
        const answer = await response.json();
        showErrors(answer.errors || {});
        if (!answer.job) return;
        summaryMode = false;
        showFields(answer.fields, answer.summary,
                   new Map(controls(rulesForm).map((el) => [el, edits.get(el) || 0])));
        showLinks(answer.query);
        showPreset(answer.summary);
        job = answer.job;
        status.textContent = "simulating...";
        if (show(answer)) setTimeout(() => poll(answer.job), POLL_MS);
      } catch (err) {
        status.textContent = "no answer from the server: " + err;
      }
    });

    stopButton.addEventListener("click", async () => {
      if (!job) return;
      stopButton.disabled = true;
      await fetch("/api/simulate/" + job + "/stop", {method: "POST"});  // the poll shows it
    });
  }
})();
