// The next steps of a ron or a tsumo shown by the phone: tapping who dealt in (the ron in one
// tap), "Ron" or "Tsumo" on a fresh hand shows the steps the server would draw for it (who
// won, the riichi), which the page carries hidden and disabled
// (templates/scoring/game_detail.html#entry, .outcome-steps), instead of asking the server.
// The server is asked at the winner's tap, which brings the value pad; the value is drawn on
// the phone too (static/js/table_preview.js), so a ron is two requests: the winner and the
// confirm. Any other outcome, a correction, or a page without this file: the server, as ever.
(function () {
  "use strict";

  function blocks(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".outcome-steps"));
  }

  function show(element, on) {
    element.hidden = !on;
    element.disabled = !on;
  }

  function hint(form, text) {
    var region = form.querySelector("#hand-preview");
    if (!region) {
      return;
    }
    var line = region.querySelector(".next-step");
    if (!line) {
      line = document.createElement("p");
      line.className = "next-step";
      region.appendChild(line);
    }
    line.textContent = text;
  }

  // ``outcome`` "ron" or "tsumo": its steps shown, the others' hidden and disabled (a
  // disabled input is not sent), the confirm enabled as the server enables it.
  function choose(form, outcome) {
    var shortcut = form.querySelector("#ron-shortcut");
    var result = form.querySelector("input[name=result][value=" + outcome + "]");
    if (!shortcut || !result) {
      return false;
    }
    result.checked = true;
    var mine = null;
    blocks(form).forEach(function (block) {
      var on = block.dataset.outcome.split(" ").indexOf(outcome) >= 0;
      show(block, on);
      if (!on) {
        // Not sent, and not kept for a reload either (static/js/table.js keeps what is ticked).
        block.querySelectorAll("input:checked").forEach(function (input) {
          input.checked = false;
        });
      }
      if (block.dataset.outcome === outcome) {
        mine = block;
      }
    });
    var legend = shortcut.querySelector("legend");
    if (outcome === "ron") {
      show(shortcut, true);
      if (legend && shortcut.dataset.ronLegend) {
        legend.textContent = shortcut.dataset.ronLegend;
      }
      var loser = shortcut.querySelector("input[name=loser]:checked");
      hint(form, loser ? mine.dataset.hint : mine.dataset.hintLoser);
    } else {
      shortcut.querySelectorAll("input[name=loser]").forEach(function (input) {
        input.checked = false;
      });
      show(shortcut, false);
      hint(form, mine.dataset.hint);
    }
    var confirm = form.querySelector("button.confirm");
    if (confirm) {
      confirm.disabled = false;
    }
    return true;
  }

  document.addEventListener("htmx:confirm", function (event) {
    var form = document.getElementById("hand-form");
    var trigger = event.detail && event.detail.triggeringEvent;
    if (!form || !form.hasAttribute("data-phone-preview") || !trigger || trigger.type !== "change") {
      return;
    }
    var source = trigger.target;
    if (!source || !form.contains(source) || !form.querySelector(".outcome-steps")) {
      return;
    }
    var outcome = null;
    if (source.name === "result" && (source.value === "ron" || source.value === "tsumo")) {
      outcome = source.value;
    } else if (source.name === "loser") {
      outcome = "ron";
    } else if (source.name === "riichi") {
      outcome = "keep"; // nothing the server would draw differently before the winner
    }
    if (outcome === "keep") {
      event.preventDefault();
    } else if (outcome && choose(form, outcome)) {
      event.preventDefault();
      form.dispatchEvent(new CustomEvent("clubsite:drawn", { bubbles: true }));
    }
  });
})();
