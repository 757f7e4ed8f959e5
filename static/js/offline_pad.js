// The value pad of the offline panel (static/js/offline.js), drawn as the online pad is
// (templates/scoring/_value_grid.html: radios in label.tap, the han x fu grid, fu above 40
// and the counted han folded), from the pad the page carries (#offline-values "pad",
// scoring/entry/offline_data.py offline_pads). Only the values the engine takes for this hand on
// this table are offered (offline_rules, through OfflineTable).
(function (root) {
  "use strict";

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

  // One button of the value pad, as the online pad draws it (a radio in a label.tap).
  function valueTap(choice, onPick, value, lines, spoken) {
    var label = node("label", { class: "tap" });
    var input = node("input", { type: "radio", name: "offline-value", value: value });
    input.checked = choice.value === value;
    input.addEventListener("change", function () {
      onPick(value);
    });
    label.appendChild(input);
    var span = node("span", { class: "lines-" + lines.length });
    if (spoken) {
      span.appendChild(node("span", { class: "visually-hidden" }, spoken + " "));
    }
    lines.forEach(function (line) {
      span.appendChild(node("span", { class: "line" }, line));
    });
    label.appendChild(span);
    return label;
  }

  // The value pad of the winner (dealer or not, ron or tsumo): the limits, the han x fu grid
  // and the counted han, only the values the engine takes here; where the table is not
  // known, the values without what they pay. ``choice``: the hand as tapped so far;
  // ``onPick(value)`` on a tap; ``state.moreOpen``: the folded part's state across redraws.
  function draw(data, table, choice, onPick, state) {
    function tap(value, lines, spoken) {
      return valueTap(choice, onPick, value, lines, spoken);
    }
    var dealer = table ? table.position % data.rules.players : null;
    var name = (dealer !== null && choice.winner === dealer ? "dealer" : "") + (choice.outcome === "tsumo" ? "Tsumo" : "Ron");
    name = name.charAt(0).toLowerCase() + name.slice(1);
    var pad = data.pad.pads[name];
    var kind = table && choice.winner !== null && (choice.outcome === "tsumo" || choice.loser !== null) ? window.OfflineTable.kindOf(data.rules, dealer, choice) : null;
    function takes(value) {
      if (!kind) {
        return true;
      }
      var from = data.rules.refusedFrom[choice.outcome][value];
      return data.rules.hands[kind].values[value] !== undefined && !(from !== undefined && table.honba >= from);
    }
    var box = node("div", { class: "offline-values", id: "offline-value" });
    var limits = node("div", { class: "taps limits" });
    data.pad.limits.forEach(function (limit) {
      if (takes(limit.value)) {
        limits.appendChild(tap(limit.value, [limit.label]));
      }
    });
    box.appendChild(limits);
    function grid(rows) {
      var tableEl = node("table", { class: "value-grid" });
      var head = node("tr");
      head.appendChild(node("td"));
      data.pad.columns.forEach(function (column) {
        head.appendChild(node("th", { scope: "col" }, column));
      });
      tableEl.appendChild(node("thead")).appendChild(head);
      var body = tableEl.appendChild(node("tbody"));
      rows.forEach(function (row) {
        var tr = node("tr");
        tr.appendChild(node("th", { scope: "row" }, row.fu));
        row.cells.forEach(function (cell) {
          var td = node("td");
          if (cell && takes(cell.value)) {
            var key = tap(cell.value, table ? cell.lines : [cell.spoken], table ? cell.spoken : "");
            if (cell.capped) {
              key.classList.add("capped");
            }
            td.appendChild(key);
          }
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      return tableEl;
    }
    var common = pad.rows.filter(function (row) {
      return !row.more;
    });
    var more = pad.rows.filter(function (row) {
      return row.more;
    });
    if (common.length) {
      box.appendChild(grid(common));
    }
    var han = node("div", { class: "taps han-taps" + (pad.rows.length ? "" : " no-fu") });
    pad.han.forEach(function (button) {
      if (takes(button.value)) {
        han.appendChild(tap(button.value, table || Number(button.value) > 4 ? button.lines : button.lines.slice(0, 1)));
      }
    });
    if (pad.rows.length) {
      var details = node("details", { class: "more-values" });
      var chosenMore = more.some(function (row) {
        return row.cells.some(function (cell) {
          return cell && cell.value === choice.value;
        });
      }) || pad.han.some(function (button) {
        return button.value === choice.value;
      });
      // Open as the player left it, or where the value chosen is.
      details.open = chosenMore || state.moreOpen;
      details.addEventListener("toggle", function () {
        state.moreOpen = details.open;
      });
      details.appendChild(node("summary", {}, data.pad.moreLabel));
      if (more.length) {
        details.appendChild(grid(more));
      }
      details.appendChild(node("p", { class: "pad-caption" }, data.pad.hanCaption));
      details.appendChild(han);
      box.appendChild(details);
    } else {
      box.appendChild(han);
    }
    return box;
  }

  root.OfflinePad = { draw: draw };
})(window);
