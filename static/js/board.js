// The scorer's board: place tiles by tapping squares and typing (or tapping letters).
// Placed tiles are written into the form's "play" field as a square list ("E5=A F5=T"),
// which the server reads, previews (htmx) and enters. No framework, no build step.
(function () {
  "use strict";

  const page = document.querySelector(".table-page");
  const form = document.getElementById("play-form");
  const board = document.querySelector(".board");
  if (!page || !board) return;

  // Forms that can't be taken back ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (f) {
    f.addEventListener("submit", function (event) {
      if (!window.confirm(f.dataset.confirm)) event.preventDefault();
    });
  });
  startClock();
  if (!form) return;

  const size = Number(page.dataset.size);
  const stacking = page.dataset.stacks === "1";
  const hasQu = page.dataset.hasQu === "1"; // the set's Q is Upwords' one Qu tile
  const input = document.getElementById("play-input");
  const directionButton = document.getElementById("direction");
  const squares = new Map();
  board.querySelectorAll("button.sq").forEach(function (sq) {
    squares.set(key(Number(sq.dataset.row), Number(sq.dataset.col)), sq);
  });

  let cursor = null; // [row, col]
  let across = true;
  const pending = new Map(); // "r,c" -> letter
  const order = []; // keys in the order placed, for Backspace

  function key(r, c) { return r + "," + c; }
  function at(r, c) { return squares.get(key(r, c)); }
  function onBoard(r, c) { return r >= 0 && c >= 0 && r < size && c < size; }

  // Keyboard: one square is in the tab order (rendered so); arrows move between squares.
  function focusSquare(r, c) {
    const sq = at(r, c);
    if (!sq) return;
    squares.forEach(function (s) { s.tabIndex = -1; });
    sq.tabIndex = 0;
    sq.focus();
  }

  function setCursor(r, c) {
    cursor = [r, c];
    render();
  }

  function toggleDirection() {
    across = !across;
    directionButton.textContent = across ? "Across →" : "Down ↓";
    directionButton.setAttribute("aria-pressed", String(!across));
    render();
  }

  function advance() {
    if (!cursor) return;
    let [r, c] = cursor;
    do {
      r += across ? 0 : 1;
      c += across ? 1 : 0;
      // Letter UP tiles can't be stacked: the word runs through tiles already down.
    } while (onBoard(r, c) && !stacking && at(r, c).dataset.top && !pending.has(key(r, c)));
    if (onBoard(r, c)) cursor = [r, c];
  }

  function place(letter) {
    if (!cursor) {
      announce("Choose a square first.");
      return;
    }
    const [r, c] = cursor;
    const sq = at(r, c);
    const k = key(r, c);
    // Typing the letter already on top plays through it, as in "5C BELATED" over CATER.
    const through = sq.dataset.top && sq.dataset.top.toUpperCase() === letter.toUpperCase();
    if (!through && (stacking || !sq.dataset.top)) {
      if (pending.has(k)) order.splice(order.indexOf(k), 1);
      pending.set(k, letter);
      order.push(k);
    }
    advance();
    changed();
  }

  function takeBack() {
    const k = order.pop();
    if (!k) return;
    pending.delete(k);
    cursor = k.split(",").map(Number);
    changed();
  }

  function clearAll() {
    pending.clear();
    order.length = 0;
    changed();
  }

  function changed() {
    input.value = order
      .slice()
      .sort(function (a, b) {
        const [ar, ac] = a.split(",").map(Number);
        const [br, bc] = b.split(",").map(Number);
        return ar - br || ac - bc;
      })
      .map(function (k) { return squares.get(k).dataset.name + "=" + pending.get(k); })
      .join(" ");
    render();
    form.dispatchEvent(new Event("tiles-changed"));
  }

  function render() {
    squares.forEach(function (sq, k) {
      const letterSpan = sq.querySelector(".letter.new");
      if (letterSpan) letterSpan.remove();
      sq.classList.toggle("pending", pending.has(k));
      if (pending.has(k)) {
        const span = document.createElement("span");
        span.className = "letter new";
        span.textContent = pending.get(k);
        sq.appendChild(span);
      }
      const isCursor = cursor && k === key(cursor[0], cursor[1]);
      sq.classList.toggle("cursor", Boolean(isCursor));
      if (isCursor) sq.dataset.arrow = across ? "→" : "↓";
    });
  }

  function announce(text) {
    const preview = document.getElementById("preview");
    preview.innerHTML = "";
    const p = document.createElement("p");
    p.className = "help";
    p.textContent = text;
    preview.appendChild(p);
  }

  function letterFor(raw) {
    const upper = raw.toUpperCase();
    if (upper === "Q" && hasQu) return "Qu";
    return upper;
  }

  board.addEventListener("click", function (event) {
    const sq = event.target.closest("button.sq");
    if (!sq) return;
    const r = Number(sq.dataset.row);
    const c = Number(sq.dataset.col);
    if (cursor && cursor[0] === r && cursor[1] === c) toggleDirection();
    else setCursor(r, c);
    focusSquare(r, c);
  });

  board.addEventListener("keydown", function (event) {
    const sq = event.target.closest("button.sq");
    if (!sq || event.ctrlKey || event.metaKey || event.altKey) return;
    const r = Number(sq.dataset.row);
    const c = Number(sq.dataset.col);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      const [dr, dc] = moves[event.key];
      if (onBoard(r + dr, c + dc)) {
        setCursor(r + dr, c + dc);
        focusSquare(r + dr, c + dc);
      }
    } else if (/^[a-zA-Z]$/.test(event.key)) {
      event.preventDefault();
      if (!cursor) setCursor(r, c);
      place(letterFor(event.key));
      if (cursor) focusSquare(cursor[0], cursor[1]);
    } else if (event.key === "Backspace") {
      event.preventDefault();
      takeBack();
      if (cursor) focusSquare(cursor[0], cursor[1]);
    } else if (event.key === " ") {
      event.preventDefault();
      if (!cursor || cursor[0] !== r || cursor[1] !== c) setCursor(r, c);
      else toggleDirection();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (pending.size) form.requestSubmit();
      else setCursor(r, c);
    } else if (event.key === "Escape") {
      clearAll();
    }
  });

  form.querySelector(".pad").addEventListener("click", function (event) {
    const button = event.target.closest("button.key");
    if (!button) return;
    if (button.dataset.key === "Backspace") takeBack();
    else if (button.dataset.key === "Clear") clearAll();
    else place(button.dataset.letter);
  });

  directionButton.addEventListener("click", toggleDirection);

  // Typing the play by hand replaces the tapped tiles (the field is the source of truth).
  input.addEventListener("input", function () {
    pending.clear();
    order.length = 0;
    render();
  });

  function startClock() {
    const clock = document.querySelector(".clock");
    if (!clock) return;
    const value = clock.querySelector(".clock-value");
    const end = (Number(clock.dataset.since) + Number(clock.dataset.seconds)) * 1000;
    function tick() {
      const left = Math.round((end - Date.now()) / 1000);
      const shown = Math.abs(left);
      value.textContent = (left < 0 ? "−" : "") + Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
      clock.classList.toggle("late", left < 0);
    }
    tick();
    setInterval(tick, 1000);
  }
})();
