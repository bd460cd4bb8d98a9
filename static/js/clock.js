// The game's clocks, on the scorer page, the spectator screen and the director's tables. Each
// clock (.player-clock) carries its last reading (data-reading, ms remaining, negative in
// overtime), the moment it was taken (data-at, epoch ms) and whether it runs (data-running):
// what it reads now is its reading less the time since. Its group ([data-clock]) says the kind
// (player: a time bank each; turn: a timer for each turn) and what overtime costs. Overtime
// shows red as "−1:04" with the penalty it costs now ("−20"). A turn timer that runs out shows
// #time-up (the pass it becomes). Clocks are found on every tick, so fragments swapped in
// need nothing more.
//
// The scorer page's other scripts read the clocks through window.tableClock: reading() gives
// the readings to send with a turn and their moment; afterTurn() switches the clock here as
// the server will (a turn kept offline); show() sets them to a state kept with such a turn.
// The old turn countdown (.clock[data-seconds], a game with a turn clock and no clock kept)
// counts down from the turn's start.
(function () {
  "use strict";
  const MINUTE = 60000;
  // A clock reads at most a day over, as the server works it out (referee.clock.LIMIT_MS).
  const DAY = 24 * 60 * MINUTE;

  function format(ms) {
    const seconds = Math.ceil(Math.abs(ms) / 1000);
    return (ms < 0 ? "−" : "") + Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function now(face, at) {
    const reading = Number(face.dataset.reading);
    if (face.dataset.running !== "1") return reading;
    return Math.max(reading - Math.max(0, at - Number(face.dataset.at)), -DAY);
  }

  function penalty(group, ms) {
    if (group.dataset.clock !== "player" || ms >= 0) return 0;
    const minutes = Math.min(Math.ceil(-ms / MINUTE), Number(group.dataset.maxOver));
    return minutes * Number(group.dataset.penalty);
  }

  function draw(group, at) {
    let timeUp = false;
    group.querySelectorAll(".player-clock").forEach(function (face) {
      const ms = now(face, at);
      const shown = group.dataset.clock === "turn" && face.dataset.toRun !== "1" ? "" : format(ms);
      const time = face.querySelector(".clock-time");
      if (time.textContent !== shown) time.textContent = shown;
      const cost = penalty(group, ms);
      const lost = group.dataset.overMax === "loses" && -ms > Number(group.dataset.maxOver) * MINUTE;
      face.querySelector(".clock-penalty").textContent = lost ? "lost on time" : cost ? "−" + cost : "";
      face.classList.toggle("over", ms < 0);
      face.classList.toggle("running", face.dataset.running === "1");
      if (group.dataset.clock === "turn" && face.dataset.toRun === "1" && ms <= 0) timeUp = true;
    });
    const notice = document.getElementById("time-up");
    if (notice && group.closest(".scorer-page")) notice.hidden = !timeUp;
  }

  // What a screen reader says of a clock, as the page drawn for its state would say it.
  function describe(face) {
    const said = face.querySelector(".sr-only");
    if (!said || face.dataset.name === undefined) return;
    const state = face.dataset.running === "1" ? ", running" : face.dataset.toRun === "1" ? ", paused" : "";
    said.textContent = face.dataset.name + "'s clock" + state + ":";
    const paused = face.querySelector(".clock-paused");
    if (paused) paused.hidden = face.dataset.running === "1";
  }

  function countdowns() {
    document.querySelectorAll(".clock[data-seconds]").forEach(function (clock) {
      const value = clock.querySelector(".clock-value");
      const end = (Number(clock.dataset.since) + Number(clock.dataset.seconds)) * 1000;
      const left = Math.round((end - Date.now()) / 1000);
      const shown = Math.abs(left);
      value.textContent = (left < 0 ? "−" : "") + Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
      clock.classList.toggle("late", left < 0);
    });
  }

  function tick() {
    const at = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (group) { draw(group, at); });
    countdowns();
  }

  function scorerClocks() {
    return document.querySelector(".scorer-page [data-clock]");
  }

  function faces(group) {
    return Array.from(group.querySelectorAll(".player-clock")).sort(function (a, b) {
      return Number(a.dataset.seat) - Number(b.dataset.seat);
    });
  }

  window.tableClock = {
    // The readings of every clock now, by seat, and their moment; null without a clock.
    reading: function () {
      const group = scorerClocks();
      if (!group) return null;
      const at = Date.now();
      return { ms: faces(group).map(function (face) { return Math.round(now(face, at)); }), at: at };
    },
    // A turn entered here and not yet by the server (kept offline): the clock of the player
    // after the one who moved runs from these readings, as the server will switch it (not the
    // one after the running clock, which a tap may have switched already).
    afterTurn: function (reading) {
      const group = scorerClocks();
      if (!group || !reading) return null;
      const all = faces(group);
      const mover = group.dataset.toMove === "" ? -1 : Number(group.dataset.toMove);
      const next = mover >= 0 ? (mover + 1) % all.length : -1;
      const state = { readings: reading.ms.slice(), at: reading.at, running: next };
      if (group.dataset.clock === "turn" && next >= 0) state.readings[next] = Number(group.dataset.full);
      this.show(state);
      return state;
    },
    // Show a state ({readings, at, running}) kept with a turn that waits to be sent.
    show: function (state) {
      const group = scorerClocks();
      if (!group || !state) return;
      group.dataset.toMove = state.running >= 0 ? String(state.running) : "";
      faces(group).forEach(function (face, seat) {
        face.dataset.reading = String(state.readings[seat]);
        face.dataset.at = String(state.at);
        face.dataset.running = seat === state.running ? "1" : "0";
        face.dataset.toRun = seat === state.running ? "1" : "0";
        describe(face);
      });
      tick();
    },
    // The moment of the readings the page shows.
    at: function () {
      const group = scorerClocks();
      const first = group && group.querySelector(".player-clock");
      return first ? Number(first.dataset.at) : 0;
    },
  };

  tick();
  window.setInterval(tick, 250);
})();
