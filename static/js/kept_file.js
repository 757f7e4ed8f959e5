// A file of the table screen that the phone keeps (the engine's figures, the value pads): the
// page names it in a <script type="application/json" data-src> of its own; it is fetched
// once, with the page, into that element (dataset.ready), and kept by the browser's cache and
// the service worker for every game of its ruleset. A failed fetch is tried again at the next
// need; meanwhile what needs it waits (the offline panel) or asks the server (the table's
// taps).
(function (root) {
  "use strict";

  var loading = {};

  // The promise of element ``id``'s file (resolved at once where there is none to fetch).
  function load(id) {
    var element = document.getElementById(id);
    if (!element || !element.dataset.src || element.dataset.ready) {
      return Promise.resolve();
    }
    if (!loading[id]) {
      loading[id] = fetch(element.dataset.src, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) {
            throw new Error(id + " answered " + response.status);
          }
          return response.text();
        })
        .then(function (text) {
          JSON.parse(text);
          element.textContent = text;
          element.dataset.ready = "1";
        })
        .catch(function () {
          delete loading[id];
        });
    }
    return loading[id];
  }

  // The JSON of element ``id``: a kept file once it is here, or data the page carries itself
  // (#offline-data); null while a file is on its way, or where there is none.
  function read(id) {
    var element = document.getElementById(id);
    if (!element || (element.dataset.src && !element.dataset.ready)) {
      return null;
    }
    try {
      return JSON.parse(element.textContent);
    } catch (error) {
      return null;
    }
  }

  root.KeptFile = { load: load, read: read };
})(window);
