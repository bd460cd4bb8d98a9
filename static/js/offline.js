// Never lose a turn to the network. The scorer page's turns are sent by fetch, each with an
// Idempotency-Key (made once per tapped turn and kept with it) and its expected turn, so a
// retry after a lost answer is entered once. A play that can't reach the server waits in this
// browser (localStorage, per game), drawn on the board, and is sent when the connection
// returns, in order, each with its own key and turn number; a reload keeps it. If the server
// refuses one, sending stops, and the page shows the refusal with that play back in the entry
// area (as a refused form does); the plays behind it stay here until sent or discarded. Other
// actions are refused offline with a sentence. Without this script the forms post as always.
// A service worker (/sw.js) keeps the page and its files, so a reload offline shows the page
// as it was last loaded, with the plays waiting here drawn on it.
(function () {
  "use strict";

  const page = document.querySelector(".scorer-page[data-turn-url]");
  if (!page) return;
  const game = page.dataset.game;
  const turnUrl = page.dataset.turnUrl;
  const nextTurn = Number(page.dataset.nextTurn);
  const banner = document.getElementById("waiting");
  const alertLine = document.getElementById("offline-say");
  const input = document.getElementById("play-input");
  const directionField = document.getElementById("play-direction");
  const STORE = "scorekeeper:waiting:" + game; // {queue: [...], held: [...]}
  const DRAFT = "scorekeeper:draft:" + game; // a play being tapped when the page reloaded
  const BACKOFF = [2, 4, 8, 16, 30, 60]; // seconds between tries while the server is out of reach
  // What each action is called in "You are offline: … can't wait".
  const OFFLINE_NAMES = {
    pass: "passes",
    exchange: "exchanges",
    challenge: "challenges",
    undo: "undoing a turn",
    finish: "finishing the game",
    clock: "the clock",
  };

  // Each waiting play: {key, expected, play, direction, rack, tiles: [[row, col, tile]]}; in
  // a clocked game also clock (the readings when it was played: {ms, at}) and clock_after
  // (the clocks after it, shown here until the server has it).
  let queue = [];
  let held = []; // plays that waited behind a refused one: sent only when the scorer says so
  let sending = false;
  let tries = 0;
  let timer = null;
  let failure = ""; // why the last try did not get through

  function load() {
    try {
      const stored = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      queue = Array.isArray(stored.queue) ? stored.queue : [];
      held = Array.isArray(stored.held) ? stored.held : [];
    } catch (error) {
      queue = [];
      held = [];
    }
  }

  function save() {
    try {
      if (queue.length || held.length) {
        window.localStorage.setItem(STORE, JSON.stringify({ queue: queue, held: held }));
      } else {
        window.localStorage.removeItem(STORE);
      }
    } catch (error) {
      // No storage (a private window's quota): the plays still wait for as long as the page.
    }
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function turns(n) { return n + (n === 1 ? " turn" : " turns"); }
  function plays(items) { return items.map(function (i) { return i.play; }).join(", "); }

  function button(label, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small";
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  // A sentence ending in a play that ends on a board letter ("D4 GLIT..") keeps its own dots.
  function stop(sentence) {
    return sentence.endsWith(".") ? sentence : sentence + ".";
  }

  // The line in the score bar: offline, what waits, and what can be done about it.
  function show() {
    if (!banner) return;
    const offline = !navigator.onLine;
    const text = document.createElement("span");
    const parts = [];
    const controls = [];
    if (queue.length) {
      const waiting = stop(turns(queue.length) + " waiting to be sent: " + plays(queue));
      if (sending) parts.push("Sending " + turns(queue.length) + " that waited: " + plays(queue) + "…");
      else if (offline) parts.push("Offline — " + waiting);
      else {
        parts.push("Can't reach the server — " + waiting + (failure ? " " + failure : "") +
                   " It tries again by itself.");
        controls.push(button("Send now", function () { retry(); }));
      }
    } else if (offline) {
      parts.push("Offline — a play you submit waits here and is sent when the connection returns.");
    }
    if (held.length) {
      parts.push(stop("Kept here, not sent: " + plays(held)));
      controls.push(button("Send " + (held.length === 1 ? "it" : "them") + " next", sendHeld));
      controls.push(button("Discard", discardHeld));
    }
    // The page's challenge is of the last play the server has: a play waiting here comes
    // after it, so the challenge would no longer be about the play it names.
    page.querySelectorAll("button[form=challenge-form]").forEach(function (b) {
      b.hidden = queue.length > 0;
    });
    text.textContent = parts.join(" ");
    banner.replaceChildren(text);
    controls.forEach(function (c) { banner.appendChild(c); });
    banner.hidden = parts.length === 0;
  }

  function say(text) {
    if (!alertLine) return;
    alertLine.textContent = text;
    alertLine.hidden = !text;
  }

  // Waiting plays are drawn on the board as tiles (so the next play can build on them), marked.
  function draw() {
    queue.concat(held).forEach(function (item) {
      (item.tiles || []).forEach(function ([row, col, tile]) {
        const sq = page.querySelector('button.sq[data-row="' + row + '"][data-col="' + col + '"]');
        if (!sq || sq.classList.contains("waiting")) return;
        const letter = tile === "Qu" ? "Qu" : tile.toUpperCase();
        const height = Number(sq.dataset.height || 0) + 1;
        sq.querySelectorAll(".letter, .premium, .val, .height").forEach(function (s) { s.remove(); });
        sq.classList.remove("h" + (height - 1));
        sq.classList.add("filled", "waiting", "h" + height);
        sq.classList.toggle("blank", tile !== "Qu" && tile !== tile.toUpperCase());
        sq.dataset.top = letter;
        sq.dataset.height = String(height);
        const span = document.createElement("span");
        span.className = "letter";
        span.textContent = letter;
        sq.appendChild(span);
        sq.setAttribute("aria-label", sq.dataset.name + ": " + letter + ", waiting to be sent");
      });
    });
  }

  // The tiles tapped for the play being sent, read from the board (a play typed as text has
  // none: it waits all the same, named in the score bar).
  function tapped() {
    return Array.from(page.querySelectorAll("button.sq.pending")).map(function (sq) {
      const shown = sq.querySelector(".letter.new");
      let tile = shown ? shown.textContent : "";
      if (sq.classList.contains("pending-blank")) tile = tile.toLowerCase();
      return [Number(sq.dataset.row), Number(sq.dataset.col), tile];
    }).filter(function (t) { return t[2]; });
  }

  // A play typed as text ("5D MOOD", "G5 .EAR", "E5=A G7=T"), read against the board as
  // board.js reads it (a "." or the letter already on top plays through it): its tiles, or
  // none when it is no such play on this board (it waits all the same, named in the score bar).
  function typedTiles(text) {
    const size = Number(page.dataset.size);
    const stacking = page.dataset.stacks === "1";
    const hasQu = page.dataset.hasQu === "1";
    const hasBlanks = page.dataset.hasBlanks === "1";
    function square(r, c) {
      return page.querySelector('button.sq[data-row="' + r + '"][data-col="' + c + '"]');
    }
    function tileOf(token) {
      return token.length === 2 ? "Qu" : hasBlanks ? token : token.toUpperCase();
    }
    const tokens = text.trim().split(/\s+/);
    if (tokens.every(function (t) { return /^[A-Za-z]\d{1,2}=[A-Za-z]{1,2}$/.test(t); })) {
      const listed = tokens.map(function (t) {
        const [name, tile] = t.split("=");
        const sq = page.querySelector('button.sq[data-name="' + name.toUpperCase() + '"]');
        return sq ? [Number(sq.dataset.row), Number(sq.dataset.col), tileOf(tile)] : null;
      });
      return listed.indexOf(null) >= 0 ? [] : listed;
    }
    if (tokens.length !== 2) return [];
    let m = /^(\d{1,2})([A-Za-z])$/.exec(tokens[0]);
    let r, c, dr, dc;
    if (m) [r, c, dr, dc] = [Number(m[1]) - 1, m[2].toUpperCase().charCodeAt(0) - 65, 0, 1];
    else if ((m = /^([A-Za-z])(\d{1,2})$/.exec(tokens[0]))) {
      [r, c, dr, dc] = [Number(m[2]) - 1, m[1].toUpperCase().charCodeAt(0) - 65, 1, 0];
    } else return [];
    const tiles = [];
    for (const token of tokens[1].match(hasQu ? /qu|./gi : /./g)) {
      const sq = r < size && c < size ? square(r, c) : null;
      if (!sq || !/^(\.|[A-Za-z]{1,2})$/.test(token)) return [];
      const top = sq.dataset.top;
      if (token !== "." && !(top && top.toUpperCase() === token.toUpperCase())) {
        if (top && !stacking) return [];
        tiles.push([r, c, tileOf(token)]);
      }
      r += dr;
      c += dc;
    }
    return tiles;
  }

  function csrf() {
    const field = page.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // One request: {kind: "answer", data} when the server answered the turn, "unreachable"
  // when it could not be reached (or was too busy to take it), "error" otherwise.
  async function post(body, key) {
    let response;
    try {
      response = await fetch(turnUrl, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "application/json", "Idempotency-Key": key, "X-CSRFToken": csrf() },
      });
    } catch (error) {
      return { kind: "unreachable", message: "" };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (response.ok && data && typeof data.entered === "boolean") return { kind: "answer", data: data };
    const message = data && data.error ? data.error.message : "";
    if ([408, 409, 429, 502, 503, 504].indexOf(response.status) >= 0) {
      return { kind: "unreachable", message: message };
    }
    return {
      kind: "error",
      message: message || "The server did not take it (HTTP " + response.status + "): reload the page to see why.",
    };
  }

  // A play's body, the same on every try (the key's answer is kept for the same body only).
  function bodyOf(item) {
    const body = new URLSearchParams();
    body.set("action", "play");
    body.set("expected_turn", String(item.expected));
    body.set("play", item.play);
    body.set("direction", item.direction);
    if (item.rack) body.set("rack", item.rack);
    if (item.clock) {
      body.set("clock_ms", item.clock.ms.join(","));
      body.set("clock_at", String(item.clock.at));
    }
    return body;
  }

  // To the page the answer names. After plays that waited (sent while the scorer may be
  // tapping the next one), a play being tapped comes back in the field there.
  function go(location, keepDraft) {
    if (keepDraft && input && input.value.trim()) {
      try {
        window.sessionStorage.setItem(DRAFT, JSON.stringify({
          play: input.value, direction: directionField ? directionField.value : "across",
        }));
      } catch (error) { /* the play being tapped is lost with the page, as on any reload */ }
    }
    // Leaving: live.js must not load the page again for a turn it hears of now (its own, sent
    // from here), or that second load would find the turn's sentence taken by this one.
    page.dataset.leaving = "1";
    const url = new URL(location, window.location.href);
    if (url.pathname === window.location.pathname && url.search === window.location.search) {
      // The same page again, at the board (#board) as after a form, not where it was left.
      window.history.scrollRestoration = "manual";
      window.history.replaceState(null, "", url.hash || window.location.hash);
      window.location.reload();
    } else {
      window.location.assign(url.href);
    }
  }

  function schedule() {
    window.clearTimeout(timer);
    const seconds = BACKOFF[Math.min(tries, BACKOFF.length - 1)];
    tries += 1;
    timer = window.setTimeout(function () { timer = null; flush(); }, seconds * 1000);
    show();
  }

  function retry() {
    window.clearTimeout(timer);
    timer = null;
    tries = 0;
    flush();
  }

  // The waiting plays, oldest first, one at a time; stops at the first that can't get through.
  async function flush() {
    if (sending || !queue.length) return show();
    if (!navigator.onLine) return show(); // the "online" event sends them
    sending = true;
    show();
    while (queue.length) {
      const item = queue[0];
      const result = await post(bodyOf(item), item.key);
      if (result.kind === "unreachable") {
        sending = false;
        failure = result.message;
        schedule();
        return;
      }
      if (result.kind === "error") {
        // Not entered, and not something a later try would change: it stops here, kept.
        sending = false;
        held = queue.concat(held);
        queue = [];
        save();
        say("Not sent: " + result.message);
        show();
        return;
      }
      queue.shift();
      if (!result.data.entered) {
        // The page shows the refusal with this play back in the field; the rest wait.
        held = queue.concat(held);
        queue = [];
        save();
        go(result.data.location, true);
        return;
      }
      save();
      if (!queue.length) go(result.data.location, true); // what each turn said
    }
  }

  function enqueue(item) {
    // Played now, sent later: the next player's clock runs here from the play's readings.
    if (item.clock && window.tableClock && !item.clock_after) {
      item.clock_after = window.tableClock.afterTurn(item.clock);
    }
    queue.push(item);
    save();
    draw();
    const clear = page.querySelector("button.key[data-key=Clear]");
    if (clear) clear.click(); // the next play starts on a clean field
    if (input && input.value) input.value = "";
    // Across again, as the page is after a play it sent.
    const direction = document.getElementById("direction");
    if (direction && directionField && directionField.value === "down") direction.click();
    const preview = document.getElementById("preview");
    if (preview) preview.replaceChildren();
    say("");
    show();
  }

  function sendHeld() {
    // Numbered after what the page shows and what waits already; new keys, as new requests.
    const base = nextTurn + queue.length;
    held.forEach(function (item, i) {
      item.expected = base + i;
      item.key = newKey();
    });
    queue = queue.concat(held);
    held = [];
    save();
    retry();
  }

  function discardHeld() {
    if (!window.confirm("Discard " + plays(held) + "? " + (held.length === 1 ? "It was" : "They were") +
                        " never entered.")) return;
    held = [];
    save();
    go(window.location.href, true); // the board without them (the field's play stays)
  }

  // While a turn is on its way, every action waits for its answer (board.js makes the form
  // sent wait; the others wait too: the page they were drawn on is about to change).
  function postForms() {
    return Array.from(page.querySelectorAll("form")).filter(function (f) {
      return (f.getAttribute("method") || "").toLowerCase() === "post";
    });
  }

  function busy() {
    postForms().forEach(function (f) {
      Array.from(f.elements).forEach(function (b) {
        if (b.tagName !== "BUTTON" || b.type !== "submit" || b.disabled) return;
        b.disabled = true;
        b.setAttribute("aria-busy", "true");
      });
    });
  }

  // Every action ready again, the one just sent included (after board.js has made it wait).
  function release() {
    window.setTimeout(function () {
      postForms().forEach(function (f) {
        delete f.dataset.sent;
        Array.from(f.elements).forEach(function (b) {
          if (b.tagName !== "BUTTON" || !b.hasAttribute("aria-busy")) return;
          b.disabled = false;
          b.removeAttribute("aria-busy");
        });
      });
    }, 0);
  }

  function offlineSentence(what) {
    return "You are offline: " + what + " can't wait; try again when connected.";
  }

  async function submitPlay(form, data) {
    const item = {
      key: newKey(),
      expected: Number(data.get("expected_turn")),
      play: (data.get("play") || "").trim(),
      direction: data.get("direction") === "down" ? "down" : "across",
      rack: (data.get("rack") || "").trim(),
      tiles: tapped(),
      // The clocks when it was played, not when it is sent.
      clock: window.tableClock ? window.tableClock.reading() : null,
    };
    if (!item.tiles.length && item.play) item.tiles = typedTiles(item.play);
    if (!item.play && (queue.length || !navigator.onLine)) {
      say("Tap or type a play first.");
      release();
      return;
    }
    if (queue.length) {
      // Behind the plays already waiting, numbered after them.
      item.expected = queue[queue.length - 1].expected + 1;
      enqueue(item);
      release();
      retry();
      return;
    }
    if (!navigator.onLine) {
      enqueue(item);
      release();
      return;
    }
    busy();
    const result = await post(bodyOf(item), item.key);
    if (result.kind === "answer") return go(result.data.location);
    if (result.kind === "unreachable" && item.play) {
      // It may have reached the server and only the answer was lost: the same key again.
      failure = result.message;
      enqueue(item);
      release();
      schedule();
      return;
    }
    say("Not entered: " + (result.message || "the server could not be reached. Try again."));
    release();
  }

  async function submitOther(form, data, what) {
    if (queue.length) {
      say(turns(queue.length) + " still " + (queue.length === 1 ? "waits" : "wait") +
          " to be sent, and " + (queue.length === 1 ? "goes" : "go") + " first: try again once " +
          (queue.length === 1 ? "it is" : "they are") + " in.");
      release();
      return;
    }
    if (!navigator.onLine) {
      say(offlineSentence(what));
      release();
      return;
    }
    const clock = window.tableClock ? window.tableClock.reading() : null;
    if (clock) {
      data.set("clock_ms", clock.ms.join(","));
      data.set("clock_at", String(clock.at));
    }
    busy();
    const result = await post(data, newKey());
    if (result.kind === "answer") return go(result.data.location);
    say(result.kind === "unreachable" ? result.message || offlineSentence(what)
                                      : "Not entered: " + result.message);
    release();
  }

  // After board.js's own handler (it asks to confirm, and marks the form as sent): this one
  // listens on the document, so it runs once the form's own listeners have.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    // getAttribute: a form's field named "action" hides the form's own .action property.
    const method = (form.getAttribute("method") || "").toLowerCase();
    if (event.defaultPrevented || !page.contains(form) || method !== "post") return;
    const target = new URL(form.getAttribute("action") || "", window.location.href);
    const isTurn = target.pathname === turnUrl;
    if (!isTurn) {
      // Another page's action (who starts, abandoning): posted as usual, unless offline.
      if (!navigator.onLine) {
        event.preventDefault();
        say(offlineSentence(form.dataset.offline || "this"));
        release();
      }
      return;
    }
    event.preventDefault();
    const data = new URLSearchParams(new FormData(form));
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    data.delete("csrfmiddlewaretoken"); // sent as a header: the body stays the same on every try
    const action = data.get("action") || "";
    if (action === "play") submitPlay(form, data);
    else submitOther(form, data, OFFLINE_NAMES[action] || "this");
  });

  // Without the server, the preview can't be had: say so rather than show an old one.
  document.body.addEventListener("htmx:sendError", function (event) {
    const preview = document.getElementById("preview");
    if (!preview || !event.detail || !event.detail.elt || event.detail.elt.id !== "play-form") return;
    const note = document.createElement("p");
    note.className = "muted";
    note.textContent = "Offline: the play is checked and scored when it is sent.";
    preview.replaceChildren(note);
  });

  window.addEventListener("online", function () { say(""); retry(); show(); });
  window.addEventListener("offline", show);
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return; // back to a page kept in memory: what waits may have changed
    delete page.dataset.leaving;
    load();
    show();
    if (queue.length) retry();
  });
  window.addEventListener("storage", function (event) {
    if (event.key === STORE) { load(); show(); } // another tab of this game sent or kept one
  });

  // A play being tapped when the page moved on comes back in the field (board.js, which runs
  // next, puts its tiles back on the board), unless the page brought back a refused one.
  try {
    const draft = JSON.parse(window.sessionStorage.getItem(DRAFT) || "null");
    window.sessionStorage.removeItem(DRAFT);
    if (draft && input && !input.value.trim()) {
      input.value = draft.play;
      if (directionField) directionField.value = draft.direction === "down" ? "down" : "across";
      window.addEventListener("load", function () {
        const form = document.getElementById("play-form");
        if (form) form.dispatchEvent(new Event("tiles-changed")); // its preview
      });
    }
  } catch (error) { /* no session storage: nothing was kept */ }

  // A reload without a network shows this page: the service worker keeps it and its files.
  // Without one (plain HTTP on a club's network, a browser without them) a reload needs the
  // network, and the plays still wait here.
  function keepForOffline() {
    const workers = navigator.serviceWorker;
    if (!page.dataset.worker || !workers) return;
    workers.addEventListener("message", function (event) {
      if (event.data && event.data.kept) page.dataset.kept = "1"; // for tests and the curious
    });
    workers.startMessages();
    function ask(worker) {
      const files = Array.from(document.querySelectorAll(
        "script[src], link[rel~=stylesheet][href], link[rel~=icon][href]"
      ), function (element) { return element.src || element.href; });
      if (worker) worker.postMessage({ keep: { page: window.location.href, files: files } });
    }
    // A deploy's new worker starts with empty caches: it is asked too once it takes over.
    workers.addEventListener("controllerchange", function () { ask(workers.controller); });
    workers.register(page.dataset.worker).then(function () {
      return workers.ready;
    }).then(function (registration) {
      ask(registration.active);
    }).catch(function () { /* not allowed here (a private window, say): as without one */ });
  }

  // The clocks after the last turn waiting here, if the page shows older ones.
  function showWaitingClock() {
    const kept = queue.concat(held).filter(function (item) { return item.clock_after; }).pop();
    if (kept && window.tableClock && kept.clock_after.at > window.tableClock.at()) {
      window.tableClock.show(kept.clock_after);
    }
  }

  load();
  draw();
  showWaitingClock();
  show();
  if (queue.length) retry();
  keepForOffline();
})();
