// The table screen's hand form, on top of htmx (issue 10, items 2 and 6).
//
// - A tap that lands within a second of a recorded hand is ignored: a double tap on the
//   confirm button would otherwise land on the fresh form and replace "recorded" with
//   "choose how the hand ended".
// - The taps of an unfinished hand survive a reload: kept in the tab's sessionStorage per game
//   and version, sent to the preview again on load, dropped once the hand is recorded (or the
//   game moved on: another version is another key).
//
// Everything works without this file; it only smooths the phone at the table.
(function () {
  "use strict";

  var QUIET_MS = 1000;
  var PREFIX = "clubsite:taps:";
  var recordedAt = 0;

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
      recordedAt = Date.now();
      forget(form);
    }
    if (form) {
      save(form);
    }
  }

  // Capturing, so that a tap too soon after a recorded hand never reaches htmx.
  document.addEventListener(
    "click",
    function (event) {
      var entry = document.getElementById("hand-entry");
      if (entry && entry.contains(event.target) && Date.now() - recordedAt < QUIET_MS) {
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true
  );

  document.addEventListener("change", function (event) {
    var form = handForm();
    if (form && form.contains(event.target)) {
      save(form);
    }
  });

  document.addEventListener("htmx:afterSettle", settled);

  document.addEventListener("DOMContentLoaded", function () {
    var form = handForm();
    var entry = document.getElementById("hand-entry");
    if (entry && entry.querySelector(".notice.success")) {
      recordedAt = Date.now();
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
