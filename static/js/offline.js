// Hand entry without a connection.
//
// - The service worker (/sw.js, Workbox) keeps the table screen and the static files, so the
//   page opens in a basement with no signal.
// - When the table cannot reach the server (a preview or a confirm fails, or the phone says it
//   is offline), an offline panel takes the hand: ron with one winner, tsumo or an exhaustive
//   draw, riichi, the value (on the same han x fu grid as online). The table it shows is the
//   table after every hand waiting to send, and each hand's payments on the table before
//   it: static/js/offline_table.js adds up the engine's figures the page carries
//   (#offline-values, scoring/entry/offline_data.py), and shows no figure where they cannot tell
//   (tests/test_offline_agreement.py). The server's result is the one that stands.
// - A hand kept offline goes into an outbox in IndexedDB (idb) with its request id and the
//   game version it was entered on, shows in the table as "waiting to send", and is sent in
//   order when the connection returns: on "online", when the page becomes visible again and
//   on the next page load (Background Sync is missing on iOS Safari and Firefox).
// - If another phone entered hands meanwhile, the server answers "stale": the hand is not
//   applied blindly; the player sees it beside the current table and chooses to record it
//   after them or to discard it. A hand is sent with its request id, so a resend is recorded
//   once.
// - The hands go in the order played. A hand kept while the outbox is being sent goes on the
//   table after the hands that send records (each moves the table this page reckons on by one
//   version: noteRecorded), in the same send; once the outbox is empty the page is reloaded,
//   back to the hand form. While hands of this login wait for this game the
//   hand form is not offered (#outbox-first says why): a hand confirmed there would be recorded
//   before them. They are sent first, or, with no answer, the next hand is kept after them.
// - The reload after the outbox's answer asks the service worker for the network's copy
//   (?fresh, templates/pwa/sw.js): its own copy of the table may be older.
(function () {
  "use strict";

  var DB_NAME = "clubsite-outbox";
  var STORE = "hands";
  var panel = null;
  var choice = null;
  var flushing = false;
  // The newest table this page reckons (see latestTable), for a phone with no localStorage.
  var reckoned = null;
  // The marker of a reload after the outbox's answer (templates/pwa/sw.js sends it to the
  // network; it is taken off the address once the page is here).
  var FRESH = "fresh";

  // The engine's payment figures are a file of their own (#offline-values' data-src: one per
  // ruleset and language, fingerprinted: static/js/kept_file.js), so a phone downloads them
  // once for every game of that ruleset. Until they are here the panel waits.
  function loadValues() {
    return window.KeptFile ? window.KeptFile.load("offline-values") : Promise.resolve();
  }

  // The table as it stands (#offline-data, renewed with every update of the table) and the
  // engine's payment figures (#offline-values, once loaded).
  function tableData() {
    var table = document.getElementById("offline-data");
    var values = document.getElementById("offline-values");
    if (!table || !values) {
      return null;
    }
    try {
      return Object.assign(JSON.parse(values.textContent), latestTable(JSON.parse(table.textContent)));
    } catch (error) {
      return null;
    }
  }

  // The page's own table data (who is logged in, where hands are sent, the words), without
  // the engine's figures: enough to send the outbox and to hold the hand form.
  function pageData() {
    return window.KeptFile.read("offline-data");
  }

  // The service worker keeps the page as it was last loaded, but hands confirmed since then
  // renewed only the page in the browser. The newest table this phone has seen is kept in
  // localStorage, so a page reloaded without a connection keeps hands on the right version.
  function latestTable(table) {
    var kept = keptTable(table.action);
    if (kept && kept.version > table.version) {
      // The game as it stands from the kept copy; who is logged in, and the words, from
      // this page.
      return Object.assign({}, table, {
        version: kept.version,
        position: kept.position,
        dealer: kept.dealer,
        round: kept.round,
        honba: kept.honba,
        deposits: kept.deposits,
        scores: kept.scores,
        where: kept.where,
        pageVersion: table.version,
      });
    }
    keepTable(table);
    return table;
  }

  function keptTable(action) {
    var kept = null;
    try {
      kept = JSON.parse(window.localStorage.getItem("clubsite-table:" + action) || "null");
    } catch (error) {
      // No storage (a private window): what this page reckoned, if anything.
    }
    if (reckoned && reckoned.action === action && (!kept || reckoned.version > kept.version)) {
      return reckoned;
    }
    return kept;
  }

  function keepTable(table) {
    reckoned = table;
    try {
      window.localStorage.setItem("clubsite-table:" + table.action, JSON.stringify(table));
    } catch (error) {
      // No storage: the page's memory keeps it until it is reloaded.
    }
  }

  // A hand this page's outbox sent was recorded: the table this page reckons moves on by it
  // (its figures from the engine's, as for a hand waiting; unknown where they cannot tell),
  // one version on. So a hand kept before the page is reloaded goes on the table after it,
  // not on the page's, which the server would find stale. Done before the hand leaves the
  // outbox, so that a keep reads either the hand still waiting or the table after it.
  function noteRecorded(item) {
    var data = tableData();
    var version = versionOf(item);
    if (!data || version !== data.version) {
      return;  // a hand resent after the page saw it recorded, or a page on another table
    }
    var result = window.OfflineTable.advance(data.rules, pageTable(data), item.hand);
    var after = result.status === "ok" && result.table && !result.table.ended ? result.table : null;
    keepTable(Object.assign(pageData(), {
      version: version + 1,
      position: after ? after.position : null,
      dealer: after ? after.position % data.rules.players : null,
      honba: after ? after.honba : 0,
      deposits: after ? after.deposits : 0,
      scores: after ? after.scores : data.scores,
      round: null,
      where: null,
    }));
  }

  function versionOf(item) {
    var version = null;
    item.fields.forEach(function (field) {
      if (field[0] === "version") {
        version = Number(field[1]);
      }
    });
    return version;
  }

  function openDb() {
    if (!window.idb || !window.indexedDB) {
      return Promise.reject(new Error("no IndexedDB"));
    }
    return window.idb.openDB(DB_NAME, 1, {
      upgrade: function (db) {
        db.createObjectStore(STORE, { keyPath: "requestId" });
      },
    });
  }

  function queued(action) {
    return openDb().then(function (db) {
      return db.getAll(STORE).then(function (items) {
        return items
          .filter(function (item) {
            return item.action === action;
          })
          .sort(function (a, b) {
            return a.createdAt - b.createdAt;
          });
      });
    });
  }

  // A phone may be shared: the hands a login kept are sent by that login only (as its own
  // entries); another login sees them waiting, and may discard them.
  function mine(data, items) {
    return items.filter(function (item) {
      return item.user === undefined || item.user === data.user;
    });
  }

  function put(item) {
    return openDb().then(function (db) {
      return db.put(STORE, item);
    });
  }

  function remove(item) {
    return openDb().then(function (db) {
      return db.delete(STORE, item.requestId);
    });
  }

  function newRequestId() {
    if (window.crypto && window.crypto.randomUUID) {
      return window.crypto.randomUUID();
    }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map
      .call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      })
      .join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function node(tag, attrs, text) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      el.setAttribute(key, attrs[key]);
    });
    if (text !== undefined) {
      el.textContent = text;
    }
    return el;
  }

  function points(n) {
    var text = Math.abs(n).toLocaleString("en-US");
    return n > 0 ? "+" + text : n < 0 ? "\u2212" + text : "0";
  }

  function score(n) {
    var text = Math.abs(n).toLocaleString("en-US");
    return n < 0 ? "\u2212" + text : text;
  }

  // -- the table after the queued hands, from the engine's figures on the page ---------------------

  // The table as the page stands, in offline_table's terms (null: a round offline_rules has no
  // position for).
  function pageTable(data) {
    if (data.position === null || data.position === undefined) {
      return null;
    }
    return { position: data.position, honba: data.honba, deposits: data.deposits, scores: data.scores.slice() };
  }

  // The hands kept for this game, in order, each with its figures, and the table after the
  // last (see OfflineTable.advanceAll; a hand kept by an older page has none).
  function followQueue(data, items) {
    var hands = items.map(function (item) {
      return item.hand || null;
    });
    return window.OfflineTable.advanceAll(data.rules, pageTable(data), hands);
  }

  function labelOf(data, value) {
    var pad = data.pad;
    var label = value;
    pad.limits.forEach(function (limit) {
      if (limit.value === value) {
        label = limit.label;
      }
    });
    Object.keys(pad.pads).forEach(function (name) {
      pad.pads[name].rows.forEach(function (row) {
        row.cells.forEach(function (cell) {
          if (cell && cell.value === value) {
            label = cell.spoken;
          }
        });
      });
      pad.pads[name].han.forEach(function (tap) {
        if (tap.value === value) {
          label = tap.lines[0];
        }
      });
    });
    return label;
  }

  // "South 2 1 honba Deposits 1,000" for a known table.
  function whereOf(data, table) {
    return [data.roundLabels[table.position], data.honbaLabel.replace("{n}", String(table.honba)), data.depositsLabel, table.deposits.toLocaleString("en-US")].join(" ");
  }

  function complete(hand) {
    if (!hand.outcome) {
      return false;
    }
    if (hand.outcome === "ron") {
      return hand.winner !== null && hand.loser !== null && hand.winner !== hand.loser && !!hand.value;
    }
    if (hand.outcome === "tsumo") {
      return hand.winner !== null && !!hand.value;
    }
    return true;
  }

  function summaryOf(data, hand) {
    var labels = data.labels;
    var names = data.seats;
    var text;
    if (hand.outcome === "ron") {
      text = labels.ron + " " + names[hand.winner] + " \u2190 " + names[hand.loser] + " " + labelOf(data, hand.value);
    } else if (hand.outcome === "tsumo") {
      text = labels.tsumo + " " + names[hand.winner] + " " + labelOf(data, hand.value);
    } else {
      text = labels.draw + (hand.tenpai.length ? " (" + hand.tenpai.map(function (s) { return names[s]; }).join(", ") + ")" : "");
    }
    if (hand.riichi.length) {
      text += " \u00b7 " + labels.riichi + " " + hand.riichi.map(function (s) { return names[s]; }).join(", ");
    }
    return text;
  }

  function fieldsOf(data, hand, version) {
    var fields = [
      ["request_id", hand.requestId],
      ["version", String(version)],
      ["result", hand.outcome],
    ];
    if (hand.outcome === "ron") {
      fields.push(["loser", String(hand.loser)], ["winners", String(hand.winner)], ["value_" + hand.winner, hand.value]);
    } else if (hand.outcome === "tsumo") {
      fields.push(["winner", String(hand.winner)], ["value_" + hand.winner, hand.value]);
    } else {
      hand.tenpai.forEach(function (s) {
        fields.push(["tenpai", String(s)]);
      });
    }
    hand.riichi.forEach(function (s) {
      fields.push(["riichi", String(s)]);
    });
    return fields;
  }

  // -- the offline panel --------------------------------------------------------------------------

  function freshChoice() {
    return { outcome: null, winner: null, loser: null, tenpai: [], riichi: [], value: null };
  }

  function seatButtons(data, pressed, onTap) {
    var row = node("div", { class: "taps seats seats-" + data.seats.length });
    data.seats.forEach(function (name, seat) {
      var button = node("button", { type: "button", class: "tap", "aria-pressed": String(pressed(seat)) }, name);
      button.addEventListener("click", function () {
        onTap(seat);
        redraw();
      });
      row.appendChild(button);
    });
    return row;
  }

  function step(legend, content) {
    var fieldset = node("fieldset", { class: "step" });
    fieldset.appendChild(node("legend", {}, legend));
    fieldset.appendChild(content);
    return fieldset;
  }

  // The table the next hand is entered on: after every hand waiting to send.
  function tableLine(data, followed) {
    var after = followed.after;
    if (after && after.ended) {
      // The last hand waiting ends the game: its scores, before the final settlement.
      return [data.endedLabel].concat(data.seats.map(function (name, s) { return name + " " + score(after.scores[s]); })).join(" \u00b7 ");
    }
    if (!after) {
      return data.unknownLabel;
    }
    return [whereOf(data, after)].concat(data.seats.map(function (name, s) { return name + " " + score(after.scores[s]); })).join(" \u00b7 ");
  }

  var drawing = 0;
  var followed = null;
  var padState = { moreOpen: false };

  // The panel with the queue read again from IndexedDB (when it opens, after a hand is kept).
  function drawPanel() {
    var data = tableData();
    if (!panel || !data) {
      return Promise.resolve();
    }
    var ticket = ++drawing;
    return queued(data.action).catch(function () {
      return [];
    }).then(function (items) {
      if (ticket === drawing) {
        followed = followQueue(data, mine(data, items));
        renderPanel(data, followed);
      }
    });
  }

  // The panel after a tap, at once: the queue has not changed (a tap lands on what it sees).
  function redraw() {
    var data = tableData();
    if (panel && data && followed) {
      renderPanel(data, followed);
    } else {
      drawPanel();
    }
  }

  // With hands waiting, the table the page shows is from before them: the panel's line
  // says where the table stands, the page's would contradict it.
  function hideStaleStatus(stale) {
    document.querySelectorAll("#table-status .round-line, #table-status .score-strip").forEach(function (el) {
      el.style.display = stale ? "none" : "";
    });
  }

  function renderPanel(data, followed) {
    var labels = data.labels;
    hideStaleStatus(followed.results.length > 0);
    var table = followed.after && !followed.after.ended ? followed.after : null;
    panel.textContent = "";
    panel.appendChild(node("p", { class: "notice", role: "status" }, labels.offline));
    if (data.pageVersion !== undefined) {
      // An older copy of the page: its scores would mislead; its hand list lacks the latest.
      document.body.classList.add("older-copy");
      panel.appendChild(node("p", { class: "notice older-copy-notice" }, labels.olderCopy));
    }
    var line = node("p", { class: "offline-table", id: "offline-table" }, tableLine(data, followed));
    if (!followed.results.length && data.pageVersion === undefined && followed.after) {
      // Nothing waits and the page is the latest: the table's status above says the same, and
      // the line's two rows pushed the value pad under the bar.
      line.classList.add("as-on-page");
    }
    panel.appendChild(line);
    // What each player needs (static/js/offline_all_last.js).
    if (window.OfflineAllLast) {
      window.OfflineAllLast.show(data, table, line);
    }
    var outcomes = node("div", { class: "taps outcomes" });
    ["ron", "tsumo", "draw"].forEach(function (outcome) {
      var button = node("button", { type: "button", class: "tap", "aria-pressed": String(choice.outcome === outcome), "data-outcome": outcome }, labels[outcome]);
      button.addEventListener("click", function () {
        choice.outcome = outcome;
        redraw();
      });
      outcomes.appendChild(button);
    });
    panel.appendChild(outcomes);
    if (choice.outcome === "ron") {
      panel.appendChild(step(labels.loser, seatButtons(data, function (s) { return choice.loser === s; }, function (s) { choice.loser = s; })));
    }
    // Riichi before the value, as on the hand form: the pad is the last step and the longest,
    // and the riichi row under it was below the screen.
    function riichiRow() {
      panel.appendChild(step(labels.riichi, seatButtons(data, function (s) { return choice.riichi.indexOf(s) >= 0; }, function (s) { toggle(choice.riichi, s); })));
    }
    if (choice.outcome === "ron" || choice.outcome === "tsumo") {
      panel.appendChild(step(labels.winner, seatButtons(data, function (s) { return choice.winner === s; }, function (s) { choice.winner = s; })));
      riichiRow();
      var pad = window.OfflinePad.draw(data, table, choice, function (value) {
        choice.value = value;
        redraw();
      }, padState);
      if (choice.value && !pad.querySelector("input[value='" + choice.value + "']")) {
        choice.value = null;  // chosen for a tsumo, say, and the outcome is now a ron
      }
      panel.appendChild(step(labels.value, pad));
    }
    if (choice.outcome === "draw") {
      panel.appendChild(step(labels.tenpai, seatButtons(data, function (s) { return choice.tenpai.indexOf(s) >= 0; }, function (s) { toggle(choice.tenpai, s); })));
      riichiRow();
    }
    // At the bottom of the screen the whole way, as the hand form's confirm bar.
    var bar = node("div", { class: "confirm-bar" });
    if (complete(choice)) {
      var result = window.OfflineTable.advance(data.rules, followed.after, choice);
      bar.appendChild(node("p", { class: "confirm-summary", id: "offline-summary" }, resultLine(data, data.seats, result)));
    }
    var keep = node("button", { type: "button", class: "primary confirm", id: "offline-keep" }, labels.confirm);
    keep.disabled = !complete(choice) || (result && (result.status === "refused" || result.status === "over"));
    keep.addEventListener("click", keepHand);
    bar.appendChild(keep);
    panel.appendChild(bar);
  }

  // A hand's payments, or why there are none.
  function resultLine(data, names, result) {
    if (result.status === "refused") {
      return data.refusedLabel;
    }
    if (result.status === "over") {
      return data.overLabel;
    }
    if (result.status !== "ok") {
      return data.unknownLabel;
    }
    var text = names.map(function (name, s) { return name + " " + points(result.deltas[s]); }).join(" \u00b7 ");
    return result.ended ? text + " \u00b7 " + data.endedLabel : text;
  }

  function toggle(list, seat) {
    var at = list.indexOf(seat);
    if (at >= 0) {
      list.splice(at, 1);
    } else {
      list.push(seat);
    }
  }

  function showPanel() {
    return loadValues().then(showLoadedPanel);
  }

  function showLoadedPanel() {
    var data = tableData();
    var entry = document.getElementById("hand-entry");
    if (panel || !data || !entry) {
      return;
    }
    choice = freshChoice();
    padState.moreOpen = false;
    var first = document.getElementById("outbox-first");
    if (first) {
      first.remove();  // the panel takes the next hand, after the ones waiting
    }
    panel = node("section", { class: "offline-panel", id: "offline-panel" });
    entry.parentNode.insertBefore(panel, entry);
    entry.hidden = true;
    drawPanel();
  }

  function keepHand() {
    var data = tableData();
    if (!data || !complete(choice)) {
      return;
    }
    var hand = choice;
    hand.requestId = newRequestId();
    queued(data.action).then(function (items) {
      // On the table after the last hand waiting, or, none waiting, after every hand this
      // page's sends recorded (read after the outbox: noteRecorded runs before a hand leaves).
      var own = mine(data, items);
      var version = own.length ? versionOf(own[own.length - 1]) + 1 : tableData().version;
      var item = {
        requestId: hand.requestId,
        action: data.action,
        fields: fieldsOf(data, hand, version),
        user: data.user,
        summary: summaryOf(data, hand),
        hand: { outcome: hand.outcome, winner: hand.winner, loser: hand.loser, value: hand.value, tenpai: hand.tenpai.slice(), riichi: hand.riichi.slice() },
        names: data.seats,
        state: "waiting",
        createdAt: Date.now(),
      };
      return put(item);
    }).then(function () {
      choice = freshChoice();
      return drawPanel();
    }).then(function () {
      drawOutbox();
      // The next hand's outcomes, above the screen after a long hand's taps, are brought
      // into view; the panel's notice says the hand is kept.
      if (panel && panel.getBoundingClientRect().top < 0) {
        window.scrollTo({ top: Math.max(window.scrollY + panel.getBoundingClientRect().top - 8, 0), left: 0, behavior: "instant" });
      }
    });
  }

  // -- the outbox on the page ------------------------------------------------------------------------

  function drawOutbox() {
    var data = tableData();
    var box = document.getElementById("outbox");
    if (!data || !box) {
      return Promise.resolve();
    }
    return queued(data.action).then(function (items) {
      box.textContent = "";
      var own = mine(data, items);
      holdEntry(data, own);
      var followed = followQueue(data, own);
      items.forEach(function (item) {
        var other = own.indexOf(item) < 0;
        var row = node("div", { class: "queued-hand " + (other ? "other-login" : item.state), "data-request-id": item.requestId });
        if (other) {
          row.appendChild(node("p", {}, data.labels.otherLogin));
        } else if (item.state === "conflict") {
          row.appendChild(node("p", {}, data.labels.conflict));
        } else if (item.state === "refused") {
          row.appendChild(node("p", {}, data.labels.refused + " " + (item.errors || []).join(" ")));
        }
        var line = node("p", { class: "queued-line" });
        line.appendChild(node("span", { class: "queued-state" }, data.labels.waiting));
        line.appendChild(node("span", { class: "queued-summary" }, " " + item.summary));
        row.appendChild(line);
        if (!other) {
          // The payments on the table before it, that table after every hand kept before it.
          row.appendChild(node("p", { class: "queued-deltas" }, resultLine(data, item.names, followed.results[own.indexOf(item)])));
        }
        if (other || item.state !== "waiting") {
          var after = node("button", { type: "button", class: "primary", "data-action": "after" }, data.labels.after);
          after.addEventListener("click", function () {
            recordAfter(item);
          });
          var discard = node("button", { type: "button", class: "secondary", "data-action": "discard" }, data.labels.discard);
          discard.addEventListener("click", function () {
            remove(item).then(afterChange);
          });
          if (item.state === "conflict" && !other) {
            row.appendChild(after);
          }
          row.appendChild(discard);
        }
        box.appendChild(row);
      });
    }).catch(function () {
      // No IndexedDB: nothing was kept, nothing to show.
    });
  }

  // A held hand discarded: the hands behind it go now (they waited for the next 30 s, the
  // hand form offered meanwhile).
  function afterChange() {
    var data = pageData();
    return queued(data.action).then(function (items) {
      if (!items.length) {
        reloadFresh();
      } else {
        return drawOutbox().then(flush);
      }
    });
  }

  // While hands of this login wait for this game, the hand form is not offered: a hand
  // confirmed there would be recorded before them, and they, sent after it, found stale and
  // out of play order. The notice in its place says why: the hands are being sent (a button
  // to send them now, when the last try got no answer), or a hand held by the server waits
  // for the players' choice above. The offline panel, once open, takes the next hand after
  // them instead.
  function holdEntry(data, own) {
    var entry = document.getElementById("hand-entry");
    var notice = document.getElementById("outbox-first");
    if (!entry || panel) {
      return;
    }
    if (!own.length) {
      if (notice) {
        notice.remove();
        entry.hidden = false;
      }
      return;
    }
    if (!notice) {
      notice = node("section", { class: "outbox-first", id: "outbox-first", role: "status" });
      entry.parentNode.insertBefore(notice, entry);
    }
    entry.hidden = true;
    var held = own[0].state !== "waiting";
    // [one hand, more]: the page's language has at most these two forms (table_labels.py).
    var words = held ? data.labels.heldFirst : data.labels.sendingFirst;
    notice.textContent = "";
    notice.appendChild(node("p", { class: "notice" }, words[own.length === 1 ? 0 : 1].replace("{n}", String(own.length))));
    if (!held) {
      var now = node("button", { type: "button", class: "primary", id: "outbox-send" }, data.labels.sendNow);
      now.addEventListener("click", function () {
        flush();
      });
      notice.appendChild(now);
    }
  }

  // The hand form held before the figures are here (the outbox needs none of them).
  function holdEntryNow() {
    var data = pageData();
    if (!data) {
      return Promise.resolve();
    }
    return queued(data.action).then(function (items) {
      holdEntry(data, mine(data, items));
    }).catch(function () {
      // No IndexedDB: nothing was kept, nothing waits.
    });
  }

  // Back to the table as the server has it. The service worker sends this one to the network
  // however long it takes (templates/pwa/sw.js): its copy may be from before the hands just
  // answered, and a choice made on it would be answered stale again.
  function reloadFresh() {
    var url = new URL(window.location.href);
    url.searchParams.set(FRESH, String(Date.now()));
    window.location.replace(url.href);
  }

  function recordAfter(item) {
    // The page shows the table as it stands now: the held hands follow its version.
    var data = tableData();
    queued(data.action).then(function (items) {
      var base = data.version;
      var updates = mine(data, items).map(function (other, index) {
        other.state = "waiting";
        other.fields = other.fields.map(function (field) {
          return field[0] === "version" ? ["version", String(base + index)] : field;
        });
        return put(other);
      });
      return Promise.all(updates);
    }).then(flush);
  }

  function send(item) {
    var body = new URLSearchParams();
    body.append("csrfmiddlewaretoken", csrfToken());
    item.fields.forEach(function (field) {
      body.append(field[0], field[1]);
    });
    return fetch(item.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    }).then(function (response) {
      return response.json();
    });
  }

  // The hands of this login waiting for this game, in order, one at a time, the outbox read
  // again before each: a hand kept meanwhile goes in the same send, after those before it.
  // Once a hand is recorded or held, the page is reloaded when the send ends (back to the hand
  // form, or the held hand beside the table as it stands).
  function flush() {
    var data = pageData();
    if (flushing || !data || navigator.onLine === false) {
      return Promise.resolve();
    }
    flushing = true;
    var sent = 0;
    var held = 0;
    function sendNext() {
      return queued(data.action).then(function (items) {
        var item = mine(data, items)[0];
        if (!item || item.state !== "waiting") {
          return null;
        }
        return send(item).then(function (answer) {
          if (answer.status === "recorded") {
            sent += 1;
            noteRecorded(item);
            return remove(item).then(function () {
              drawOutbox();
              drawPanel();
              return sendNext();
            });
          }
          item.state = answer.status === "stale" ? "conflict" : "refused";
          held += 1;
          item.errors = answer.errors || [];
          return put(item);
        });
      });
    }
    return sendNext()
      .then(function () {
        flushing = false;
        if (sent || held) {
          reloadFresh();
        } else {
          drawOutbox();
        }
      })
      .catch(function () {
        // No answer (the network, or the server away: its 503 is no JSON): the hands wait
        // for the next chance, and the next hand is kept after them, on the panel.
        flushing = false;
        drawOutbox();
        showPanel();
      });
  }

  // -- when to show the panel and when to send ------------------------------------------------

  document.addEventListener("htmx:sendError", function (event) {
    var entry = document.getElementById("hand-entry");
    if (entry && event.target && entry.contains(event.target)) {
      showPanel();
    }
  });
  // The server answers 503 while its database is away (clubsite/db_unavailable.py; htmx does
  // not swap an error answer): the hand is kept on the phone as when the network is down.
  document.addEventListener("htmx:responseError", function (event) {
    var entry = document.getElementById("hand-entry");
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status === 503 && entry && event.target && entry.contains(event.target)) {
      showPanel();
    }
  });
  window.addEventListener("offline", showPanel);
  // Hands waiting to send are tried again as often as the 503's Retry-After (30 s) says,
  // not only when the phone comes back online or the page is shown again.
  window.setInterval(function () {
    var data = tableData();
    if (!data || flushing || navigator.onLine === false) {
      return;
    }
    queued(data.action)
      .then(function (items) {
        var waiting = mine(data, items).some(function (item) {
          return item.state === "waiting";
        });
        if (waiting) {
          flush();
        }
      })
      .catch(function () {
        // No local store (a private window): nothing waits.
      });
  }, 30000);
  // A confirm re-draws the table's status, and with it the outbox's place on the page.
  document.addEventListener("htmx:afterSettle", function () {
    drawOutbox();
  });
  window.addEventListener("online", flush);
  // A hand confirmed on the form while hands wait (kept in another tab, or in the moment before
  // the outbox is read after a load) waits for them too.
  document.addEventListener("htmx:confirm", function (event) {
    var data = pageData();
    var detail = event.detail || {};
    if (!data || !detail.elt || detail.elt.id !== "hand-form" || detail.path !== data.action) {
      return;
    }
    event.preventDefault();
    queued(data.action).then(function (items) {
      var own = mine(data, items);
      if (own.length) {
        holdEntry(data, own);
        flush();
      } else {
        detail.issueRequest(true);
      }
    }, function () {
      detail.issueRequest(true);
    });
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      flush();
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var url = new URL(window.location.href);
    if (url.searchParams.has(FRESH)) {
      // The marker was for the service worker: a reload by hand is an ordinary one.
      url.searchParams.delete(FRESH);
      window.history.replaceState(window.history.state, "", url.href);
    }
    holdEntryNow();
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js").catch(function () {
        // No service worker (an old browser, a private window): the page works online.
      });
    }
    loadValues().then(function () {
      if (navigator.onLine === false) {
        showPanel();
      }
      return drawOutbox().then(flush);
    });
  });
})();
