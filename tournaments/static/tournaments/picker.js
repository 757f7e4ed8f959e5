// The member picker (tournaments/players.html): keeps "Ticked: n" right as boxes are ticked
// and after a search swaps the list in. Without JavaScript the server counts at each search.
(function () {
  "use strict";
  function recount() {
    var form = document.getElementById("picker");
    var out = document.getElementById("ticked-count");
    if (!form || !out) return;
    var n = form.querySelectorAll(
      'input[name="members"]:checked, input[type="hidden"][name="members"]'
    ).length;
    out.textContent = String(n);
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "members") recount();
  });
  document.addEventListener("htmx:afterSwap", recount);
  document.addEventListener("DOMContentLoaded", recount);
})();
