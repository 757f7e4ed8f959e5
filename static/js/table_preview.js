// The table screen's preview drawn on the phone, online: a tap that completes or changes a
// hand the engine's figures cover (the value of a ron with one winner or of a tsumo, a riichi,
// the tenpai of an exhaustive draw) draws the payments, each seat's change and score, the
// deposits and the next hand at once (static/js/hand_preview.js, the figures file of the
// offline panel), instead of asking the server. The hand is then one request: its confirm,
// which the server checks and records as always.
//
// The server is asked (htmx, as without this file) whenever the figures cannot tell or the tap
// changes what the form shows: the outcome, the seats, a hand that ends the game (its
// settlement depends on ranks and uma), a double ron, a yakuman (its multiple), anything
// under "More: rare cases", tiles, paarenchan, an open riichi dealt into, a noten riichi at a
// draw, an error on the page, a correction, a game whose time was called.
(function () {
  "use strict";

  function checked(form, name) {
    return Array.prototype.map.call(form.querySelectorAll("input[name=" + name + "]:checked"), function (input) {
      return input.value;
    });
  }

  function seatsOf(form, name) {
    return checked(form, name).map(Number).sort(function (a, b) { return a - b; });
  }

  // Anything on the page the figures do not cover, or that the server must draw.
  function beyondFigures(form) {
    if (form.querySelector(".errorlist, .tile-result, .tile-warning, .paarenchan, #open-riichi-stuck, #open-riichi-yakuman, .taps.yakuman")) {
      return true;
    }
    var tiles = Array.prototype.some.call(form.querySelectorAll("input[name^=tiles_]"), function (input) {
      return input.value !== "";
    });
    var more = form.querySelector(".more");
    var extras = more && Array.prototype.some.call(more.querySelectorAll("input"), function (input) {
      if (input.type === "radio" || input.type === "checkbox") {
        return input.checked;
      }
      return input.value !== "" && input.value !== "0";
    });
    return tiles || !!extras;
  }

  // The hand as the form holds it, in hand_preview's terms, or null.
  function handOf(form) {
    var outcome = checked(form, "result")[0] || (checked(form, "loser").length ? "ron" : "");
    var hand = { outcome: outcome, winner: null, loser: null, value: null, tenpai: [], riichi: seatsOf(form, "riichi") };
    if (outcome === "draw") {
      hand.tenpai = seatsOf(form, "tenpai");
      var notenRiichi = hand.riichi.some(function (seat) {
        return hand.tenpai.indexOf(seat) < 0;
      });
      return notenRiichi ? null : hand;
    }
    if (outcome === "ron") {
      var winners = seatsOf(form, "winners");
      var losers = seatsOf(form, "loser");
      if (winners.length !== 1 || losers.length !== 1 || winners[0] === losers[0]) {
        return null;
      }
      hand.winner = winners[0];
      hand.loser = losers[0];
    } else if (outcome === "tsumo") {
      var winner = seatsOf(form, "winner");
      if (winner.length !== 1) {
        return null;
      }
      hand.winner = winner[0];
    } else {
      return null;
    }
    hand.value = checked(form, "value_" + hand.winner)[0] || null;
    return hand.value && hand.value !== "yakuman" ? hand : null;
  }

  function node(tag, attrs, text) {
    var element = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      element.setAttribute(key, attrs[key]);
    });
    if (text !== undefined) {
      element.textContent = text;
    }
    return element;
  }

  // The same markup as the server's preview (scoring/game_detail.html#entry).
  function previewNodes(words, preview) {
    var out = [node("h3", {}, words.payments)];
    var list = node("ul", { class: "payments" });
    preview.payments.forEach(function (line) {
      var item = node("li", { class: "payment" });
      item.appendChild(node("span", { class: "payment-who" }, line.payer + " \u2192 " + line.payee));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(node("b", { class: "payment-amount" }, line.amount));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(node("small", { class: "payment-reason" }, line.reason));
      list.appendChild(item);
    });
    if (!preview.payments.length) {
      list.appendChild(node("li", { class: "payment" }, words.nobody));
    }
    out.push(list);
    var table = node("table", { class: "preview-seats" });
    var head = node("tr");
    [words.player, words.change, words.score].forEach(function (text) {
      head.appendChild(node("th", { scope: "col" }, text));
    });
    table.appendChild(node("thead")).appendChild(head);
    var body = table.appendChild(node("tbody"));
    preview.seats.forEach(function (seat) {
      var row = body.appendChild(node("tr"));
      row.appendChild(node("th", { scope: "row" }, seat.name));
      row.appendChild(node("td", { class: "delta " + seat.delta.sign }, seat.delta.text));
      row.appendChild(node("td", { class: "score" }, seat.score));
    });
    out.push(table);
    var deposits = node("p", { class: "preview-deposits" }, words.depositsAfter + ": ");
    deposits.appendChild(node("b", {}, preview.depositsAfter));
    out.push(deposits);
    var next = node("p", { class: "preview-next", id: "preview-next" }, words.next + ": ");
    next.appendChild(node("b", {}, preview.next.round + " " + preview.next.honba));
    var who = (preview.next.renchan ? words.keeps : words.deals).replace("{name}", preview.next.dealer);
    next.appendChild(document.createTextNode(", " + who));
    out.push(next);
    return out;
  }

  function summaryNode(words, preview) {
    var summary = node("p", { class: "confirm-summary", id: "confirm-summary" });
    preview.summary.forEach(function (line, index) {
      var span = summary.appendChild(node("span", { class: "summary-payment" }, line.payer + " \u2192 " + line.payee + " "));
      span.appendChild(node("b", {}, line.amount));
      if (index < preview.summary.length - 1) {
        summary.appendChild(document.createTextNode(" \u00b7 "));
      }
    });
    if (!preview.summary.length) {
      summary.textContent = words.nobody;
    }
    return summary;
  }

  // The value tapped, as its button says it ("3飜30符 3,900", "満貫"): the pad's one line.
  function chosenLabel(input) {
    var label = input.closest("label");
    if (!label) {
      return "";
    }
    var lines = label.querySelectorAll(".line");
    if (!lines.length) {
      return label.textContent.trim();
    }
    var spoken = label.querySelector(".visually-hidden");
    var parts = spoken && spoken.textContent.trim() ? [spoken.textContent.trim()] : [];
    lines.forEach(function (line) {
      parts.push(line.textContent.trim());
    });
    return parts.join(" ");
  }

  // As the server draws a valued pad: one line with its value, the buttons a tap away.
  function fold(form, input) {
    var pad = input.closest(".value-pad");
    if (!pad) {
      return;
    }
    var existing = pad.querySelector(".pad-fold");
    if (existing) {
      existing.querySelector(".pad-chosen").textContent = chosenLabel(input);
      existing.open = false;
      return;
    }
    var details = node("details", { class: "pad-fold", id: "pad-fold-" + pad.id.replace("value-pad-", "") });
    var summary = details.appendChild(node("summary"));
    summary.appendChild(node("b", { class: "pad-chosen" }, chosenLabel(input)));
    summary.appendChild(document.createTextNode(" "));
    summary.appendChild(node("span", { class: "pad-change" }, form.dataset.changeLabel || ""));
    Array.prototype.slice.call(pad.children).forEach(function (child) {
      if (child.tagName !== "LEGEND" && !child.classList.contains("errorlist")) {
        details.appendChild(child);
      }
    });
    pad.appendChild(details);
  }

  function draw(form, source) {
    var values = window.KeptFile && window.KeptFile.read("offline-values");
    var data = window.KeptFile && window.KeptFile.read("offline-data");
    if (!values || !values.previewWords || !data || data.position === null || beyondFigures(form)) {
      return false;
    }
    if (data.version !== Number((form.querySelector("input[name=version]") || {}).value)) {
      return false;
    }
    var hand = handOf(form);
    if (!hand || !window.HandPreview) {
      return false;
    }
    var table = { position: data.position, honba: data.honba, deposits: data.deposits, scores: data.scores };
    var preview = window.HandPreview.preview(values, table, hand, data.seats);
    if (!preview) {
      return false;
    }
    var words = values.previewWords;
    var region = form.querySelector("#hand-preview");
    var bar = form.querySelector(".form-buttons");
    if (!region || !bar) {
      return false;
    }
    region.replaceChildren.apply(region, previewNodes(words, preview));
    var old = bar.querySelector("#confirm-summary");
    var summary = summaryNode(words, preview);
    if (old) {
      old.replaceWith(summary);
    } else {
      bar.insertBefore(summary, bar.querySelector("noscript, button.confirm"));
    }
    if (/^value_\d+$/.test(source.name)) {
      fold(form, source);
    }
    var more = form.querySelector(".more[hidden]");
    if (more) {
      more.hidden = false;
    }
    return true;
  }

  // Called by static/js/table_steps.js for a tap on a value, a riichi or a tenpai.
  window.TablePreview = { draw: draw };
})();
