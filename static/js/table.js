// The table screen's hand form, on top of htmx.
//
// - A tap right after a recorded hand lands (one in the following second was once dropped
//   without a word): the next hand's first tap is taken at once. The second half of a double
//   tap on the confirm button meets the fresh form's confirm, which is disabled (and looks it)
//   until an outcome is tapped, so it cannot replace "recorded" with "choose how the hand
//   ended".
// - The taps of an unfinished hand survive a reload: kept in the tab's sessionStorage per game
//   and version, sent to the preview again on load, dropped once the hand is recorded (or the
//   game moved on: another version is another key).
//
// - Where the page stands after an answer: a recorded hand, and an undo, bring the notice and
//   the next hand's first step into view (the page no longer stays scrolled down on the chart
//   or the actions); a void keeps the actions where the finger is, the hand entry above having
//   gone, and shows its result there, in place of the button tapped. When the tile keyboard has
//   just valued a hand, its result (han, fu, yaku) is scrolled up from under the confirm bar.
//
// Everything works without this file; it only smooths the phone at the table.
(function () {
  "use strict";

  var PREFIX = "clubsite:taps:";
  // The viewport top of the actions (a void) when one of them was tapped; null otherwise.
  var actionsTop = null;
  // An undo was asked for: its answer brings the hand entry into view.
  var undoing = false;
  // Whether the tiles were already valued when a preview was asked for.
  var valuedBefore = false;

  function handForm() {
    return document.getElementById("hand-form");
  }

  function keyOf(form) {
    var version = form.querySelector("input[name=version]");
    return PREFIX + form.getAttribute("action") + ":" + (version ? version.value : "");
  }

  function tapsOf(form) {
    var taps = [];
    form.querySelectorAll("input[type=radio]:checked, input[type=checkbox]:checked").forEach(
      function (input) {
        taps.push([input.name, input.value]);
      }
    );
    return taps;
  }

  function save(form) {
    try {
      var taps = tapsOf(form);
      if (taps.length) {
        sessionStorage.setItem(keyOf(form), JSON.stringify(taps));
      } else {
        sessionStorage.removeItem(keyOf(form));
      }
    } catch (error) {
      // Storage full or forbidden (private mode): the taps are simply not kept.
    }
  }

  function forget(form) {
    var prefix = PREFIX + form.getAttribute("action") + ":";
    try {
      for (var i = sessionStorage.length - 1; i >= 0; i--) {
        var key = sessionStorage.key(i);
        if (key && key.indexOf(prefix) === 0) {
          sessionStorage.removeItem(key);
        }
      }
    } catch (error) {
      // Nothing stored then.
    }
  }

  function restore(form) {
    if (tapsOf(form).length) {
      return; // The page already shows taps (a preview without JavaScript, an error).
    }
    var taps;
    try {
      taps = JSON.parse(sessionStorage.getItem(keyOf(form)) || "null");
    } catch (error) {
      taps = null;
    }
    var steps = form.querySelector("[hx-post]");
    if (!taps || !taps.length || !steps || !window.htmx) {
      return;
    }
    var values = {};
    taps.forEach(function (tap) {
      var name = tap[0];
      var value = tap[1];
      if (values[name] === undefined) {
        values[name] = value;
      } else {
        values[name] = [].concat(values[name], value);
      }
    });
    window.htmx.ajax("POST", steps.getAttribute("hx-post"), {
      source: form,
      target: "#hand-entry",
      swap: "outerHTML",
      values: values,
    });
  }

  function settled(event) {
    var form = handForm();
    var entry = document.getElementById("hand-entry");
    // Only the answer to a confirm (the hand form's own POST) starts the quiet second; an
    // out-of-band swap or a preview settling later must not.
    var config = event && event.detail && event.detail.requestConfig;
    var confirmed =
      config && form && config.verb === "post" && config.path === form.getAttribute("action");
    if (event && event.target !== entry) {
      return;
    }
    if (confirmed && entry && entry.querySelector(".notice.success")) {
      forget(form);
      bringIntoView(entry);
    }
    if (undoing && entry) {
      undoing = false;
      actionsTop = null;
      showEntry(entry);
    } else if (actionsTop !== null && entry) {
      keepActions(entry, actionsTop);
      actionsTop = null;
    } else {
      // The result of an undo or a void, said in place, is old news after the next tap.
      document.querySelectorAll("#game-actions > .notice.in-place").forEach(function (notice) {
        notice.remove();
      });
    }
    if (form) {
      save(form);
    }
  }

  // The notice and the next hand's first step, when a long hand left them above the screen.
  function bringIntoView(entry) {
    var steps = entry.querySelector(".hand-steps");
    var bar = entry.querySelector(".form-buttons");
    var below =
      steps && bar && steps.getBoundingClientRect().bottom > bar.getBoundingClientRect().top;
    if (entry.getBoundingClientRect().top < 0 || below) {
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    }
  }

  // After an undo: the hand entry, with the answer's notice at its top and the hand taken back
  // to be entered again, is where the page stands (the actions, far below, have nothing more
  // to show). Scrolled only if the notice is above the screen or the first step under the bar.
  function showEntry(entry) {
    var notice = entry.querySelector(":scope > .notice");
    var first = entry.querySelector(".hand-steps .step");
    var bar = entry.querySelector(".form-buttons");
    var top = (notice || entry).getBoundingClientRect().top;
    var below = first && bar && first.getBoundingClientRect().bottom > bar.getBoundingClientRect().top;
    if (top < 0 || below) {
      window.scrollTo({ top: Math.max(window.scrollY + top - 8, 0), left: 0, behavior: "instant" });
    }
  }

  // After a void: the answer's notice moves to the top of the actions, and the
  // page scrolls by as much as the hand entry above grew or shrank, so the actions (and the
  // notice now first among them) stay under the finger.
  function keepActions(entry, top) {
    var actions = document.getElementById("game-actions");
    var notice = entry.querySelector(":scope > .notice");
    if (!actions) {
      return;
    }
    if (notice) {
      notice.classList.add("in-place");
      actions.insertBefore(notice, actions.firstChild);
    }
    var want = window.scrollY + actions.getBoundingClientRect().top - top;
    var most = document.documentElement.scrollHeight - window.innerHeight;
    if (want > most) {
      // The page lost more below than it can scroll (a void takes the buttons away): room
      // under the actions rather than a jump.
      actions.style.paddingBottom = want - most + "px";
    }
    window.scrollTo({ top: Math.max(want, 0), left: 0, behavior: "instant" });
  }

  // The tiles' value, just shown below the keyboard, lifted from under the confirm bar by as
  // little as it takes (the keys were tapped; the hand is complete).
  function revealTiles(form) {
    var results = form.querySelectorAll(".tile-result, .tile-warning");
    var bar = form.querySelector(".form-buttons");
    if (!results.length || !bar) {
      return;
    }
    var below = results[results.length - 1].getBoundingClientRect().bottom;
    var barTop = bar.getBoundingClientRect().top;
    if (below > barTop) {
      window.scrollBy({ top: below - barTop, left: 0, behavior: "instant" });
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var actions = document.getElementById("game-actions");
    var form = handForm();
    if (actions && event.target && actions.contains(event.target)) {
      var path = event.detail && event.detail.requestConfig && event.detail.requestConfig.path;
      undoing = !!path && /\/undo\/$/.test(path);
      actionsTop = actions.getBoundingClientRect().top;
    }
    valuedBefore = !!(form && form.querySelector(".tile-result, .tile-warning"));
  });

  document.addEventListener("change", function (event) {
    var form = handForm();
    if (form && form.contains(event.target)) {
      save(form);
    }
  });

  // A riichi tapped in a ron or tsumo before its value changes nothing the server draws: no
  // payments are shown yet, and no step depends on it unless an open riichi is tapped or the
  // winner's tiles are valued (riichi is a yaku of the tiles). The box stays ticked and goes
  // with the next tap, without a round trip (it saves the server's time on a hand).
  function riichiChangesNothing(form, source) {
    if (source.name !== "riichi" || !form.contains(source)) {
      return false;
    }
    var outcome = form.querySelector("input[name=result]:checked");
    if (!outcome || (outcome.value !== "ron" && outcome.value !== "tsumo")) {
      return false;
    }
    if (form.querySelector("#hand-preview .payments, .errorlist, .tile-result, .tile-warning, input[name=open_riichi]:checked")) {
      return false;
    }
    return !Array.prototype.some.call(form.querySelectorAll("input[name^=tiles_]"), function (input) {
      return input.value !== "";
    });
  }

  document.addEventListener("htmx:confirm", function (event) {
    var form = handForm();
    var trigger = event.detail && event.detail.triggeringEvent;
    if (form && trigger && trigger.type === "change" && trigger.target && riichiChangesNothing(form, trigger.target)) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:afterSettle", settled);
  // A step or a preview the phone drew itself (static/js/table_steps.js, table_preview.js):
  // what a preview's answer would have done to the page around the form, done here. The
  // last hand's notice and an undo's or a void's word in place are old news after a tap.
  document.addEventListener("clubsite:drawn", function () {
    var form = handForm();
    document.querySelectorAll("#hand-entry > .notice, #game-actions > .notice.in-place").forEach(function (notice) {
      notice.remove();
    });
    if (form) {
      save(form);
    }
  });
  // On the window, so after the document's listeners: tiles.js has drawn the keyboard again.
  window.addEventListener("htmx:afterSettle", function (event) {
    var form = handForm();
    if (form && event.target === document.getElementById("hand-entry") && !valuedBefore) {
      revealTiles(form);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var form = handForm();
    var entry = document.getElementById("hand-entry");
    if (entry && entry.querySelector(".notice.success")) {
      if (form) {
        forget(form);
      }
      return;
    }
    if (form) {
      restore(form);
    }
  });
})();
