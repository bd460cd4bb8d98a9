// The scorer's board: place tiles by tapping squares and typing (or tapping letters).
// Placed tiles are written into the form's "play" field in the notation the preview shows
// ("5E CAT", "G5 L..P", a blank in lowercase: "8D hOUSE"), or as a square list ("E5=A G7=T")
// when they are not in one line; the server reads it, previews it (htmx) and enters it.
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
        // The form's own buttons, wherever they sit (a button can name its form).
        Array.from(f.elements).filter(function (b) {
          return b.tagName === "BUTTON" && b.type === "submit";
        }).forEach(function (b) {
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

  // A square's name says what it shows (WCAG's label in name): a tile placed now ("E5: M 3,
  // placed now"), and a refusal's mark after the square's own ("E5: empty, refused here").
  // Only the squares that change are touched: the board's 225 names are the server's.
  const REFUSED = ", refused here";
  const drawn = new Map(); // square -> its name as drawn (by the server, or offline.js)
  const given = new Map(); // square -> the name given here last
  const shown = new Map(); // square -> what it shows now instead of its drawn tile
  let offending = new Set();
  function relabel(sq) {
    const current = sq.getAttribute("aria-label") || "";
    if (current !== given.get(sq)) drawn.set(sq, current); // drawn anew since
    const now = (shown.has(sq) ? sq.dataset.name + ": " + shown.get(sq) : drawn.get(sq)) +
      (offending.has(sq) ? REFUSED : "");
    sq.setAttribute("aria-label", now);
    given.set(sq, now);
  }
  function markOffending() {
    const bad = document.querySelector("#preview [data-squares]");
    const marked = new Set();
    if (bad) {
      bad.dataset.squares.split(" ").forEach(function (name) {
        const sq = name && board.querySelector('.sq[data-name="' + name + '"]');
        if (sq) marked.add(sq);
      });
    }
    const before = offending;
    offending = marked;
    new Set([...before, ...marked]).forEach(function (sq) {
      sq.classList.toggle("offending", marked.has(sq));
      relabel(sq);
    });
  }
  markOffending();
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id === "preview") markOffending();
  });

  // Back from an action (#board) on a phone: the board just under the score bar (whatever
  // its height), so what the action said and the buttons below stay in view.
  const bar = page.querySelector(".scorebar");
  const phone = window.matchMedia("(max-width: 699px)");
  function bringIntoView() {
    if (!phone.matches || !bar) return; // no score bar: the correction page
    // The bar sticks to the top once the page scrolls: the board goes just under it.
    const top = board.closest(".board-wrap").getBoundingClientRect().top;
    const gap = top - bar.getBoundingClientRect().height - 4;
    if (Math.abs(gap) > 2) window.scrollBy(0, gap);
  }
  if (window.location.hash === "#board") bringIntoView();

  const form = document.getElementById("play-form");
  if (!form) return;

  const size = Number(page.dataset.size);
  const stacking = page.dataset.stacks === "1";
  const hasQu = page.dataset.hasQu === "1"; // the set's Q is Upwords' one Qu tile
  const hasBlanks = page.dataset.hasBlanks === "1";
  const input = document.getElementById("play-input");
  const directionButton = document.getElementById("direction");
  const wholeButton = document.getElementById("whole-board");
  const blankKey = page.querySelector("[data-key=Blank]");
  const directionField = document.getElementById("play-direction");
  const note = document.getElementById("entry-note");
  const wrap = board.closest(".board-wrap");
  const squares = new Map();
  const named = new Map();
  board.querySelectorAll("button.sq").forEach(function (sq) {
    squares.set(key(Number(sq.dataset.row), Number(sq.dataset.col)), sq);
    named.set(sq.dataset.name, sq);
  });
  const values = {}; // letter -> points, from the pad's keys
  page.querySelectorAll(".key[data-letter]").forEach(function (k) {
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

  function say(text) {
    note.textContent = text;
    fit();
  }

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

  function setDirection(isAcross) {
    across = isAcross;
    directionButton.textContent = across ? "Across →" : "Down ↓";
    directionButton.setAttribute("aria-pressed", String(!across));
    directionField.value = across ? "across" : "down"; // sent with the play, kept if refused
    render();
  }

  function toggleDirection() { setDirection(!across); }

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

  function occupied(r, c) { return onBoard(r, c) && Boolean(at(r, c).dataset.top); }
  function covered(r, c) { return onBoard(r, c) && (pending.has(key(r, c)) || occupied(r, c)); }
  function column(c) { return String.fromCharCode(65 + c); }

  // The play as referee.play.Play.notation writes it (so the field says what the preview
  // says): along its line from the first square of the word, "." for a tile already there;
  // one tile reads along the word it touches. Not in one line: the square list.
  function notation() {
    const cells = Array.from(pending.keys())
      .map(function (k) { return k.split(",").map(Number); })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    const list = cells
      .map(function ([r, c]) { return at(r, c).dataset.name + "=" + pending.get(key(r, c)); })
      .join(" ");
    if (!cells.length) return stacking ? readThrough() : "";
    const rows = new Set(cells.map(function (x) { return x[0]; }));
    const cols = new Set(cells.map(function (x) { return x[1]; }));
    let lineAcross;
    if (cells.length === 1) {
      const [r, c] = cells[0];
      const acrossRun = occupied(r, c - 1) || occupied(r, c + 1);
      lineAcross = acrossRun || !(occupied(r - 1, c) || occupied(r + 1, c));
    } else if (rows.size === 1) lineAcross = true;
    else if (cols.size === 1) lineAcross = false;
    else return list;
    const [dr, dc] = lineAcross ? [0, 1] : [1, 0];
    let [r, c] = cells[0];
    while (covered(r - dr, c - dc)) { r -= dr; c -= dc; }
    const start = [r, c];
    const last = cells[cells.length - 1];
    let letters = "";
    while (covered(r, c) || r < last[0] || (r === last[0] && c <= last[1])) {
      if (pending.has(key(r, c))) letters += pending.get(key(r, c));
      else if (occupied(r, c)) letters += ".";
      else return list; // a gap: not a play along one line
      r += dr;
      c += dc;
    }
    const position = lineAcross ? (start[0] + 1) + column(start[1]) : column(start[1]) + (start[0] + 1);
    return position + " " + letters;
  }

  // Upwords: letters typed only on themselves so far ("5E O"), written as typed, so the
  // preview names the rule it would break as it does for the play typed in the field.
  function readThrough() {
    const cells = Array.from(through).map(function (k) { return k.split(",").map(Number); })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    if (!cells.length) return "";
    const [r, c] = cells[0];
    const position = across ? (r + 1) + column(c) : column(c) + (r + 1);
    return position + " " + cells.map(function ([r, c]) { return at(r, c).dataset.top; }).join("");
  }

  function changed() {
    input.value = notation();
    render();
    follow();
    form.dispatchEvent(new Event("tiles-changed"));
  }

  function render() {
    squares.forEach(function (sq, k) {
      sq.querySelectorAll(".new").forEach(function (span) { span.remove(); });
      const tile = pending.get(k);
      sq.classList.toggle("pending", tile !== undefined);
      sq.classList.toggle("pending-blank", tile !== undefined && isBlank(tile));
      sq.classList.toggle("through", through.has(k));
      if (tile !== undefined) {
        const letter = tile === "Qu" ? "Qu" : tile.toUpperCase();
        let said = letter;
        add(sq, "letter new", letter);
        if (stacking && Number(sq.dataset.height) > 0) {
          const height = String(Number(sq.dataset.height) + 1); // the height it makes
          add(sq, "height new", height);
          said += height + ", " + height + " high"; // as shown ("W3"), then what it means
        } else if (!isBlank(tile) && values[tile]) {
          add(sq, "val new", values[tile]);
          said += values[tile];
        }
        said += (isBlank(tile) ? ", a blank" : "") + ", placed now";
        if (shown.get(sq) !== said) {
          shown.set(sq, said);
          relabel(sq);
        }
      } else if (shown.delete(sq)) {
        relabel(sq);
      }
      const isCursor = cursor && k === key(cursor[0], cursor[1]);
      sq.classList.toggle("cursor", Boolean(isCursor));
      if (isCursor) sq.dataset.arrow = across ? "→" : "↓";
    });
  }

  // A blank is its letter in lowercase ("e"); the Qu tile's "u" is not one.
  function isBlank(tile) { return tile !== "Qu" && tile !== tile.toUpperCase(); }

  function add(sq, className, text) {
    const span = document.createElement("span");
    span.className = className;
    span.setAttribute("aria-hidden", "true");
    span.textContent = text;
    sq.appendChild(span);
  }

  // A phone whose whole board, as it fits, has squares too small shows a zoomed part of it
  // (squares 44 px, 40 on 8×8) from the start, around the last play, then around the cursor.
  // Too small: under 40 px on a 15×15 board, where a play is entered in one part of it; under
  // 24 px (the least tap target) on Upwords' boards, which stay whole on a phone, the stacks
  // around the play all in sight. One tap shows it whole, until the next tap on a square.
  const SMALLEST_WHOLE = size > 10 ? 40 : 24; // px
  let wholeChosen = false;
  function zoomable() {
    return Boolean(wholeButton) && phone.matches && !wholeChosen &&
      board.querySelector("button.sq").getBoundingClientRect().width < SMALLEST_WHOLE;
  }

  function zoomIn() {
    wholeChosen = false;
    fit();
  }

  function wholeBoard() {
    wholeChosen = true;
    wrap.classList.remove("zoomed");
    wholeButton.hidden = true;
    fit();
  }

  // On a phone the board takes the height left under the score bar once the preview, Submit
  // and the whole pad are on screen: the zoomed part grows or shrinks to it; the whole board
  // narrows (to 60% at most), and zooms when its squares would be under 40 px.
  const pad = page.querySelector(".pad");
  const MIN_ZOOMED = 150; // the cursor's row with a row either side
  function fit() {
    if (!phone.matches || !bar || !pad) {
      wrap.classList.remove("zoomed");
      if (wholeButton) wholeButton.hidden = true;
      wrap.style.removeProperty("--board-room");
      wrap.style.removeProperty("--board-whole");
      return;
    }
    const below = pad.getBoundingClientRect().bottom - wrap.getBoundingClientRect().bottom;
    const room = window.innerHeight - bar.getBoundingClientRect().height - below - 8;
    const zoomed = wrap.classList.contains("zoomed");
    if (!zoomed) {
      wrap.style.removeProperty("--board-whole");
      const whole = wrap.getBoundingClientRect();
      const width = Math.max(whole.width * 0.6, Math.min(whole.width, (room * whole.width) / whole.height));
      wrap.style.setProperty("--board-whole", Math.floor(width) + "px");
      if (!zoomable()) return;
      wrap.classList.add("zoomed");
      wholeButton.hidden = false;
    }
    const most = board.getBoundingClientRect().height;
    wrap.style.setProperty("--board-room", Math.round(Math.min(most, Math.max(MIN_ZOOMED, room))) + "px");
    if (zoomed) follow();
    else centre(cursor ? at(cursor[0], cursor[1]) : landmark());
  }

  // Where a zoomed board opens with no square chosen: the last play, or the start.
  function landmark() {
    const last = board.querySelectorAll(".sq.last");
    if (last.length) return last[Math.floor(last.length / 2)];
    return board.querySelector(".sq.start") || at(Math.floor(size / 2), Math.floor(size / 2));
  }

  function centre(sq) {
    const w = wrap.getBoundingClientRect();
    const s = sq.getBoundingClientRect();
    wrap.scrollLeft += s.left + s.width / 2 - (w.left + w.width / 2);
    wrap.scrollTop += s.top + s.height / 2 - (w.top + w.height / 2);
  }

  // Keep the cursor's square in the zoomed part (a square's margin from the edge).
  function follow() {
    if (!cursor || !wrap.classList.contains("zoomed")) return;
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
    if (cursor && cursor[0] === r && cursor[1] === c) toggleDirection();
    else setCursor(r, c);
    zoomIn(); // a whole board zooms around the square just tapped
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

  // The pad and the submit row's keys (the pad sits below the other turns' buttons, outside
  // the form: its keys are plain buttons).
  page.addEventListener("click", function (event) {
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

  // What is between the board and the pad's last row changes (a preview, a refusal, a note, the
  // offline notice in the score bar), or the screen does: the board takes what is left. A new
  // preview and a note are fitted at once, in the task that changed them, so a tap that follows
  // at once finds the pad where it is drawn.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id === "preview") fit();
  });
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(fit);
    [bar, page.querySelector(".table-news"), form, pad].forEach(function (el) {
      if (el) watch.observe(el);
    });
  }
  phone.addEventListener("change", fit);
  window.addEventListener("resize", fit);
  fit();
  // A game in play opens at its board on a phone, as it comes back after an action: the score
  // bar, the board, the preview, Submit and the pad on one screen (the menu a scroll above).
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  bringIntoView();

  // Typing the play by hand replaces the tapped tiles (the field is the source of truth).
  input.addEventListener("input", function () {
    pending.clear();
    through.clear();
    steps.length = 0;
    render();
  });

  function tileOf(token) {
    return token.length === 2 ? "Qu" : hasBlanks ? token : token.toUpperCase();
  }

  // "5E CAT" or "G5 L..P" read against the board, as Play.parse reads it: [square key, tile]
  // pairs, and the squares it reads through; null when it isn't such a play on this board.
  function readNotation(text) {
    const parts = text.trim().split(/\s+/);
    if (parts.length !== 2) return null;
    let m = /^(\d{1,2})([A-Za-z])$/.exec(parts[0]);
    let r, c, dr, dc;
    if (m) [r, c, dr, dc] = [Number(m[1]) - 1, m[2].toUpperCase().charCodeAt(0) - 65, 0, 1];
    else if ((m = /^([A-Za-z])(\d{1,2})$/.exec(parts[0]))) {
      [r, c, dr, dc] = [Number(m[2]) - 1, m[1].toUpperCase().charCodeAt(0) - 65, 1, 0];
    } else return null;
    const tokens = parts[1].match(hasQu ? /qu|./gi : /./g);
    const tiles = [];
    const passed = [];
    for (const token of tokens) {
      if (!onBoard(r, c) || !/^(\.|[A-Za-z]{1,2})$/.test(token)) return null;
      const top = at(r, c).dataset.top;
      if (token === "." || (top && top.toUpperCase() === token.toUpperCase())) passed.push(key(r, c));
      else if (top && !stacking) return null;
      else tiles.push([key(r, c), tileOf(token)]);
      r += dr;
      c += dc;
    }
    return { tiles: tiles, passed: passed };
  }

  // "E5=A G7=T"
  function readSquares(text) {
    const tokens = text.trim().split(/\s+/);
    if (!tokens.every(function (t) { return /^[A-Za-z]\d{1,2}=[A-Za-z]{1,2}$/.test(t); })) return null;
    const tiles = [];
    for (const t of tokens) {
      const [name, tile] = t.split("=");
      const sq = named.get(name.toUpperCase());
      if (!sq) return null;
      tiles.push([key(Number(sq.dataset.row), Number(sq.dataset.col)), tileOf(tile)]);
    }
    return { tiles: tiles, passed: [] };
  }

  // A refused play comes back in the field as it was sent: its tiles go back on the board;
  // so does a play proposed from a photo (static/js/photo.js sends "proposed").
  function restore() {
    if (!input.value.trim()) return;
    const play = readSquares(input.value) || readNotation(input.value);
    if (!play) return;
    play.tiles.forEach(function ([k, tile]) {
      pending.set(k, tile);
      steps.push({ k: k, tile: true, skipped: [] });
    });
    play.passed.forEach(function (k) { through.add(k); });
    // The direction it was tapped in, and the cursor where the next tile would go.
    setDirection(directionField.value !== "down");
    const last = steps[steps.length - 1];
    if (last) {
      cursor = last.k.split(",").map(Number);
      advance();
    }
    render();
    fit(); // zoomed around the cursor, as it was when the play was sent
  }
  restore();
  input.addEventListener("proposed", restore);
})();
