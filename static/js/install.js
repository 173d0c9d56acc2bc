/* The app on a phone's home screen (the manifest is linked from base.html): the service worker keeps the app's own
   files (static/js/worker.js), and a game's page keeps the screen awake while it is shown. Browsers allow both only
   in a secure context (HTTPS, or this machine); elsewhere the page works as before. */
(function () {
  "use strict";
  if (!window.isSecureContext) return;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/worker.js", { scope: "/" }).catch(function () {
      // a browser that refuses a worker (a private window) still serves every page from the network
    });
  }

  if (!("wakeLock" in navigator)) return;
  var lock = null;

  function stayAwake() {
    if (lock || document.hidden || !document.getElementById("poll")) return;
    navigator.wakeLock.request("screen").then(function (taken) {
      lock = taken;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () {
      // a phone saving its battery may refuse: its screen sleeps as it always did
    });
  }

  // the browser lets the lock go when the page is hidden; it is asked for again when the page is shown
  document.addEventListener("visibilitychange", stayAwake);
  document.addEventListener("DOMContentLoaded", stayAwake);
})();
