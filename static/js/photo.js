// The scorer page's camera button: the photo is downsized here (a phone's 4-12 MB photo never
// leaves the phone whole), sent, and the likeliest legal play it shows is typed into the play
// field, which the page previews as any typed play; the scorer checks it and Submits.
(function () {
  "use strict";
  const MAX_SIDE = 1600;
  const picker = document.getElementById("photo-input");
  const input = document.getElementById("play-input");
  const note = document.getElementById("photo-note");
  const form = document.getElementById("play-form");
  if (!picker || !input || !form) return;

  function say(text) { note.textContent = text; }

  function downsized(file) {
    return createImageBitmap(file).then(function (bitmap) {
      const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      return new Promise(function (resolve, reject) {
        canvas.toBlob(function (blob) {
          if (blob) resolve(blob); else reject(new Error("no JPEG"));
        }, "image/jpeg", 0.85);
      });
    });
  }

  picker.addEventListener("change", function () {
    const file = picker.files && picker.files[0];
    picker.value = "";
    if (!file) return;
    say("Reading the photo…");
    downsized(file).then(function (blob) {
      const body = new FormData();
      body.append("image", blob, "board.jpg");
      body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
      return fetch(picker.dataset.url, { method: "POST", body: body, credentials: "same-origin" });
    }).then(function (response) {
      return response.json().then(function (answer) { return [response.ok, answer]; });
    }).then(function ([ok, answer]) {
      if (!ok || !answer.plays || !answer.plays.length) {
        say(answer.message || "The photo could not be read: enter the play by hand.");
        return;
      }
      const best = answer.plays[0];
      input.value = best.notation;
      // As if typed: the page's own script shows the tiles, and its preview the words and score.
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("proposed")); // and its tiles drawn on the board

      const others = answer.plays.slice(1, 3).map(function (p) { return p.notation; });
      say("From the photo: " + best.notation + " — check it, then Submit." +
          (others.length ? " Or: " + others.join(", ") + "." : ""));
    }).catch(function () {
      say("The photo could not be sent: enter the play by hand.");
    });
  });
})();
