/* Sends on a hall's poor Wi-Fi. Every request has a timeout (the htmx-config meta in base.html); an action whose
   answer never came is marked "Not sent" next to what sent it, with what the player typed left as it was and one
   tap to send it again. The retry is safe: each send carries a key of the phone's own (`sent`), the same on the
   retry, and the server applies a key once (republic/games/views/sends.py), answering a repeat with the game as it
   stands. What a player types into a form of the live part is kept for the tab (sessionStorage) until it is sent,
   so a reload draws the form with it again. */
(function () {
  "use strict";
  var NOTE = "not-sent";

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  // what sent the request: an answer that swapped it away is announced on an element still on the page, so the
  // request's own record of it is read first
  function sender(event) {
    var config = event.detail.requestConfig || event.detail;
    var elt = config.elt;
    return elt && elt.id !== "poll" && config.verb === "post" ? elt : null;
  }

  function noteOf(elt) {
    var next = elt.nextElementSibling;
    return next && next.classList.contains(NOTE) ? next : null;
  }

  function clearNote(elt) {
    var note = noteOf(elt);
    if (note) note.remove();
  }

  // the button that sent the form (a die's face, "Roll for me") is pressed again, so the retry sends what the
  // first send did
  function sendAgain(elt) {
    var pressed = elt._republicPressed;
    if (pressed && pressed.isConnected) pressed.click();
    else if (elt.tagName === "FORM") elt.requestSubmit();
    else elt.click();
  }

  function notSent(elt) {
    clearNote(elt);
    var note = document.createElement("div");
    note.className = NOTE + " alert alert-warning d-flex align-items-center gap-2 py-1 my-1";
    note.setAttribute("role", "alert");
    var words = document.createElement("span");
    words.className = "flex-grow-1";
    words.textContent = "Not sent: the network dropped.";
    var again = document.createElement("button");
    again.type = "button";
    again.className = "btn btn-warning send-again";
    again.textContent = "Send again";
    again.addEventListener("click", function () {
      note.remove();
      sendAgain(elt);
    });
    note.appendChild(words);
    note.appendChild(again);
    elt.insertAdjacentElement("afterend", note);
    // a form waiting to be sent again is kept by the poll as a typed one is (static/js/live.js)
    if (elt.tagName === "FORM") elt.setAttribute("data-typed", "");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = sender(event);
    if (!elt) return;
    if (!elt.dataset.sent) elt.dataset.sent = newKey();
    event.detail.parameters.sent = elt.dataset.sent;
    var submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
    if (submitter) elt._republicPressed = submitter;
    clearNote(elt);
  });

  function lost(event) {
    var elt = sender(event);
    if (elt && elt.isConnected) notSent(elt);
  }
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);

  // an answer came: the send is spent (a later send from the same form is a new one) and what was typed is sent
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = sender(event);
    if (!elt || !event.detail.xhr || !event.detail.xhr.status) return;
    delete elt.dataset.sent;
    if (event.detail.successful) forget(elt);
  });

  /* What was typed, kept for the tab. */
  function storeKey(form) {
    var address = form.getAttribute("hx-post");
    return address ? "republic typed " + location.pathname + " " + address : null;
  }

  function typed(field) {
    if (!field.name || field.disabled || field.name === "csrfmiddlewaretoken" || field.name === "sent") return false;
    return !/^(hidden|submit|button|file|password)$/.test(field.type) && !/-version$|^version$/.test(field.name);
  }

  function keep(form) {
    var key = storeKey(form);
    if (!key) return;
    var values = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!typed(field)) return;
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked) values.push([field.name, field.value, true]);
      } else {
        values.push([field.name, field.value, false]);
      }
    });
    try {
      sessionStorage.setItem(key, JSON.stringify(values));
    } catch (error) {
      // a private tab without storage: the form is still kept on the page
    }
  }

  function forget(form) {
    var key = form.tagName === "FORM" && storeKey(form);
    if (!key) return;
    try {
      sessionStorage.removeItem(key);
    } catch (error) {
      // nothing was kept
    }
  }

  function restore(within) {
    var forms = within.querySelectorAll ? within.querySelectorAll("#live form[hx-post], form[hx-post]") : [];
    Array.prototype.forEach.call(forms, function (form) {
      if (!form.closest("#live")) return;
      var key = storeKey(form);
      var kept = null;
      try {
        kept = key && JSON.parse(sessionStorage.getItem(key) || "null");
      } catch (error) {
        kept = null;
      }
      if (!kept || !kept.length) return;
      var named = {};
      var chosen = {};
      kept.forEach(function (entry) {
        named[entry[0]] = true;
        if (entry[2]) chosen[entry[0] + "=" + entry[1]] = true;
        else chosen[entry[0]] = entry[1];
      });
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!typed(field)) return;
        if (field.type === "radio" || field.type === "checkbox") {
          if (named[field.name] || field.type === "checkbox") field.checked = !!chosen[field.name + "=" + field.value];
        } else if (named[field.name]) {
          field.value = chosen[field.name];
        }
      });
      // a form brought back with what was typed is one the poll must not wipe (static/js/live.js)
      form.setAttribute("data-typed", "");
    });
  }

  function keepTyped(event) {
    var form = event.target.closest && event.target.closest("#live form[hx-post]");
    if (form) keep(form);
  }
  document.addEventListener("input", keepTyped);
  document.addEventListener("change", keepTyped);
  document.addEventListener("htmx:load", function (event) { restore(event.detail.elt); });
})();
