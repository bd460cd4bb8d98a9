// The projector view (clubs/projector.html) never scrolls: its pieces ([data-piece], in their
// order) are laid out in pages of as many as fit on the screen, and the pages take turns every
// data-page-seconds. A refresh of the tables keeps the page shown (or the last, if there are
// fewer now); a piece taller than the screen on its own gets a page of its own, cut at the edge.
(function () {
  "use strict";

  const screen = document.querySelector(".projector-screen[data-page-seconds]");
  if (!screen) return;
  const paging = document.getElementById("projector-paging");
  const seconds = Number(screen.dataset.pageSeconds || 0);
  let pages = [];
  let shown = 0;

  function show() {
    pages.forEach(function (page, number) {
      page.forEach(function (piece) { piece.classList.toggle("off-page", number !== shown); });
    });
    screen.dataset.page = String(shown + 1);
    screen.dataset.pages = String(pages.length);
    if (paging) {
      paging.hidden = pages.length < 2;
      paging.textContent = "Page " + (shown + 1) + " of " + pages.length;
    }
  }

  function layOut() {
    const pieces = Array.prototype.slice.call(screen.querySelectorAll("[data-piece]"));
    const bottom = screen.getBoundingClientRect().bottom + 0.5;
    pages = [];
    let start = 0;
    while (start < pieces.length) {
      pieces.forEach(function (piece, i) { piece.classList.toggle("off-page", i < start); });
      let end = start + 1;
      while (end < pieces.length && pieces[end].getBoundingClientRect().bottom <= bottom) end += 1;
      pages.push(pieces.slice(start, end));
      start = end;
    }
    shown = Math.min(shown, Math.max(pages.length - 1, 0));
    show();
  }

  layOut();
  // Laid out in the same task as the swap, so the new tables are never painted all at once.
  screen.addEventListener("htmx:afterSwap", layOut);
  screen.addEventListener("htmx:afterSettle", layOut);
  window.addEventListener("resize", layOut);
  if (seconds > 0) {
    window.setInterval(function () {
      if (pages.length < 2) return;
      shown = (shown + 1) % pages.length;
      show();
    }, seconds * 1000);
  }
})();
