/* Live tables: the game page asks every few seconds whether the game moved on (#poll, in the step bar). The
   answer is either the pieces that changed (rows, the step's panel, the result, the step bar; all out of band,
   HX-Reswap none) or the whole live part. A form the player is typing into is never wiped: a piece holding one
   is left as it is, or the whole live part is not swapped in, and a note says the game moved on. The poll rests
   while the page is hidden. A poll that was on its way when the player tapped is answered for the screen before
   his tap, so its answer is dropped: the next poll asks for the screen his tap brought. */
(function () {
  "use strict";
  function movedOn(shown) {
    var note = document.getElementById("moved-on");
    if (note) note.hidden = !shown;
  }

  function typing(el) {
    return !!(el && el.querySelector && el.querySelector("form[data-typed]"));
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#live form");
    if (form) form.setAttribute("data-typed", "");
  });

  // whether the answer being swapped is the poll's: a piece the player's own action brought again while he types
  // in it is kept as well, but nobody else moved the game on
  var polled = false;
  // A poll answers for the screen as it was when it left. Once the player's own request (an action, a row or a part
  // opened) has left since, or another answer has drawn the live part or the step bar and its poll again, the screen
  // is past it: its answer is dropped, and the next poll asks for the screen as it is. The answer's events go to the
  // element it was to be swapped into, which may be out of the page by then, so that element is listened to.
  var own = 0;
  var ownBefore = new WeakMap(); // a poll's request: how many of the player's own had left before it
  function stale(event) {
    var before = ownBefore.get(event.detail.xhr);
    if (before === undefined) return;
    if (before === own && document.contains(event.detail.target) && document.contains(event.detail.elt)) return;
    event.detail.shouldSwap = false;
    event.stopPropagation();
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    polled = !!from && from.id === "poll";
    if (!polled) return;
    var pieces = event.detail.xhr.getResponseHeader("HX-Reswap") === "none";
    if (pieces || !typing(document.getElementById("live"))) return;
    event.detail.shouldSwap = false;
    movedOn(true);
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (!typing(event.detail.target)) return;
    event.detail.shouldSwap = false;
    if (polled) movedOn(true);
  });

  // a hidden page (a phone asleep in a pocket) does not poll; shown again, or back on the network, it asks at once
  document.addEventListener("htmx:beforeRequest", function (event) {
    var poll = event.detail.elt && event.detail.elt.id === "poll" ? event.detail.elt : null;
    if (!poll) {
      own += 1;
    } else if (document.hidden) {
      event.preventDefault();
    } else {
      ownBefore.set(event.detail.xhr, own);
      event.detail.target.addEventListener("htmx:beforeSwap", stale);
    }
  });

  function pollNow() {
    var poll = document.getElementById("poll");
    if (poll && !document.hidden) htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll });
  }
  document.addEventListener("visibilitychange", pollNow);
  window.addEventListener("online", pollNow);

  // the player's own action brought the game as it stands: the note is spent once no typed form is left
  document.addEventListener("htmx:afterSettle", function (event) {
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (from && from.id !== "poll" && !typing(document.getElementById("live"))) movedOn(false);
  });
})();
