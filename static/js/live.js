// Changes pushed the moment they commit (Server-Sent Events, scorekeeper.live). An element with
// data-events listens to that stream:
// - data-live="screen" (the spectator screen) is sent its live part with each change
//   (?part=live) and shows it; when an event comes without it (entries caught up from the
//   record) it fetches the part again (htmx, hx-trigger="refresh"), as "director" (the club's
//   live tables) does for each change;
// - data-live="event" (an event's page) hears its event's own stream, which speaks only when
//   the event changes (a game of it ends, a result, a pairing), never on a table's turn; it then
//   fetches its part (data-part) with the ETag it shows (If-None-Match), and a 304 changes
//   nothing;
// - the scorer's page (.scorer-page) shows a turn entered on another device: the page
//   reloads where it is when nothing is being entered here, else it says so with a button.
// While the stream is not open (no push here, a proxy that drops it, a server with no room)
// the live part is fetched every data-poll seconds instead (0: never), and the scorer's page
// asks its game's log (data-log) for an entry past its own; the browser reconnects by itself
// and says the last event it got (Last-Event-ID), so nothing is missed. A stream says
// something at least every data-heartbeat seconds (event: alive): one silent for longer is
// taken for down too, as one a proxy holds or a network lost without a word would be.
(function () {
  "use strict";

  // Changes close together are fetched once, after a moment; each screen waits a different
  // moment, so the first renders the change (the server keeps it) and the others find it made.
  const DEBOUNCE_MS = 150;
  const SPREAD_MS = 500;
  // An event's phones ask for its part by version, answered from the server's memory before
  // anything else: a shorter spread, so that a game's end reaches every phone within a second.
  const EVENT_DEBOUNCE_MS = 50;
  const EVENT_SPREAD_MS = 200;

  function refresher(target) {
    let timer = null;
    return function () {
      if (timer) return;
      timer = window.setTimeout(function () {
        timer = null;
        if (window.htmx) window.htmx.trigger(target, "refresh");
      }, DEBOUNCE_MS + Math.random() * SPREAD_MS);
    };
  }

  // onTurn(event's data) for each turn; refresh() when something changed, and at each poll
  // while the stream is down; onReload() when the stream says this page is too far behind to
  // catch up (by default: load it again).
  function connect(element, onTurn, refresh, onReload, part) {
    const poll = Number(element.dataset.poll || 0);
    const heartbeat = Number(element.dataset.heartbeat || 0);
    const url = new URL(element.dataset.events, window.location.href);
    if (element.dataset.entry) url.searchParams.set("after", element.dataset.entry);
    if (part) url.searchParams.set("part", part);
    let source = null;
    let heard = Date.now();
    if (window.EventSource) {
      source = new EventSource(url.href);
      ["ready", "turn", "table", "refresh", "alive"].forEach(function (name) {
        source.addEventListener(name, function () { heard = Date.now(); });
      });
      source.addEventListener("turn", function (event) { onTurn(JSON.parse(event.data)); });
      source.addEventListener("table", refresh);
      source.addEventListener("refresh", refresh);
      source.addEventListener("reload", function () {
        source.close();
        (onReload || function () { window.location.reload(); })();
      });
      source.addEventListener("ready", function () {
        element.dataset.pushed = "1"; // for tests and the curious: the stream is open
      });
      source.addEventListener("error", function () { delete element.dataset.pushed; });
    }
    function down() {
      if (!source || source.readyState !== EventSource.OPEN) return true;
      // A poll's time more than a keep-alive: one sent late by a busy server is not silence.
      return heartbeat > 0 && Date.now() - heard > (heartbeat + poll) * 1000;
    }
    if (poll > 0) {
      window.setInterval(function () {
        if (down()) refresh();
      }, poll * 1000);
    }
    return source;
  }

  // An event's part, fetched again with its ETag: a repeat answers 304, and nothing is redrawn.
  // After a refresh it names the version the stream told of (?v=), which the server answers
  // from memory, before anything else, once it holds that version; a poll names none (the
  // server reads the event's version).
  function eventRefresher(element) {
    let etag = element.dataset.etag || "";
    let timer = null;
    let asking = false;
    let told = 0; // the version named by the last refresh; 0 for a poll
    function fetchPart() {
      if (asking || !window.fetch) return;
      asking = true;
      const headers = { "HX-Request": "true" };
      if (etag) headers["If-None-Match"] = etag;
      const url = new URL(element.dataset.part, window.location.href);
      if (told) url.searchParams.set("v", told);
      window.fetch(url.href, { headers: headers, cache: "no-store" })
        .then(function (answer) {
          if (answer.status !== 200) return null; // 304: the page shows it already
          etag = answer.headers.get("ETag") || "";
          return answer.text().then(function (html) { element.innerHTML = html; });
        })
        .catch(function () { /* offline or refused: asked again at the next change or poll */ })
        .finally(function () { asking = false; });
    }
    return function (event) {
      let version = 0;
      try {
        version = Number(JSON.parse(event.data).version) || 0;
      } catch (error) { /* a poll, or an event that names no version */ }
      told = version ? Math.max(told, version) : 0;
      if (timer) return;
      timer = window.setTimeout(function () {
        timer = null;
        fetchPart();
      }, EVENT_DEBOUNCE_MS + Math.random() * EVENT_SPREAD_MS);
    };
  }

  document.querySelectorAll("[data-events][data-live='event']").forEach(function (element) {
    const refresh = eventRefresher(element);
    connect(element, refresh, refresh);
  });

  // The spectator screen and the director's tables.
  document.querySelectorAll("[data-events][data-live='screen'], [data-events][data-live='director']").forEach(function (element) {
    const refresh = refresher(element);
    if (element.dataset.live === "screen") {
      connect(element, function (turn) {
        if (typeof turn.part !== "string") return refresh();
        element.innerHTML = turn.part; // the server's own rendering of the live part
        element.dataset.entry = turn.entry;
      }, refresh, null, "live");
      return;
    }
    connect(element, refresh, refresh);
    if (element.dataset.live === "director") {
      // "4 min ago" and the stalled mark move with the clock: a quiet night still refreshes.
      window.setInterval(refresh, 60 * 1000);
    }
  });

  // The scorer's page: a turn entered on another phone.
  const page = document.querySelector(".scorer-page[data-events]");
  if (!page) return;
  const seen = Number(page.dataset.entry || 0);
  const note = document.getElementById("elsewhere");
  const input = document.getElementById("play-input");

  function sending() { // a turn of this page on its way: its answer brings the new page
    return Boolean(page.querySelector("form[data-sent]"));
  }

  function busy() {
    if (input && input.value.trim()) return true; // a play being tapped or typed
    try {
      const waiting = JSON.parse(window.localStorage.getItem("scorekeeper:waiting:" + page.dataset.game) || "{}");
      if ((waiting.queue || []).length || (waiting.held || []).length) return true;
    } catch (error) { /* nothing waits */ }
    return false;
  }

  function described(turn) {
    const who = turn.player ? turn.player + ": " : "";
    // A play's notation may end in dots ("D4 GLIT.."): it never ends the sentence.
    const what = turn.action === "play" && turn.notation ? turn.notation + " for " + turn.score
      : turn.action + (turn.notation ? " (" + turn.notation + ")" : "");
    return who + what;
  }

  function reload() {
    page.dataset.leaving = "1";
    window.location.reload(); // the browser keeps the page where it was
  }

  function elsewhere(sentence) {
    if (page.dataset.leaving || sending()) return;
    if (!busy()) return reload();
    if (!note) return;
    note.querySelector(".what").textContent = sentence;
    note.hidden = false;
  }

  // While the stream is down: the log's first entry past this page's, if there is one.
  let asking = false;
  function ask() {
    if (asking || !page.dataset.log || !window.fetch) return;
    asking = true;
    const url = new URL(page.dataset.log, window.location.href);
    url.searchParams.set("after", String(seen));
    url.searchParams.set("limit", "1");
    window.fetch(url.href, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (log) {
        const entry = log && log.turns && log.turns[0];
        if (entry) elsewhere("Entered on another device: " + described(entry) + ".");
      })
      .catch(function () { /* offline or refused: asked again at the next poll */ })
      .finally(function () { asking = false; });
  }

  connect(page, function (turn) {
    if (turn.entry > seen) elsewhere("Entered on another device: " + described(turn) + ".");
  }, ask, function () {
    elsewhere("The game has changed on another device.");
  });
  if (note) note.querySelector("button").addEventListener("click", reload);
})();
