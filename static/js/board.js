// The scorer's board: place tiles by tapping squares and typing (or tapping letters).
// Placed tiles are written into the form's "play" field as a square list ("E5=A F5=T", a
// blank in lowercase: "H8=e"), which the server reads, previews (htmx) and enters.
// One rule for typing, in every ruleset: a letter equal to the one on top of the square under
// the cursor plays through it. Where tiles don't stack, a different letter goes on the next
// empty square along the line (so typing the whole word or only the new letters both work);
// in Upwords it is stacked. No framework, no build step.
(function () {
  "use strict";

  const page = document.querySelector(".scorer-page");
  const board = page && page.querySelector(".board");
  if (!page || !board) return;

  // Every action posts once: forms that can't be taken back ask first, then the button waits
  // for the answer (a second tap while the first is in flight is dropped).
  page.querySelectorAll("form[method=post]").forEach(function (f) {
    f.addEventListener("submit", function (event) {
      if (f.dataset.sent || (f.dataset.confirm && !window.confirm(f.dataset.confirm))) {
        event.preventDefault();
        return;
      }
      f.dataset.sent = "1";
      // Disabled only after this event: a disabled submitter would drop its name=value.
      setTimeout(function () {
        f.querySelectorAll("button:not([type=button])").forEach(function (b) {
          b.disabled = true;
          b.setAttribute("aria-busy", "true");
        });
      }, 0);
    });
  });
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return; // back to a page kept in memory: ready to send again
    page.querySelectorAll("form[data-sent]").forEach(function (f) {
      delete f.dataset.sent;
      f.querySelectorAll("button[aria-busy]").forEach(function (b) {
        b.disabled = false;
        b.removeAttribute("aria-busy");
      });
    });
  });

  // The squares a refusal is about, marked on the board.
  function markOffending() {
    const bad = document.querySelector("#preview [data-squares]");
    const names = bad ? bad.dataset.squares.split(" ") : [];
    board.querySelectorAll(".sq[data-name]").forEach(function (sq) {
      sq.classList.toggle("offending", names.indexOf(sq.dataset.name) >= 0);
    });
  }
  markOffending();
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id === "preview") markOffending();
  });

  const form = document.getElementById("play-form");
  if (!form) return;

  const size = Number(page.dataset.size);
  const stacking = page.dataset.stacks === "1";
  const hasQu = page.dataset.hasQu === "1"; // the set's Q is Upwords' one Qu tile
  const hasBlanks = page.dataset.hasBlanks === "1";
  const input = document.getElementById("play-input");
  const directionButton = document.getElementById("direction");
  const wholeButton = document.getElementById("whole-board");
  const blankKey = form.querySelector("[data-key=Blank]");
  const note = document.getElementById("entry-note");
  const wrap = board.closest(".board-wrap");
  const bar = page.querySelector(".scorebar");
  const phone = window.matchMedia("(max-width: 699px)");
  const squares = new Map();
  const named = new Map();
  board.querySelectorAll("button.sq").forEach(function (sq) {
    squares.set(key(Number(sq.dataset.row), Number(sq.dataset.col)), sq);
    named.set(sq.dataset.name, sq);
  });
  const values = {}; // letter -> points, from the pad's keys
  form.querySelectorAll(".key[data-letter]").forEach(function (k) {
    const v = k.querySelector(".val");
    if (v) values[k.dataset.letter] = v.textContent;
  });

  let cursor = null; // [row, col]
  let across = true;
  let blankNext = false;
  const pending = new Map(); // "r,c" -> tile ("Qu", "E", or "e" for a blank E)
  const through = new Set(); // squares the play reads through
  const steps = []; // {k, tile, skipped}: what was typed, in order, for ⌫

  function key(r, c) { return r + "," + c; }
  function at(r, c) { return squares.get(key(r, c)); }
  function onBoard(r, c) { return r >= 0 && c >= 0 && r < size && c < size; }
  function filled(r, c) { return Boolean(at(r, c).dataset.top) && !pending.has(key(r, c)); }

  function say(text) { note.textContent = text; }

  // Keyboard: one square is in the tab order (rendered so); arrows move between squares.
  function focusSquare(r, c) {
    const sq = at(r, c);
    if (!sq) return;
    squares.forEach(function (s) { s.tabIndex = -1; });
    sq.tabIndex = 0;
    sq.focus({ preventScroll: true });
  }

  function setCursor(r, c) {
    cursor = [r, c];
    render();
    follow();
  }

  function toggleDirection() {
    across = !across;
    directionButton.textContent = across ? "Across →" : "Down ↓";
    directionButton.setAttribute("aria-pressed", String(!across));
    render();
  }

  function step(r, c) { return across ? [r, c + 1] : [r + 1, c]; }

  function advance() {
    const [r, c] = step(cursor[0], cursor[1]);
    if (onBoard(r, c)) cursor = [r, c];
  }

  function place(letter, blank) {
    if (!cursor) {
      say("Choose a square first.");
      return;
    }
    say("");
    let [r, c] = cursor;
    let k = key(r, c);
    const top = at(r, c).dataset.top;
    if (filled(r, c) && !blank && top.toUpperCase() === letter.toUpperCase()) {
      through.add(k);
      steps.push({ k: k, tile: false, skipped: [] });
      if (stacking) {
        say(letter + " is already on top at " + at(r, c).dataset.name + ": you can't stack " +
            letter + " on " + letter + ", so the play reads through it.");
      }
      advance();
      changed();
      return;
    }
    const skipped = [];
    if (filled(r, c) && !stacking) {
      while (onBoard(r, c) && (at(r, c).dataset.top || pending.has(key(r, c)))) {
        skipped.push(key(r, c));
        [r, c] = step(r, c);
      }
      if (!onBoard(r, c)) {
        say("There is no empty square left on this line.");
        return;
      }
      k = key(r, c);
      cursor = [r, c];
    }
    if (pending.has(k)) {
      const i = steps.findIndex(function (s) { return s.k === k && s.tile; });
      if (i >= 0) steps.splice(i, 1);
    }
    skipped.forEach(function (s) { if (!pending.has(s)) through.add(s); });
    pending.set(k, blank ? letter.toLowerCase() : letter);
    steps.push({ k: k, tile: true, skipped: skipped });
    advance();
    changed();
  }

  function takeBack() {
    const last = steps.pop();
    if (!last) return;
    if (last.tile) pending.delete(last.k);
    else through.delete(last.k);
    last.skipped.forEach(function (s) { through.delete(s); });
    cursor = last.k.split(",").map(Number);
    say("");
    changed();
  }

  function clearAll() {
    pending.clear();
    through.clear();
    steps.length = 0;
    say("");
    changed();
  }

  function changed() {
    input.value = Array.from(pending.keys())
      .sort(function (a, b) {
        const [ar, ac] = a.split(",").map(Number);
        const [br, bc] = b.split(",").map(Number);
        return ar - br || ac - bc;
      })
      .map(function (k) { return squares.get(k).dataset.name + "=" + pending.get(k); })
      .join(" ");
    render();
    follow();
    form.dispatchEvent(new Event("tiles-changed"));
  }

  function render() {
    squares.forEach(function (sq, k) {
      sq.querySelectorAll(".new").forEach(function (span) { span.remove(); });
      const tile = pending.get(k);
      sq.classList.toggle("pending", tile !== undefined);
      sq.classList.toggle("pending-blank", tile !== undefined && tile !== tile.toUpperCase());
      sq.classList.toggle("through", through.has(k));
      if (tile !== undefined) {
        const letter = tile === "Qu" ? "Qu" : tile.toUpperCase();
        add(sq, "letter new", letter);
        if (stacking && Number(sq.dataset.height) > 0) {
          add(sq, "height new", String(Number(sq.dataset.height) + 1)); // the height it makes
        } else if (tile === tile.toUpperCase() && values[tile]) {
          add(sq, "val new", values[tile]);
        }
      }
      const isCursor = cursor && k === key(cursor[0], cursor[1]);
      sq.classList.toggle("cursor", Boolean(isCursor));
      if (isCursor) sq.dataset.arrow = across ? "→" : "↓";
    });
  }

  function add(sq, className, text) {
    const span = document.createElement("span");
    span.className = className;
    span.setAttribute("aria-hidden", "true");
    span.textContent = text;
    sq.appendChild(span);
  }

  // 15×15 on a phone: a zoomed part of the board around the cursor; one tap shows it whole.
  function zoomable() {
    return Boolean(wholeButton) && phone.matches;
  }

  function zoomIn() {
    if (!zoomable() || wrap.classList.contains("zoomed")) return;
    wrap.classList.add("zoomed");
    wholeButton.hidden = false;
  }

  function wholeBoard() {
    wrap.classList.remove("zoomed");
    wholeButton.hidden = true;
  }

  // Keep the cursor's square in the zoomed part (a square's margin from the edge), and on a
  // phone keep the board just under the score bar, so Submit and the pad stay on screen.
  function follow() {
    if (!cursor) return;
    if (wrap.classList.contains("zoomed")) {
      const sq = at(cursor[0], cursor[1]);
      const w = wrap.getBoundingClientRect();
      const s = sq.getBoundingClientRect();
      const margin = s.width * 1.5;
      if (s.left < w.left + margin || s.right > w.right - margin) {
        wrap.scrollLeft += s.left + s.width / 2 - (w.left + w.width / 2);
      }
      if (s.top < w.top + margin || s.bottom > w.bottom - margin) {
        wrap.scrollTop += s.top + s.height / 2 - (w.top + w.height / 2);
      }
    }
  }

  function bringIntoView() {
    if (!phone.matches) return;
    // The bar sticks to the top once the page scrolls: the board goes just under it.
    const gap = wrap.getBoundingClientRect().top - bar.getBoundingClientRect().height - 4;
    if (Math.abs(gap) > 2) window.scrollBy(0, gap);
  }

  function letterFor(raw) {
    const upper = raw.toUpperCase();
    if (upper === "Q" && hasQu) return "Qu";
    return upper;
  }

  function blankMode(on) {
    blankNext = on && hasBlanks;
    if (blankKey) blankKey.setAttribute("aria-pressed", String(blankNext));
    if (blankNext) say("Blank: now the letter it stands for.");
  }

  function typeLetter(letter) {
    const blank = blankNext;
    blankMode(false);
    place(letter, blank);
  }

  board.addEventListener("click", function (event) {
    const sq = event.target.closest("button.sq");
    if (!sq) return;
    const r = Number(sq.dataset.row);
    const c = Number(sq.dataset.col);
    bringIntoView();
    zoomIn();
    if (cursor && cursor[0] === r && cursor[1] === c) toggleDirection();
    else setCursor(r, c);
    focusSquare(r, c);
    follow();
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
      typeLetter(letterFor(event.key));
      if (cursor) focusSquare(cursor[0], cursor[1]);
    } else if (event.key === "?" && hasBlanks) {
      event.preventDefault();
      if (!cursor) setCursor(r, c);
      blankMode(!blankNext);
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

  form.addEventListener("click", function (event) {
    const button = event.target.closest("button.key, button[data-key]");
    if (!button) return;
    if (button.dataset.key === "Backspace") takeBack();
    else if (button.dataset.key === "Clear") clearAll();
    else if (button.dataset.key === "Blank") blankMode(!blankNext);
    else if (button.dataset.letter) typeLetter(button.dataset.letter);
    if (cursor && !phone.matches) focusSquare(cursor[0], cursor[1]);
  });

  directionButton.addEventListener("click", toggleDirection);
  if (wholeButton) wholeButton.addEventListener("click", wholeBoard);

  // Typing the play by hand replaces the tapped tiles (the field is the source of truth).
  input.addEventListener("input", function () {
    pending.clear();
    through.clear();
    steps.length = 0;
    render();
  });

  // A refused play comes back in the field as a square list: its tiles go back on the board.
  (function restore() {
    const tokens = input.value.trim().split(/\s+/);
    if (!tokens[0] || !tokens.every(function (t) { return /^[A-Za-z]\d{1,2}=[A-Za-z]{1,2}$/.test(t); })) return;
    tokens.forEach(function (t) {
      const [name, tile] = t.split("=");
      const sq = named.get(name.toUpperCase());
      if (!sq) return;
      const k = key(Number(sq.dataset.row), Number(sq.dataset.col));
      const letter = tile.length === 2 ? "Qu" : hasBlanks ? tile : tile.toUpperCase();
      pending.set(k, letter);
      steps.push({ k: k, tile: true, skipped: [] });
    });
    render();
  })();
})();
