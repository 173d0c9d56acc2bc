/* The screen follows the game. After an htmx answer, whether it redraws the whole live part or only some
   pieces out of band, the player's eyes and keyboard go where the answer points instead of staying where the
   tapped button was (often far down the page) or falling back to the page:
     1. an element the answer marks with data-focus (the answer to a tap in a row of work lands where the
        player tapped, the row opened or its result where his thumb was);
     2. a refusal or a field in error that the answer brought;
     3. the step title, when the answer moved the game to another step;
     4. the result card, when the answer brought one;
     5. when the answer took away the element that held the focus: the new version of the nearest element
        around it that has an id, else the step title or the first piece the answer brought (scrolled to only
        when off screen);
   else the player stays where they are. The choice waits until every piece of the answer has settled, since
   htmx settles each piece on its own. */
(function () {
  "use strict";
  var settled = [];
  var stepBefore = null;
  var focusedBefore = null;
  var placeBefore = null;
  var thumb = null; // where on the screen the player tapped in a row of work (the button that sent its form, its link)

  function stepText() {
    var title = document.getElementById("step-title");
    return title ? title.textContent.trim() : null;
  }

  function brought(selector) {
    for (var i = 0; i < settled.length; i++) {
      var piece = settled[i];
      if (!piece.isConnected || !piece.matches) continue;
      var found = piece.matches(selector) ? piece : piece.querySelector(selector);
      if (found) return found;
    }
    return null;
  }

  function target() {
    var title = document.getElementById("step-title");
    return (
      document.querySelector("[data-focus]") ||
      brought("#error, [role=alert], .alert-danger, .is-invalid, [aria-invalid=true]") ||
      (title && stepBefore !== null && stepText() !== stepBefore ? title : null) ||
      brought("#result")
    );
  }

  function lostTo() {
    if (!focusedBefore || focusedBefore === document.body || focusedBefore.isConnected) return null;
    // htmx itself gives the focus back to an element of the same id
    if (document.activeElement && document.activeElement !== document.body) return null;
    var place = placeBefore && document.getElementById(placeBefore);
    var pieces = settled.filter(function (piece) { return piece.isConnected; });
    return place || brought("#step-title") || pieces[0] || null;
  }

  function stuckHeight(el) {
    return el && /^(sticky|fixed)$/.test(getComputedStyle(el).position) ? el.getBoundingClientRect().height : 0;
  }

  function show(el, always) {
    // a field in error is shown with its label, which sits above it
    var field = el.matches(".is-invalid, [aria-invalid=true]") && el.closest("[id^='div_id_'], fieldset");
    var shown = field && el.getBoundingClientRect().bottom - field.getBoundingClientRect().top < innerHeight ? field : el;
    // below the bars that stay on screen: the site's, and the phases with the step's name
    var top = 8 + stuckHeight(document.querySelector("body > nav")) + stuckHeight(document.getElementById("step-name"));
    // above the step bar, stuck to the screen's foot (where it stands now may be elsewhere: a swap can leave the
    // page scrolled to its end)
    var bottom = innerHeight - stuckHeight(document.getElementById("step-bar"));
    var box = shown.getBoundingClientRect();
    var row = shown.closest(".work-row");
    if (thumb !== null && row) {
      // the answer to the player's own tap in a row stays where his thumb was, not at the top of the screen: its
      // result where the tapped button was, the row opened where it stood (moved up as far as its form needs)
      var result = shown.matches(".work-result");
      var anchor = (result ? shown : row).getBoundingClientRect();
      var at = Math.max(top, Math.min(result ? thumb.tap : thumb.row, bottom - anchor.height));
      window.scrollTo({ top: window.scrollY + anchor.top - at, behavior: "instant" });
      return;
    }
    if (!always && box.top >= top && box.top < innerHeight) return;
    // instant, not Bootstrap's smooth scrolling: a long glide from the bottom of the page hides the answer
    window.scrollTo({ top: window.scrollY + box.top - top, behavior: "instant" });
  }

  function follow() {
    var el = target();
    var always = !!el;
    el = el || lostTo();
    settled = [];
    stepBefore = focusedBefore = placeBefore = null;
    // a mark is spent once followed: a later answer that leaves it in place must not pull the screen back
    document.querySelectorAll("[data-focus]").forEach(function (mark) {
      mark.removeAttribute("data-focus");
    });
    if (el) {
      if (!el.matches("a[href], button, input, select, textarea, summary, [tabindex]")) el.setAttribute("tabindex", "-1");
      show(el, always);
      el.focus({ preventScroll: true });
    }
    thumb = null; // spent by this answer, whatever it showed
  }

  /* Every request of the game's live part (an action, a row tapped open, the page's poll, live.js) says what the
     screen shows: the version and newest message it was drawn at, the rows it lists and those it has open; so
     that the answer redraws every piece of it that changed since, and no other, with the panel's parts it has
     open still open. */
  function subjects(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (row) {
      return row.id.slice(4);
    }).join(" ");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var live = document.getElementById("live");
    var from = event.detail.elt;
    if (!live || !from || !live.contains(from)) return;
    var bar = document.getElementById("step-bar");
    if (bar && bar.dataset.drawn) event.detail.headers["Drawn"] = bar.dataset.drawn;
    event.detail.headers["Rows-Shown"] = subjects("#work-list > li[id^='row-']");
    event.detail.headers["Rows-Open"] = subjects("#work-list > li.is-open[id^='row-']");
    // the folded parts of the step's panel it has open ("part-declare-assault"), which come back open
    event.detail.headers["Parts-Open"] = Array.prototype.map.call(
      live.querySelectorAll("details[data-part][open]"), function (part) { return part.id.slice(5); }
    ).join(" ");
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var from = event.detail.elt;
    // the poll, and the player's next work fetched open by itself, are not his taps
    if (from && (from.id === "poll" || from.hasAttribute("data-next"))) return;
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var tapped = (cause && cause.submitter) || from;
    var row = tapped && tapped.closest && tapped.closest(".work-row");
    thumb = row ? { tap: tapped.getBoundingClientRect().top, row: row.getBoundingClientRect().top } : null;
  });

  document.addEventListener("htmx:beforeSwap", function () {
    stepBefore = stepText();
    focusedBefore = document.activeElement;
    var place = focusedBefore && focusedBefore.parentElement && focusedBefore.parentElement.closest("[id]");
    placeBefore = place ? place.id : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    // what another phone did, brought by the page's poll (live.js), leaves this player where he is; so does his
    // next work fetched open by itself
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (from && (from.id === "poll" || from.hasAttribute("data-next"))) return;
    if (settled.push(event.target) === 1) setTimeout(follow, 0);
  });

  /* A fold a player keeps open or closed on this device (data-remember: "How this step works"): the page and every
     answer that draws it again draw it as he left it. His tap is kept as it lands, before the fold turns: the toggle
     event comes a moment later, and an answer swapped in between would draw the fold again as it was before it. */
  function remembered(root) {
    root.querySelectorAll("details[data-remember]").forEach(function (fold) {
      var kept = null;
      try { kept = localStorage.getItem("republic-" + fold.dataset.remember); } catch (e) { return; }
      if (kept !== null) fold.open = kept === "open";
    });
  }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    var fold = summary && summary.parentElement;
    if (!fold || !fold.matches("details[data-remember]") || fold.firstElementChild !== summary) return;
    try { localStorage.setItem("republic-" + fold.dataset.remember, fold.open ? "closed" : "open"); } catch (e) {}
  });
  /* A form that takes several dice (both sides' dice, a leader's two): the tap that chooses a face on the last
     pad without one sends the form, as its Resolve button would (templatetags/dice.py). */
  document.addEventListener("change", function (event) {
    var face = event.target;
    if (!face.matches || !face.matches(".die-pad input[type=radio]") || !face.form) return;
    var pads = face.form.querySelectorAll(".die-pad");
    for (var i = 0; i < pads.length; i++) if (!pads[i].querySelector("input:checked")) return;
    face.form.requestSubmit(face.form.querySelector("button[name=roll][value=typed]"));
  });

  remembered(document);
  document.addEventListener("htmx:afterSwap", function () { remembered(document); });
  document.addEventListener("htmx:oobAfterSwap", function () { remembered(document); });
})();
