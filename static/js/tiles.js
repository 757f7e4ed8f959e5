// The tile keyboard of the hand form: an optional way to give a winner's
// value by the hand's tiles; the han/fu pad stays the quick path.
//
// One tap per tile: suit rows with a red five, a tile greyed once all its copies are used;
// a mode for calls (chi, pon, open kan, closed kan) and for the dora and ura indicators; the
// last tile entered is the winning tile, or tap another tile of the hand. The keyboard only
// writes the hidden field tiles_<seat> (the hand-value contract's keys, JSON); the server
// values the tiles under the game's ruleset and shows the yaku and fu in the preview
// (scoring/entry/tile_entry.py), so the page and the ledger never value a hand differently.
//
// The keys are the ruleset's set (templates/scoring/_tile_keyboard.html): no 2m-8m
// in a 3-player set, a red five key only where the set has red fives of that suit (two red 5p
// in 003's yellow set, L91-94: the key takes two), a note where every five of a suit is a dora
// (004 L22-23), and keys for the north (kita) and flowers set aside as nuki dora where the set
// has them (Tenhou's and 002's 3-player north, 004's four flowers).
//
// 004's set has three red and one gold five of pinzu and souzu (L22-23): the
// 0p/0s keys take three taps, the 5p/5s keys are the gold fives (one tap, drawn gold; a plain 5
// of such a set is its gold five, scoring/tiles/notation.py), and the 白ポッチ (L39) is the
// key 0z after haku, drawn 白 with a dot.
(function () {
  "use strict";

  var SUITED = ["1", "2", "3", "4", "5", "0", "6", "7", "8", "9"];
  var HONOUR_KEYS = ["1", "2", "3", "4", "5", "6", "7"];
  var HONOURS = { 1: "東", 2: "南", 3: "西", 4: "北", 5: "白", 6: "發", 7: "中" };
  var SUIT_MARKS = { m: "萬", p: "筒", s: "索" };
  var MELD_SIZE = { chi: 3, pon: 3, kan: 4, ankan: 4 };

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

  // "067m11p" -> ["0m", "6m", "7m", "1p", "1p"]
  function split(text) {
    var tiles = [];
    var digits = [];
    (text || "").split("").forEach(function (ch) {
      if ("mpsz".indexOf(ch) >= 0) {
        digits.forEach(function (d) {
          tiles.push(d + ch);
        });
        digits = [];
      } else if (/[0-9]/.test(ch)) {
        digits.push(ch);
      }
    });
    return tiles;
  }

  function join(tiles) {
    var groups = { m: [], p: [], s: [], z: [] };
    tiles.forEach(function (tile) {
      groups[tile[1]].push(tile[0]);
    });
    return ["m", "p", "s", "z"]
      .filter(function (suit) {
        return groups[suit].length;
      })
      .map(function (suit) {
        return groups[suit].join("") + suit;
      })
      .join("");
  }

  function kind(tile) {
    return (tile[0] === "0" ? "5" : tile[0]) + tile[1];
  }

  function face(tile) {
    if (tile === "0z") {
      return HONOURS[5] + "•";
    }
    if (tile[1] === "z") {
      return HONOURS[tile[0]];
    }
    return (tile[0] === "0" ? "5" : tile[0]) + SUIT_MARKS[tile[1]];
  }

  function mount(root) {
    if (root.dataset.mounted) {
      return;
    }
    root.dataset.mounted = "1";
    var form = root.closest("form");
    var input = form && form.querySelector("input[name='" + root.dataset.field + "']");
    if (!input) {
      return;
    }
    var labels = JSON.parse(root.dataset.labels || "{}");
    // The situational flags' keys: the engine's list (scoring/engine/situations.py), as the
    // page renders it.
    var FLAGS = JSON.parse(root.dataset.flags || "[]");
    var tileSet = readSet(root.dataset);
    var state = load(input.value);
    var mode = "hand";
    var pending = [];

    function load(text) {
      var spec = {};
      try {
        spec = text ? JSON.parse(text) : {};
      } catch (error) {
        spec = {};
      }
      var hand = split(spec.hand);
      var win = null;
      if (spec.win_tile) {
        for (var i = hand.length - 1; i >= 0; i--) {
          if (hand[i] === spec.win_tile) {
            win = i;
            break;
          }
        }
      }
      var flags = {};
      FLAGS.forEach(function (flag) {
        flags[flag] = !!spec[flag];
      });
      return {
        hand: hand,
        win: win,
        kita: Math.min(Number(spec.kita) || 0, tileSet.kita),
        flowers: Math.min(Number(spec.flowers) || 0, tileSet.flowers),
        melds: (spec.melds || []).map(function (meld) {
          return { type: meld.type, tiles: split(meld.tiles) };
        }),
        dora: split((spec.dora_indicators || []).join("")),
        ura: split((spec.ura_indicators || []).join("")),
        flags: flags,
      };
    }

    function allTiles() {
      var tiles = state.hand.concat(state.dora, state.ura, pending);
      for (var k = 0; k < state.kita; k++) {
        tiles.push("4z");
      }
      state.melds.forEach(function (meld) {
        tiles = tiles.concat(meld.tiles);
      });
      return tiles;
    }

    function copies(tile) {
      return allTiles().filter(function (t) {
        return tile[0] === "0" ? t === tile : kind(t) === kind(tile);
      }).length;
    }

    function exactly(tile) {
      return allTiles().filter(function (t) {
        return t === tile;
      }).length;
    }

    // How many of a key the set has: its red fives, its one 白ポッチ, the fives not red of a
    // suit with gold fives; four of any other tile.
    function most(tile) {
      if (tile === "0z") {
        return tileSet.pocchi ? 1 : 0;
      }
      if (tile[0] === "0") {
        return tileSet.red[tile[1]];
      }
      if (tile[0] === "5" && tileSet.gold[tile[1]]) {
        return 4 - tileSet.red[tile[1]];
      }
      return 4;
    }

    function handSize() {
      return state.hand.length + 3 * state.melds.length;
    }

    function spec() {
      if (!state.hand.length) {
        return null;
      }
      var out = { hand: join(state.hand) };
      if (state.melds.length) {
        out.melds = state.melds.map(function (meld) {
          return { type: meld.type, tiles: join(meld.tiles) };
        });
      }
      out.win_tile = state.hand[state.win === null ? state.hand.length - 1 : state.win];
      if (state.dora.length) {
        out.dora_indicators = state.dora;
      }
      if (state.ura.length) {
        out.ura_indicators = state.ura;
      }
      FLAGS.forEach(function (flag) {
        if (state.flags[flag]) {
          out[flag] = true;
        }
      });
      if (state.kita) {
        out.kita = state.kita;
      }
      if (state.flowers) {
        out.flowers = state.flowers;
      }
      return out;
    }

    function save() {
      var value = spec();
      input.value = value ? JSON.stringify(value) : "";
    }

    function check() {
      save();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    function tap(tile) {
      if (mode === "hand") {
        if (handSize() >= 14) {
          return;
        }
        state.hand.push(tile);
        state.win = state.hand.length - 1;
        if (handSize() === 14) {
          check();
          return;
        }
      } else if (mode === "dora" || mode === "ura") {
        var list = state[mode];
        if (list.length < 5) {
          list.push(tile);
        }
      } else {
        pending.push(tile);
        if (pending.length === MELD_SIZE[mode]) {
          if (validMeld(mode, pending)) {
            state.melds.push({ type: mode, tiles: pending });
          }
          pending = [];
          mode = "hand";
        }
      }
      save();
      draw();
    }

    function validMeld(type, tiles) {
      var kinds = tiles.map(kind).sort();
      if (type === "chi") {
        var suit = kinds[0][1];
        var numbers = kinds.map(function (k) {
          return Number(k[0]);
        });
        return (
          suit !== "z" &&
          kinds.every(function (k) {
            return k[1] === suit;
          }) &&
          numbers[1] === numbers[0] + 1 &&
          numbers[2] === numbers[1] + 1
        );
      }
      return kinds.every(function (k) {
        return k === kinds[0];
      });
    }

    function tileButton(tile, extra) {
      var button = node("button", { type: "button", class: "kb-tile" + (extra || "") });
      button.appendChild(node("span", {}, face(tile)));
      if (tile === "0z") {
        button.classList.add("pocchi");
      } else if (tile[0] === "0") {
        button.classList.add("red");
      } else if (tile[0] === "5" && tileSet.gold[tile[1]]) {
        button.classList.add("gold");
      }
      return button;
    }

    function draw() {
      root.textContent = "";
      // What is entered: the hand (tap a tile to make it the winning tile), the calls, the
      // indicators.
      var shown = node("div", { class: "kb-hand", "aria-label": labels.hand });
      state.hand.forEach(function (tile, index) {
        var isWin = index === (state.win === null ? state.hand.length - 1 : state.win);
        var button = tileButton(tile, isWin ? " win" : "");
        button.setAttribute("aria-pressed", String(isWin));
        button.addEventListener("click", function () {
          state.win = index;
          save();
          draw();
        });
        shown.appendChild(button);
      });
      state.melds.forEach(function (meld) {
        var group = node("span", { class: "kb-meld", "data-type": meld.type });
        meld.tiles.forEach(function (tile) {
          group.appendChild(tileButton(tile, ""));
        });
        shown.appendChild(group);
      });
      root.appendChild(shown);
      if (state.hand.length) {
        root.appendChild(node("p", { class: "kb-hint" }, labels.win));
      }
      if (state.dora.length || state.ura.length) {
        root.appendChild(
          node("p", { class: "kb-indicators" }, labels.indicators + ": " + state.dora.map(face).join(" ") + (state.ura.length ? " / " + state.ura.map(face).join(" ") : ""))
        );
      }
      // Modes.
      var modes = node("div", { class: "kb-modes" });
      ["hand", "chi", "pon", "kan", "ankan", "dora", "ura"].forEach(function (name) {
        var button = node("button", { type: "button", class: "kb-mode", "aria-pressed": String(mode === name), "data-mode": name }, labels[name]);
        button.addEventListener("click", function () {
          mode = name;
          pending = [];
          draw();
        });
        modes.appendChild(button);
      });
      root.appendChild(modes);
      // The keys of the ruleset's set.
      tileSet.rows.forEach(function (row) {
        var keys = node("div", { class: "kb-row kb-" + row[0] });
        if (row[1].length !== (row[0] === "z" ? 7 : 10)) {
          keys.style.gridTemplateColumns = "repeat(" + row[1].length + ", minmax(0, 1fr))";
        }
        row[1].forEach(function (digit) {
          var tile = digit + row[0];
          var button = tileButton(tile, "");
          button.setAttribute("data-tile", tile);
          var full = most(tile) < 4 ? exactly(tile) >= most(tile) : copies(tile) >= 4;
          button.disabled = full || copies(kind(tile)) >= 4;
          button.addEventListener("click", function () {
            tap(tile);
          });
          keys.appendChild(button);
        });
        root.appendChild(keys);
      });
      if (tileSet.fiveDora.length) {
        root.appendChild(
          node("p", { class: "kb-hint kb-five-dora" }, tileSet.labels.fiveDora + " " + tileSet.fiveDora.map(function (suit) {
            return face("5" + suit);
          }).join(" "))
        );
      }
      // Tiles set aside as nuki dora: each tap adds one, past the last back to none.
      var asides = [];
      if (tileSet.kita) {
        asides.push(["kita", tileSet.labels.kita + " " + HONOURS[4], tileSet.kita]);
      }
      if (tileSet.flowers) {
        asides.push(["flowers", tileSet.labels.flower, tileSet.flowers]);
      }
      if (asides.length) {
        var aside = node("div", { class: "kb-flags kb-aside" });
        asides.forEach(function (item) {
          var name = item[0];
          var most = name === "kita" ? Math.min(item[2], 4 - copies("4z") + state.kita) : item[2];
          var button = node("button", { type: "button", class: "kb-flag", "aria-pressed": String(state[name] > 0), "data-aside": name }, item[1] + " ×" + state[name]);
          button.addEventListener("click", function () {
            state[name] = state[name] >= most ? 0 : state[name] + 1;
            save();
            draw();
          });
          aside.appendChild(button);
        });
        root.appendChild(aside);
      }
      // Situational yaku no tile shows.
      var flags = node("div", { class: "kb-flags" });
      FLAGS.forEach(function (flag) {
        // Renhou only where the ruleset has it (Makura §44m, 002 S-20); tenhou and chiihou
        // are valued never added to another yakuman where the seed says so.
        if (flag === "renhou" && !root.dataset.renhou) {
          return;
        }
        var button = node("button", { type: "button", class: "kb-flag", "aria-pressed": String(!!state.flags[flag]), "data-flag": flag }, labels[flag]);
        button.addEventListener("click", function () {
          state.flags[flag] = !state.flags[flag];
          save();
          draw();
        });
        flags.appendChild(button);
      });
      root.appendChild(flags);
      var actions = node("div", { class: "kb-actions" });
      var back = node("button", { type: "button", class: "secondary", "data-action": "back" }, labels.back);
      back.addEventListener("click", function () {
        if (pending.length) {
          pending.pop();
        } else if (mode === "dora" || mode === "ura") {
          state[mode].pop();
        } else if (state.hand.length) {
          state.hand.pop();
          state.win = null;
        } else {
          state.melds.pop();
        }
        save();
        draw();
      });
      var clear = node("button", { type: "button", class: "secondary", "data-action": "clear" }, labels.clear);
      clear.addEventListener("click", function () {
        state = load("");
        pending = [];
        mode = "hand";
        check();
        draw();
      });
      var value = node("button", { type: "button", class: "primary", "data-action": "check" }, labels.check);
      value.disabled = handSize() !== 14;
      value.addEventListener("click", check);
      actions.appendChild(back);
      actions.appendChild(clear);
      actions.appendChild(value);
      root.appendChild(actions);
    }

    draw();
  }

  // The ruleset's set from the keyboard's data attributes; without them, Tenhou's 4-player
  // set (one red five a suit, nothing set aside).
  function readSet(data) {
    var three = data.players === "3";
    var redText = data.red === undefined ? "mps" : data.red;
    var red = { m: 0, p: 0, s: 0 };
    redText.split("").forEach(function (suit) {
      red[suit] += 1;
    });
    var gold = { m: 0, p: 0, s: 0 };
    (data.gold || "").split("").forEach(function (suit) {
      gold[suit] += 1;
    });
    var pocchi = !!data.pocchi;
    var rows = ["m", "p", "s"].map(function (suit) {
      var digits = SUITED.filter(function (digit) {
        if (digit === "0") {
          return red[suit] > 0 && !(three && suit === "m");
        }
        return !(three && suit === "m" && digit !== "1" && digit !== "9");
      });
      return [suit, digits];
    });
    rows.push(["z", pocchi ? HONOUR_KEYS.slice(0, 5).concat(["0"], HONOUR_KEYS.slice(5)) : HONOUR_KEYS]);
    return {
      rows: rows,
      red: red,
      gold: gold,
      pocchi: pocchi,
      // The note is for a suit whose fives are all dora and have no red or gold key.
      fiveDora: (data.fiveDora || "").split("").filter(function (suit) {
        return suit && !red[suit] && !gold[suit];
      }),
      kita: Number(data.kita) || 0,
      flowers: Number(data.flowers) || 0,
      labels: { kita: data.labelKita || "", flower: data.labelFlower || "", fiveDora: data.labelFiveDora || "" },
    };
  }

  function mountAll() {
    document.querySelectorAll(".tile-keyboard").forEach(mount);
  }

  document.addEventListener("DOMContentLoaded", mountAll);
  document.addEventListener("htmx:afterSettle", mountAll);
  // A value pad the phone drew itself (static/js/table_steps.js).
  document.addEventListener("clubsite:drawn", mountAll);
})();
