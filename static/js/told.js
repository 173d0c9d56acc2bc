/* Your turn, told. The step bar says which step the game is at (data-told-step) and how much of its work waits on
   this seat (data-told-work); each message this player received is marked data-told-letter. When the screen
   (a page load or the poll) shows a step with work for him, or a message, that this phone has not told him of
   yet, a banner at the top of the page says so, the page's title too, and the phone vibrates unless he turned
   that off. What was told is kept on this device per game, so a reload does not tell it again. */
(function () {
  "use strict";
  var VIBRATE_KEY = "republic-vibrate";
  var baseTitle = document.title;
  var acted = false; // the player acted since his turn was told: the title has done its work

  function stored(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function store(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (e) {
      // a private window: the phone tells again after a reload
    }
  }

  function vibrate() {
    if (stored(VIBRATE_KEY) === "off" || !navigator.vibrate) return;
    navigator.vibrate([200, 100, 200]);
  }

  function banner(kind, text, link) {
    var box = document.getElementById("told");
    if (!box) {
      box = document.createElement("div");
      box.id = "told";
      box.className = "alert alert-info told d-flex align-items-center gap-2 no-print";
      box.setAttribute("role", "status");
      var said = document.createElement("p");
      said.className = "told-text mb-0 flex-grow-1";
      var close = document.createElement("button");
      close.type = "button";
      close.className = "btn-close told-close";
      close.setAttribute("aria-label", "Dismiss");
      close.addEventListener("click", function () {
        box.remove();
      });
      box.appendChild(said);
      box.appendChild(close);
      // over the site's bar at the top of the page, which it covers while it is shown: it pushes none of the step's
      // work down, whose first row must stay on a phone's first screen
      var nav = document.querySelector("body > nav");
      document.body.insertBefore(box, document.body.firstChild);
      if (nav) box.style.minHeight = nav.offsetHeight + "px";
    }
    box.setAttribute("data-kind", kind);
    var words = box.querySelector(".told-text");
    words.textContent = text + " ";
    if (link) {
      var jump = document.createElement("a");
      jump.href = link;
      jump.textContent = "Read it";
      words.appendChild(jump);
    }
  }

  function tell() {
    var bar = document.querySelector("[data-told-step]");
    if (!bar) return;
    var game = bar.getAttribute("data-told");
    var step = bar.getAttribute("data-told-step");
    var work = parseInt(bar.getAttribute("data-told-work"), 10) || 0;
    var title = bar.getAttribute("data-told-title");
    var stepKey = "republic-told-step-" + game;
    if (work > 0 && stored(stepKey) !== step) {
      store(stepKey, step);
      acted = false;
      banner("turn", "Your turn: " + title + " — " + work + " to do.");
      vibrate();
    }
    // the step moved on without him, or his work in it is done: his turn is no news any more
    var told = document.querySelector("#told[data-kind=turn]");
    if (work === 0 && told) told.remove();
    document.title = work > 0 && !acted && stored(stepKey) === step ? "● Your turn · " + title + " · Republic" : baseTitle;

    var letters = document.querySelectorAll("[data-told-letter]");
    var newest = null;
    for (var i = 0; i < letters.length; i++) {
      var n = parseInt(letters[i].getAttribute("data-told-letter"), 10);
      if (!newest || n > parseInt(newest.getAttribute("data-told-letter"), 10)) newest = letters[i];
    }
    var letterKey = "republic-told-letter-" + game;
    if (newest && parseInt(newest.getAttribute("data-told-letter"), 10) > (parseInt(stored(letterKey), 10) || 0)) {
      store(letterKey, newest.getAttribute("data-told-letter"));
      banner("letter", "Message from " + newest.getAttribute("data-told-from") + ": " + newest.getAttribute("data-told-text"), "#dispatches-title");
      vibrate();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var setting = document.getElementById("vibrate-setting");
    if (setting) {
      setting.checked = stored(VIBRATE_KEY) !== "off";
      setting.addEventListener("change", function () {
        store(VIBRATE_KEY, setting.checked ? "on" : "off");
      });
    }
    tell();
  });

  // the player's own action (anything sent from the page but the poll) is his answer to the title
  document.addEventListener("htmx:afterRequest", function (event) {
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (from && from.id !== "poll" && event.detail.successful) acted = true;
  });

  document.addEventListener("htmx:afterSettle", tell);
})();
