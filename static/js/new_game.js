// The "Who starts" list names the players as they are typed: "Player 2" becomes "Ben".
(function () {
  "use strict";
  var starter = document.getElementById("id_starter");
  if (!starter) return;
  function rename() {
    starter.querySelectorAll("option").forEach(function (option) {
      var field = document.getElementById("id_player_" + option.value);
      if (!field) return;
      var name = field.value.trim();
      option.textContent = name || "Player " + option.value;
      option.hidden = !name && option.value !== "1";
    });
  }
  document.querySelectorAll("input[id^=id_player_]").forEach(function (field) {
    field.addEventListener("input", rename);
  });
  rename();
})();
