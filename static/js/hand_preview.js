// A hand's preview drawn on the phone: who pays whom, each seat's change and score, the
// deposits after, and the next hand, for the hands the engine's figures cover (a ron with one
// winner, a tsumo, an exhaustive draw, with riichi). A pure function, used by the table
// screen (static/js/table_preview.js) and by tests/test_hand_preview_agreement.py under
// Node, which finds it equal, line for line, to the server's preview
// (scoring/views/previews.py) over 13 rulesets.
//
// It holds no rule of the game. The money comes from static/js/offline_table.js (the engine's
// figures: each seat's change per kind of hand and value, per honba, per deposit); the lines
// are the engine's order of payments (scoring/engine/hand_outcomes.py): riichi sticks to the
// table, then the value from each payer in seat order, each followed by its honba, then the
// deposits to the winner; a draw's noten payments one line a noten player. Where the figures
// cannot tell (a hand that ends the game: its settlement depends on ranks and uma; a table
// offline cannot follow), the answer is null and the server is asked.
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./offline_table.js"));
  } else {
    root.HandPreview = factory(root.OfflineTable);
  }
})(typeof self !== "undefined" ? self : this, function (OfflineTable) {
  "use strict";

  var MINUS = "\u2212";

  // 25000 -> "25,000"; -8000 -> "−8,000" (clubsite.formatting.format_points).
  function points(n) {
    var text = Math.abs(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return n < 0 ? MINUS + text : text;
  }

  // "+3,900", "−3,900", "0" (clubsite.formatting.signed_points) and its colour class.
  function delta(n) {
    return { text: n > 0 ? "+" + points(n) : points(n), sign: n > 0 ? "plus" : n < 0 ? "minus" : "zero" };
  }

  // The engine's payments of ``hand`` on ``table``: [{payer, payee, amount, reason}], seats as
  // indexes, null the table; null where the figures do not give the hand (see advance).
  function payments(rules, table, hand, result) {
    if (!result || result.status !== "ok") {
      return null;
    }
    var n = rules.players;
    var dealer = table.position % n;
    var kind = OfflineTable.kindOf(rules, dealer, hand);
    var figures = rules.hands[kind];
    var base = figures.values[hand.outcome === "draw" ? "" : hand.value];
    function rel(seat) {
      return (seat - dealer + n) % n;
    }
    var out = [];
    function pay(payer, payee, amount, reason) {
      if (amount > 0) {
        out.push({ payer: payer, payee: payee, amount: amount, reason: reason });
      }
    }
    var riichi = hand.riichi || [];
    riichi.forEach(function (seat) {
      pay(seat, null, rules.stick, "riichi");
    });
    var pot = table.deposits + rules.stick * riichi.length;
    if (hand.outcome === "draw") {
      var tenpai = hand.tenpai.slice().sort(function (a, b) { return a - b; });
      for (var payer = 0; payer < n; payer++) {
        if (tenpai.indexOf(payer) < 0 && tenpai.length) {
          tenpai.forEach(function (payee) {
            pay(payer, payee, -base[rel(payer)] / tenpai.length, "noten");
          });
        }
      }
      return out;
    }
    var winner = hand.winner;
    var payers = hand.outcome === "ron" ? [hand.loser] : [];
    if (hand.outcome === "tsumo") {
      for (var seat = 0; seat < n; seat++) {
        if (seat !== winner) {
          payers.push(seat);
        }
      }
    }
    payers.forEach(function (seat) {
      pay(seat, winner, -base[rel(seat)], hand.outcome);
      if (hand.outcome === "tsumo") {
        pay(seat, winner, -table.honba * figures.honba[rel(seat)], "honba");
      }
    });
    if (hand.outcome === "ron") {
      pay(hand.loser, winner, table.honba * figures.honba[rel(winner)], "honba");
    }
    pay(null, winner, pot, "deposits");
    return out;
  }

  function nameOf(words, names, seat) {
    return seat === null ? words.table : names[seat];
  }

  // The payments as the table reads them (scoring.views.display.payment_lines): a draw's noten
  // payments one line a noten player, to the tenpai players named together.
  function lines(paid, names, words) {
    var out = [];
    var noten = {};
    paid.forEach(function (p) {
      if (p.reason === "noten") {
        if (!noten[p.payer]) {
          noten[p.payer] = { payer: names[p.payer], payees: [], amount: 0, reason: words.reasons.noten };
          out.push(noten[p.payer]);
        }
        noten[p.payer].payees.push(names[p.payee]);
        noten[p.payer].amount += p.amount;
        return;
      }
      out.push({ payer: nameOf(words, names, p.payer), payee: nameOf(words, names, p.payee), amount: p.amount, reason: words.reasons[p.reason] || p.reason });
    });
    return out.map(function (line) {
      return {
        payer: line.payer,
        payee: line.payees ? line.payees.join(", ") : line.payee,
        amount: points(line.amount),
        reason: line.reason,
      };
    });
  }

  // What changes hands, netted, as the confirm bar says it
  // (scoring.views.display.net_payment_lines): each payer and payee once in the order first
  // paid, a winner's own riichi stick not shown going to the table and back.
  function netLines(paid, names, words) {
    if (paid.some(function (p) { return p.reason === "noten"; })) {
      return lines(paid, names, words).map(function (line) {
        return { payer: line.payer, payee: line.payee, amount: line.amount, reason: line.reason };
      });
    }
    var keys = [];
    var flows = {};
    paid.forEach(function (p) {
      var key = p.payer + ">" + p.payee;
      if (!(key in flows)) {
        keys.push([p.payer, p.payee]);
        flows[key] = 0;
      }
      flows[key] += p.amount;
    });
    keys.forEach(function (pair) {
      var payer = pair[0];
      var payee = pair[1];
      var back = payer !== null && payee === null ? flows["null>" + payer] || 0 : 0;
      if (back) {
        var returned = Math.min(flows[payer + ">null"], back);
        flows[payer + ">null"] -= returned;
        flows["null>" + payer] -= returned;
      }
    });
    return keys
      .filter(function (pair) { return flows[pair[0] + ">" + pair[1]]; })
      .map(function (pair) {
        return { payer: nameOf(words, names, pair[0]), payee: nameOf(words, names, pair[1]), amount: points(flows[pair[0] + ">" + pair[1]]), reason: "" };
      });
  }

  // The preview of ``hand`` on ``table`` ({position, honba, deposits, scores}), as the
  // server's (scoring.views.display.Preview): {payments, summary, seats: [{name, delta,
  // score}], depositsAfter, next: {round, honba, dealer, renchan}}; or null where the figures
  // cannot tell (the hand ends the game, is refused, or leads to a table they cannot follow):
  // then the server is asked.
  function preview(values, table, hand, names) {
    var rules = values.rules;
    var result = OfflineTable.advance(rules, table, hand);
    if (result.status !== "ok" || result.ended || !result.table) {
      return null;
    }
    var paid = payments(rules, table, hand, result);
    var words = values.previewWords;
    var n = rules.players;
    var after = result.table;
    return {
      payments: lines(paid, names, words),
      summary: netLines(paid, names, words),
      seats: names.map(function (name, seat) {
        return { name: name, delta: delta(result.deltas[seat]), score: points(result.scores[seat]) };
      }),
      depositsAfter: points(result.deposits),
      next: {
        round: values.roundLabels[after.position],
        honba: values.honbaLabel.replace("{n}", String(after.honba)),
        dealer: names[after.position % n],
        renchan: after.position % n === table.position % n,
      },
    };
  }

  return { preview: preview, payments: payments, lines: lines, netLines: netLines, points: points };
});
