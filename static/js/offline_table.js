// The table after each hand kept offline: a pure function, used by the page
// (static/js/offline.js) and by tests/test_offline_agreement.py under Node.
//
// It holds no rule of the game. Every figure comes from the engine through the page
// (#offline-values: scoring/entry/offline_data.py, offline_rules): each seat's change per kind of
// hand and value, per honba and per deposit on the table; the position and honba after each
// kind of hand at each position, or the way the game ends; the riichi minimum and the bust
// line. Where the engine's answer depends on more than these (a dealer-top end, an extension
// target), the data say null and so does this: no figure rather than a wrong one.
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.OfflineTable = factory();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The kind of a hand as offline_rules keys it: seats counted from the dealer.
  function kindOf(rules, dealer, hand) {
    var n = rules.players;
    function rel(seat) {
      return (seat - dealer + n) % n;
    }
    if (hand.outcome === "ron") {
      return "r" + rel(hand.winner) + rel(hand.loser);
    }
    if (hand.outcome === "tsumo") {
      return "t" + rel(hand.winner);
    }
    var mask = 0;
    hand.tenpai.forEach(function (seat) {
      mask |= 1 << rel(seat);
    });
    return "d" + mask;
  }

  // One hand on ``table`` ({position, honba, deposits, scores}, or null when unknown, or
  // {ended}). Returns {status, deltas, scores, deposits, ended, table}: status "ok" (the
  // figures; ``table`` the table after it, null when offline cannot know it), "refused"
  // (the engine would refuse this hand here), "over" (the game has ended), "unknown" (the
  // table before it is not known).
  function advance(rules, table, hand) {
    if (!table || !hand) {
      return { status: "unknown" };
    }
    if (table.ended) {
      return { status: "over" };
    }
    var n = rules.players;
    var dealer = table.position % n;
    var kind = kindOf(rules, dealer, hand);
    var figures = rules.hands[kind];
    var value = hand.outcome === "draw" ? "" : hand.value;
    var base = figures ? figures.values[value] : undefined;
    var from = hand.outcome === "draw" ? undefined : rules.refusedFrom[hand.outcome][value];
    if (!base || (from !== undefined && table.honba >= from)) {
      return { status: "refused" };
    }
    var riichi = hand.riichi || [];
    for (var i = 0; i < riichi.length; i++) {
      if (rules.riichiFrom !== null && table.scores[riichi[i]] < rules.riichiFrom) {
        return { status: "refused" };
      }
    }
    var pot = table.deposits + rules.stick * riichi.length;
    var deltas = [];
    var scores = [];
    var taken = 0;
    for (var s = 0; s < n; s++) {
      var r = (s - dealer + n) % n;
      var delta = base[r] + table.honba * figures.honba[r] + pot * figures.pot[r];
      if (riichi.indexOf(s) >= 0) {
        delta -= rules.stick;
      }
      taken += pot * figures.pot[r];
      deltas.push(delta);
      scores.push(table.scores[s] + delta);
    }
    var deposits = pot - taken;
    var result = { status: "ok", deltas: deltas, scores: scores, deposits: deposits, ended: null, table: null };
    var bust = rules.bustAt !== null && scores.some(function (score) {
      return score <= rules.bustAt;
    });
    var next = bust ? "tobi" : rules.next[table.position][kind];
    if (next && next.gate !== undefined) {
      // An extension's target: the top score after the hand decides (offline_rules, _gate).
      next = Math.max.apply(null, scores) >= next.gate ? next.above : next.below;
    }
    if (typeof next === "string") {
      result.ended = next;
      result.table = { ended: next, scores: scores, deposits: deposits };
    } else if (next) {
      result.table = { position: next[0], honba: next[1] * table.honba + next[2], deposits: deposits, scores: scores };
    }
    return result;
  }

  // Every queued hand in order from ``table``: {results: one per hand (see advance), after:
  // the table after the last}. After a hand offline cannot follow (refused, or the table
  // after it unknown), none has a figure.
  function advanceAll(rules, table, hands) {
    var results = [];
    var current = table;
    hands.forEach(function (hand) {
      var result = advance(rules, current, hand);
      results.push(result);
      current = result.status === "ok" ? result.table : result.status === "over" ? current : null;
    });
    return { results: results, after: current };
  }

  return { advance: advance, advanceAll: advanceAll, kindOf: kindOf };
});
