/* Live tables: the game page asks every few seconds whether the game moved on (#poll, in the step bar) and the
   answer redraws the live part, except while the player is filling in a form there: a typed form is never
   wiped. The form is kept and a note says the game moved on; the next answer after it is sent redraws all. */
(function () {
  "use strict";
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#live form");
    if (form) form.setAttribute("data-typed", "");
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!from || from.id !== "poll" || !document.querySelector("#live form[data-typed]")) return;
    event.detail.shouldSwap = false;
    var note = document.getElementById("moved-on");
    if (note) note.hidden = false;
  });
})();
