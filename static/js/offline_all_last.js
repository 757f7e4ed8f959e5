// The all-last conditions in the offline panel, as the table screen's (docs/all-last.md): each
// value played by OfflineTable.advance on the engine's figures, no rule restated here;
// scoring/engine/all_last.py and scoring/views/all_last_panel.py's choices and words.
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./offline_table.js"));
  } else {
    root.OfflineAllLast = factory(root.OfflineTable);
  }
})(typeof self !== "undefined" ? self : this, function (T) {
  "use strict";

  // A stable sort: equal scores stay in the engine's order.
  function placesOf(rules, scores) {
    var places = [];
    rules.tieOrder
      .slice()
      .sort(function (a, b) {
        return scores[b] - scores[a];
      })
      .forEach(function (seat, i) {
        places[seat] = i + 1;
      });
    return places;
  }

  // Per place: of the values that reach it, the least paid, then a limit, the fewest han, fu.
  function smallest(rules, table, hand, now) {
    var kind = T.kindOf(rules, table.position % rules.players, hand);
    function key(t) {
      var p = t.value.split("-");
      return t.gain * 1e7 + (/^\d/.test(t.value) ? 1e6 + p[0] * 1e3 + (+p[1] || 0) : 0);
    }
    var tried = [];
    Object.keys(rules.hands[kind].values).forEach(function (value) {
      var r = T.advance(rules, table, Object.assign({ value: value, riichi: [] }, hand));
      if (r.status === "ok") {
        tried.push({ value: value, gain: r.deltas[hand.winner], place: placesOf(rules, r.scores)[hand.winner] });
      }
    });
    tried.sort(function (a, b) {
      return key(a) - key(b);
    });
    var out = {};
    for (var place = now - 1; place > 0; place--) {
      out[place] = null;
      for (var i = tried.length - 1; i >= 0; i--) {
        if (tried[i].place <= place) {
          out[place] = tried[i].value;
        }
      }
    }
    return out;
  }

  // As manage.py all_last prints them.
  function conditions(rules, table) {
    var places = placesOf(rules, table.scores);
    return {
      places: places,
      seats: places.map(function (now, seat) {
        var others = places.map(function (_p, s) { return s; }).filter(function (s) { return s !== seat; });
        var rons = others.map(function (loser) {
          return smallest(rules, table, { outcome: "ron", winner: seat, loser: loser }, now);
        });
        var tsumo = smallest(rules, table, { outcome: "tsumo", winner: seat }, now);
        var to = [];
        for (var place = now - 1; place > 0; place--) {
          to.push({
            place: place,
            ron: others.map(function (loser, i) {
              return { from: loser, value: rons[i][place] };
            }),
            tsumo: tsumo[place],
          });
        }
        return { seat: seat, place: now, to_reach: to };
      }),
    };
  }

  function canEndGame(rules, table) {
    var ron = rules.hands.r01;
    var pays = -(ron.values.mangan[1] + table.honba * ron.honba[1]);
    return rules.allLast.indexOf(table.position) >= 0 || (rules.bustAt !== null && table.scores.some(function (s) {
      return s - pays <= rules.bustAt;
    }));
  }

  // As the pad's button: a limit's name, else what it pays (a counted han's first line, its han).
  function valueWords(pad, value, dealer, tsumo) {
    var own = pad.pads[tsumo ? (dealer ? "dealerTsumo" : "tsumo") : dealer ? "dealerRon" : "ron"];
    var limit = {};
    var words;
    pad.limits.forEach(function (l) {
      limit[l.value] = l.label;
    });
    [].concat.apply(own.han, own.rows.map(function (row) {
      return row.cells;
    })).forEach(function (c) {
      if (c && c.value === value) {
        words = c.capped ? limit.mangan : c.lines.slice(c.spoken ? 0 : 1).join(tsumo && dealer ? " " : "");
      }
    });
    return limit[value] || words;
  }

  function fill(text, slots) {
    return text.replace(/\{(\w+)\}/g, function (_all, k) {
      return slots[k];
    });
  }

  function routes(data, table, target, seat, names) {
    var rules = data.rules;
    var w = data.allLast;
    var n = rules.players;
    var dealer = table.position % n;
    var words = function (value, tsumo) {
      return valueWords(data.pad, value, seat === dealer, tsumo);
    };
    var out = target.tsumo === null ? [] : [fill(w.tsumo, { value: words(target.tsumo, true) })];
    var by = {};
    var order = [];
    target.ron.forEach(function (r) {
      if (r.value !== null) {
        (by[r.value] || (order.push(r.value), (by[r.value] = []))).push(r.from);
      }
    });
    if (order.length === 1 && by[order[0]].length === target.ron.length) {
      return out.concat(fill(w.anyone, { value: words(order[0]) }));
    }
    // What a ron pays goes as the basic points (all_last_panel.py's cost).
    var figures = rules.hands[T.kindOf(rules, dealer, { outcome: "ron", winner: seat, loser: target.ron[0].from })];
    function cost(value) {
      return value === null ? Infinity : figures.values[value][(seat - dealer + n) % n];
    }
    order.sort(function (a, b) {
      return cost(a) - cost(b);
    });
    return out.concat(order.map(function (value) {
      var losers = by[value];
      var cheaper = target.ron.some(function (r) {
        return losers.indexOf(r.from) < 0 && cost(r.value) > cost(value);
      });
      return losers.length === 1 && cheaper
        ? fill(w.direct, { value: words(value), name: names[losers[0]] })
        : fill(w.from, { value: words(value), names: losers.map(function (s) { return names[s]; }).join(w.sep) });
    }));
  }

  function rows(data, table, names) {
    var places = data.allLast.places;
    return conditions(data.rules, table).seats
      .filter(function (s) {
        return s.to_reach.length;
      })
      .map(function (s) {
        return {
          seat: s.seat,
          name: names[s.seat],
          place: places[s.place - 1],
          rows: s.to_reach.map(function (t) {
            return { place: places[t.place - 1], routes: routes(data, table, t, s.seat, names) };
          }),
        };
      });
  }

  var open = false;

  function el(parent, tag, cls, text) {
    var e = parent.appendChild(document.createElement(tag));
    e.className = cls || "";
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  // On the line saying where the table stands, so that closed they take no height: the page's
  // round line (instead of its own) while it is this table, else the panel's ``line``.
  function show(data, table, line) {
    var old = document.getElementById("offline-all-last");
    var page = document.getElementById("all-last");
    var round = document.querySelector("#table-status .round-line");
    var can = table && data.allLast && canEndGame(data.rules, table);
    if (old) {
      old.remove();
    }
    if (page) {
      page.hidden = !!can;
    }
    if (!can) {
      return;
    }
    var w = data.allLast;
    var box = document.createElement("details");
    box.className = "all-last";
    box.id = "offline-all-last";
    box.open = open;
    box.ontoggle = function () {
      open = box.open;
    };
    el(box, "summary", "", w.title);
    var list = el(box, "ul", "all-last-seats");
    rows(data, table, data.seats).forEach(function (s) {
      var item = el(list, "li", "all-last-seat");
      item.id = "offline-all-last-" + s.seat;
      el(item, "b", "", s.name);
      item.append(" ");
      el(item, "span", "all-last-now", s.place);
      var places = el(item, "ul", "all-last-places");
      s.rows.forEach(function (row) {
        var li = el(places, "li");
        el(li, "span", "all-last-place", fill(w.to, { place: row.place }));
        (row.routes.length ? row.routes : [w.out]).forEach(function (route) {
          el(li, "span", "all-last-route" + (row.routes.length ? "" : " out-of-reach"), route);
        });
      });
    });
    el(box, "p", "all-last-note", w.note);
    if (line.classList.contains("as-on-page") && round) {
      round.append(box);
    } else {
      line.prepend(box);
    }
  }

  return { conditions: conditions, canEndGame: canEndGame, rows: rows, show: show };
});
