// The turn clock, on the scorer page and the spectator screen: counts down from the turn's
// start (data-since, data-seconds) and goes red past zero. It finds the clock on every tick,
// so the spectator screen's fragment swaps need nothing more.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll(".clock[data-seconds]").forEach(function (clock) {
      const value = clock.querySelector(".clock-value");
      const end = (Number(clock.dataset.since) + Number(clock.dataset.seconds)) * 1000;
      const left = Math.round((end - Date.now()) / 1000);
      const shown = Math.abs(left);
      value.textContent = (left < 0 ? "−" : "") + Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
      clock.classList.toggle("late", left < 0);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
