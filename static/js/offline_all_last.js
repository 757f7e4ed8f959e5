// The all-last conditions in the offline panel (docs/all-last.md): for each player below the
// top and each better place, the smallest value of the pad that takes them there by ron from
// each other player and by tsumo, in the table screen's words ("満貫ツモ", "3,900 出アガリ").
//
// No rule of the game here either: each candidate hand is played by OfflineTable.advance on the
// engine's figures (#offline-values, scoring/entry/offline_data.py), and what it keeps is what
// the engine's all_last_conditions keeps (scoring/engine/all_last.py): among the values that
// reach the place, those that pay the winner least, then a limit's name, the lowest han, the
// lowest fu. tests/test_offline_agreement.py finds the same values and the same words as the
// server's (scoring/entry/all_last.py, scoring/views/all_last_panel.py) on tables of every
// shipped ruleset.
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./offline_table.js"));
  } else {
    root.OfflineAllLast = factory(root.OfflineTable);
  }
})(typeof self !== "undefined" ? self : this, function (OfflineTable) {
  "use strict";

  // Each seat's place for ``scores`` (1 = top), equal scores in the engine's order.
  function placesOf(rules, scores) {
    var order = scores.map(function (_score, seat) {
      return seat;
    });
    order.sort(function (a, b) {
      return scores[b] - scores[a] || rules.tieOrder.indexOf(a) - rules.tieOrder.indexOf(b);
    });
    var places = [];
    order.forEach(function (seat, index) {
      places[seat] = index + 1;
    });
    return places;
  }

  // Among values paying the same: a limit's name first, then the lowest han, the lowest fu.
  function tieKey(value) {
    var parts = value.split("-");
    return /^\d/.test(value) ? [1, Number(parts[0]), Number(parts[1] || 0)] : [0, 0, 0];
  }

  function before(a, b) {
    var x = tieKey(a);
    var y = tieKey(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  }

  // Every value the engine takes for ``hand`` (ron or tsumo of one winner) on ``table``: the
  // winner's gain and place after it.
  function trials(rules, table, hand) {
    var n = rules.players;
    var kind = OfflineTable.kindOf(rules, table.position % n, hand);
    var out = [];
    Object.keys(rules.hands[kind].values).forEach(function (value) {
      var result = OfflineTable.advance(rules, table, Object.assign({ value: value, riichi: [] }, hand));
      if (result.status === "ok") {
        out.push({ value: value, gain: result.deltas[hand.winner], place: placesOf(rules, result.scores)[hand.winner] });
      }
    });
    return out;
  }

  // The smallest value of ``tried`` that reaches ``place``, or null.
  function smallest(tried, place) {
    var reach = tried.filter(function (trial) {
      return trial.place <= place;
    });
    if (!reach.length) {
      return null;
    }
    var least = Math.min.apply(null, reach.map(function (trial) {
      return trial.gain;
    }));
    return reach
      .filter(function (trial) {
        return trial.gain === least;
      })
      .map(function (trial) {
        return trial.value;
      })
      .sort(before)[0];
  }

  // The conditions of the hand in play on ``table`` ({position, honba, deposits, scores}), as
  // manage.py all_last prints them: {places, seats: [{seat, place, to_reach: [{place, ron:
  // [{from, value}], tsumo}]}]}.
  function conditions(rules, table) {
    var n = rules.players;
    var places = placesOf(rules, table.scores);
    var seats = places.map(function (now, seat) {
      var others = [];
      for (var other = 0; other < n; other++) {
        if (other !== seat) {
          others.push(other);
        }
      }
      var rons = others.map(function (other) {
        return trials(rules, table, { outcome: "ron", winner: seat, loser: other });
      });
      var tsumo = trials(rules, table, { outcome: "tsumo", winner: seat });
      var toReach = [];
      for (var place = now - 1; place > 0; place--) {
        toReach.push({
          place: place,
          ron: others.map(function (other, i) {
            return { from: other, value: smallest(rons[i], place) };
          }),
          tsumo: smallest(tsumo, place),
        });
      }
      return { seat: seat, place: now, to_reach: toReach };
    });
    return { places: places, seats: seats };
  }

  // The hand in play can end the game: the all-last hand, or (where a bust ends the game) a
  // seat would bust paying the dealer's mangan ron with the honba.
  function canEndGame(rules, table) {
    if (rules.allLast.indexOf(table.position) >= 0) {
      return true;
    }
    if (rules.bustAt === null) {
      return false;
    }
    var ron = rules.hands.r01;
    var pays = -(ron.values.mangan[1] + table.honba * ron.honba[1]);
    return table.scores.some(function (score) {
      return score - pays <= rules.bustAt;
    });
  }

  // A pad value as the table screen words it: a limit's name, else what it pays, honba aside,
  // as its button on the pad ("3,900"; a tsumo "1,000/2,000", the dealer's "2,000 all").
  function valueWords(pad, value, dealer, tsumo) {
    var words = null;
    var mangan = null;
    pad.limits.forEach(function (limit) {
      if (limit.value === value) {
        words = limit.label;
      }
      if (limit.value === "mangan") {
        mangan = limit.label;
      }
    });
    if (words !== null) {
      return words;
    }
    var name = (dealer ? "dealer" : "") + (tsumo ? "Tsumo" : "Ron");
    var own = pad.pads[name.charAt(0).toLowerCase() + name.slice(1)];
    var join = tsumo && dealer ? " " : "";
    own.rows.forEach(function (row) {
      row.cells.forEach(function (cell) {
        if (cell && cell.value === value) {
          words = cell.capped ? mangan : cell.lines.join(join);
        }
      });
    });
    own.han.forEach(function (tap) {
      if (tap.value === value) {
        // Above 4 han the button names its limit; below, what it pays (or a kiriage mangan).
        words = Number(value) > 4 ? tap.lines[1] : tap.capped ? mangan : tap.lines.slice(1).join(join);
      }
    });
    return words;
  }

  function fill(text, slots) {
    return text.replace(/\{(\w+)\}/g, function (all, key) {
      return slots[key];
    });
  }

  // The ways to one place, in words (scoring/views/all_last_panel.py, _routes): the tsumo; the
  // ron from anyone where every discarder gives the same value; else, cheapest first, a direct
  // hit (one discarder, cheaper than another or the only one) or a ron from some.
  function routes(data, table, target, seat, names) {
    var rules = data.rules;
    var words = data.allLast;
    var dealer = seat === table.position % rules.players;
    var out = [];
    if (target.tsumo !== null) {
      out.push(fill(words.tsumo, { value: valueWords(data.pad, target.tsumo, dealer, true) }));
    }
    var byValue = {};
    var order = [];
    target.ron.forEach(function (ron) {
      if (ron.value !== null) {
        if (!byValue[ron.value]) {
          byValue[ron.value] = [];
          order.push(ron.value);
        }
        byValue[ron.value].push(ron.from);
      }
    });
    if (order.length === 1 && byValue[order[0]].length === target.ron.length) {
      out.push(fill(words.anyone, { value: valueWords(data.pad, order[0], dealer, false) }));
      return out;
    }
    // What a ron of the value pays the winner: the same order as its basic points.
    var kind = OfflineTable.kindOf(rules, table.position % rules.players, { outcome: "ron", winner: seat, loser: target.ron[0].from });
    function cost(value) {
      return value === null ? Infinity : rules.hands[kind].values[value][(seat - table.position % rules.players + rules.players) % rules.players];
    }
    order.sort(function (a, b) {
      return cost(a) - cost(b);
    });
    order.forEach(function (value) {
      var losers = byValue[value];
      var text = valueWords(data.pad, value, dealer, false);
      var cheaper = target.ron.some(function (ron) {
        return losers.indexOf(ron.from) < 0 && cost(ron.value) > cost(value);
      });
      if (losers.length === 1 && cheaper) {
        out.push(fill(words.direct, { value: text, name: names[losers[0]] }));
      } else {
        out.push(fill(words.from, { value: text, names: losers.map(function (s) { return names[s]; }).join(words.sep) }));
      }
    });
    return out;
  }

  // The panel's rows, as scoring/views/all_last_panel.py's all_last_rows: the players below the
  // top in seat order, each {seat, name, place, rows: [{place, routes}]}.
  function rows(data, table, names) {
    var found = conditions(data.rules, table);
    var places = data.allLast.places;
    return found.seats
      .filter(function (seat) {
        return seat.to_reach.length;
      })
      .map(function (seat) {
        return {
          seat: seat.seat,
          name: names[seat.seat],
          place: places[seat.place - 1],
          rows: seat.to_reach.map(function (target) {
            return { place: places[target.place - 1], routes: routes(data, table, target, seat.seat, names) };
          }),
        };
      });
  }

  var open = false;

  function node(tag, attrs, text) {
    var el = document.createElement(tag);
    Object.keys(attrs).forEach(function (key) {
      el.setAttribute(key, attrs[key]);
    });
    if (text !== undefined) {
      el.textContent = text;
    }
    return el;
  }

  // The conditions as the table screen draws them (templates/scoring/game_detail.html): a
  // closed <details>, its rows the players below the top.
  function details(data, table) {
    var words = data.allLast;
    var box = node("details", { class: "all-last offline-all-last", id: "offline-all-last" });
    box.open = open;
    box.addEventListener("toggle", function () {
      open = box.open;
    });
    box.appendChild(node("summary", {}, words.title));
    var list = box.appendChild(node("ul", { class: "all-last-seats" }));
    rows(data, table, data.seats).forEach(function (seat) {
      var item = list.appendChild(node("li", { class: "all-last-seat", id: "offline-all-last-" + seat.seat }));
      item.appendChild(node("b", {}, seat.name));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(node("span", { class: "all-last-now" }, seat.place));
      var places = item.appendChild(node("ul", { class: "all-last-places" }));
      seat.rows.forEach(function (row) {
        var line = places.appendChild(node("li", {}));
        line.appendChild(node("span", { class: "all-last-place" }, fill(words.to, { place: row.place })));
        if (!row.routes.length) {
          line.appendChild(node("span", { class: "all-last-route out-of-reach" }, words.out));
        }
        row.routes.forEach(function (route) {
          line.appendChild(node("span", { class: "all-last-route" }, route));
        });
      });
    });
    box.appendChild(node("p", { class: "all-last-note" }, words.note));
    return box;
  }

  // The offline panel's conditions (static/js/offline.js, at each drawing of the panel), for
  // ``table``, the one the next hand is entered on (null: not known), where its hand can end
  // the game. On the line that says where that table stands, as on the table screen, so that
  // closed they take no height of the entry's: the page's round line while it is that table
  // (``line`` is then hidden), where they stand in for the page's own; else ``line``.
  function show(data, table, line) {
    var old = document.getElementById("offline-all-last");
    if (old) {
      old.parentNode.removeChild(old);
    }
    var box = table && data.allLast && canEndGame(data.rules, table) ? details(data, table) : null;
    var onPage = document.getElementById("all-last");
    if (onPage) {
      onPage.hidden = !!box;
    }
    var roundLine = document.querySelector("#table-status .round-line");
    if (!box) {
      return;
    }
    if (line.classList.contains("as-on-page") && roundLine) {
      roundLine.appendChild(box);
    } else {
      line.insertBefore(box, line.firstChild);
    }
  }

  return { conditions: conditions, canEndGame: canEndGame, valueWords: valueWords, rows: rows, show: show };
});
