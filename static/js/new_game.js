// The new-game form. The "Who starts" list names the players as they are typed: "Player 2"
// becomes "Ben". The rule options follow the ruleset: choosing another one sets them to its
// own rules and offers only the options that concern it (the server's table, in
// #ruleset-options). The clock's settings shown are those of the kind of clock chosen (the
// others are not sent). Without this script the server does all this (see NewGameForm).
(function () {
  "use strict";
  var starter = document.getElementById("id_starter");
  if (starter) {
    var rename = function () {
      starter.querySelectorAll("option").forEach(function (option) {
        var field = document.getElementById("id_player_" + option.value);
        if (!field) return;
        var name = field.value.trim();
        option.textContent = name || "Player " + option.value;
        option.hidden = !name && option.value !== "1";
      });
    };
    document.querySelectorAll("input[id^=id_player_]").forEach(function (field) {
      field.addEventListener("input", rename);
    });
    rename();
  }

  var kinds = document.querySelectorAll("input[name=clock]");
  function showClock() {
    var chosen = document.querySelector("input[name=clock]:checked");
    document.querySelectorAll("[data-clock-kind]").forEach(function (box) {
      var shown = Boolean(chosen) && box.dataset.clockKind === chosen.value;
      box.hidden = !shown;
      box.querySelectorAll("input").forEach(function (field) { field.disabled = !shown; });
    });
  }
  kinds.forEach(function (radio) { radio.addEventListener("change", showClock); });
  showClock();

  var table = document.getElementById("ruleset-options");
  var shownFor = document.querySelector("input[name=options_for]");
  if (!table || !shownFor) return;
  var rulesets = JSON.parse(table.textContent);
  document.querySelectorAll(".no-js").forEach(function (el) { el.hidden = true; });

  function showOptionsOf(id) {
    var ruleset = rulesets[id];
    if (!ruleset) return;
    document.querySelectorAll("[data-option]").forEach(function (row) {
      var offered = Object.prototype.hasOwnProperty.call(ruleset.defaults, row.dataset.option);
      row.hidden = !offered;
      row.querySelectorAll("input").forEach(function (choice) {
        choice.disabled = !offered;
        if (offered) choice.checked = choice.value === ruleset.defaults[row.dataset.option];
      });
    });
    shownFor.value = id;
    document.querySelectorAll(".options-for").forEach(function (el) { el.textContent = ruleset.name; });
    var clockHelp = document.getElementById("turn-clock-help");
    if (clockHelp) clockHelp.textContent = ruleset.clock_help;
    var seconds = document.getElementById("id_turn_clock");
    if (seconds) seconds.value = ruleset.turn_seconds;
  }

  var radios = document.querySelectorAll("input[name=ruleset]");
  radios.forEach(function (radio) {
    radio.addEventListener("change", function () { if (radio.checked) showOptionsOf(radio.value); });
  });
  // A page the browser restored may have another ruleset checked than the options shown.
  radios.forEach(function (radio) {
    if (radio.checked && radio.value !== shownFor.value) showOptionsOf(radio.value);
  });
})();
