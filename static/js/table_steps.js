// The next steps of a ron or a tsumo shown by the phone: tapping who dealt in (the ron in one
// tap), "Ron" or "Tsumo" on a fresh hand shows the steps the server would draw for it (who
// won, the riichi), which the page carries hidden and disabled
// (templates/scoring/game_detail.html#entry, .outcome-steps), instead of asking the server.
// A winner tapped brings their value pad, the server's own (scoring/views/value_pads.py, a file
// per ruleset and language the phone keeps), with "More: rare cases" after it, whose content
// the server draws when it is opened. The value is drawn on the phone too
// (static/js/table_preview.js), so a ron or a tsumo is one request: the confirm. A double ron,
// any other outcome, a correction, paarenchan, or a page without this file: the server.
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
    // A pad drawn for the other outcome goes with its winner.
    form.querySelectorAll("[data-phone-drawn]").forEach(function (element) {
      if (element.getAttribute("data-phone-drawn") !== outcome) {
        element.remove();
      }
    });
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

  function escaped(text) {
    var span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }

  // A winner tapped: their value pad, as the server draws it, where the server puts it (after
  // the riichi), and "More: rare cases" after it, hidden until the value is in, as the server
  // has it. One winner only; a second (a double ron) asks the server. False: ask the server.
  function drawPad(form, outcome, seats) {
    var block = form.querySelector('.outcome-steps[data-outcome="' + outcome + '"]');
    var riichi = form.querySelector('.outcome-steps[data-outcome="ron tsumo"]');
    var pads = window.KeptFile && window.KeptFile.read("value-pads");
    var table = window.KeptFile && window.KeptFile.read("offline-data");
    if (!block || !riichi || block.hidden || !block.hasAttribute("data-pad") || !pads || !table || seats.length > 1) {
      return false;
    }
    form.querySelectorAll("[data-phone-drawn]").forEach(function (element) {
      element.remove();
    });
    if (!seats.length) {
      hint(form, block.dataset.hint);
      return true;
    }
    var seat = seats[0];
    var kind = seat === table.dealer ? (outcome === "ron" ? "dealerRon" : "dealerTsumo") : outcome;
    var holder = document.createElement("div");
    holder.innerHTML = pads[kind].split("{seat}").join(String(seat)).split("__NAME__").join(escaped(table.seats[seat]));
    var pad = holder.firstElementChild;
    pad.setAttribute("data-phone-drawn", outcome);
    riichi.after(pad);
    if (block.dataset.more) {
      var more = document.createElement("details");
      more.className = "more";
      more.hidden = true;
      more.setAttribute("data-phone-drawn", outcome);
      more.appendChild(document.createElement("summary")).textContent = block.dataset.more;
      // What it holds is the server's to draw: opened, the form is sent for it.
      more.addEventListener("toggle", function () {
        if (more.open && window.htmx) {
          var steps = form.querySelector(".hand-steps");
          window.htmx.ajax("POST", steps.getAttribute("hx-post"), {
            source: form,
            target: "#hand-entry",
            swap: "outerHTML",
            values: { more: "1" },
          });
        }
      });
      pad.after(more);
    }
    hint(form, block.dataset.hintValue);
    return true;
  }

  function seatsOf(form, name) {
    return Array.prototype.map.call(form.querySelectorAll("input[name=" + name + "]:checked"), function (input) {
      return Number(input.value);
    });
  }

  // The value pads (scoring/views/value_pads.py): until their file is here (static/js/
  // kept_file.js), a winner's tap asks the server, as it always did.
  document.addEventListener("DOMContentLoaded", function () {
    if (window.KeptFile) {
      window.KeptFile.load("value-pads");
    }
  });

  // What the phone draws for a tap on the hand form, if it can: the preview
  // (static/js/table_preview.js), or on a fresh hand the steps of a ron or a tsumo and the
  // winner's pad. False: the server is asked.
  function drawn(form, source) {
    if (/^(value_\d+|riichi|tenpai)$/.test(source.name) && window.TablePreview && window.TablePreview.draw(form, source)) {
      return true;
    }
    if (!form.querySelector(".outcome-steps")) {
      return false;
    }
    if (source.name === "result" && (source.value === "ron" || source.value === "tsumo")) {
      return choose(form, source.value);
    }
    if (source.name === "loser") {
      return choose(form, "ron");
    }
    if (source.name === "winners" || source.name === "winner") {
      return drawPad(form, source.name === "winners" ? "ron" : "tsumo", seatsOf(form, source.name));
    }
    return false;
  }

  document.addEventListener("htmx:confirm", function (event) {
    var form = document.getElementById("hand-form");
    var trigger = event.detail && event.detail.triggeringEvent;
    if (!form || !form.hasAttribute("data-phone-preview") || !trigger || trigger.type !== "change") {
      return;
    }
    var source = trigger.target;
    if (!source || !form.contains(source) || !drawn(form, source)) {
      return;
    }
    event.preventDefault();
    // An answer on its way was asked for before this tap: it would draw the form without it.
    var steps = form.querySelector(".hand-steps");
    if (steps && window.htmx) {
      window.htmx.trigger(steps, "htmx:abort");
    }
    form.dispatchEvent(new CustomEvent("clubsite:drawn", { bubbles: true }));
  });
})();
