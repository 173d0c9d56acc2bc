/* Night play: the page's theme (Bootstrap's data-bs-theme on <html>) is the one this phone chose, Light or Dark,
   or by default (Auto) the phone's own dark setting, followed as it changes. Loaded in <head> without defer so
   that the first paint is already in the chosen theme; the choice is kept on this device. The choices on the
   page (inputs named "theme") are wired once the page is read. */
(function () {
  "use strict";
  var KEY = "republic-theme";
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function chosen() {
    try {
      var value = localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "auto";
    } catch (e) {
      return "auto"; // storage refused (a private window): the phone's setting still holds
    }
  }

  var choice = chosen();

  function apply() {
    var theme = choice === "auto" ? (dark && dark.matches ? "dark" : "light") : choice;
    document.documentElement.setAttribute("data-bs-theme", theme);
  }

  apply();
  if (dark && dark.addEventListener) dark.addEventListener("change", apply);

  document.addEventListener("DOMContentLoaded", function () {
    var inputs = document.querySelectorAll("input[name=theme]");
    for (var i = 0; i < inputs.length; i++) {
      inputs[i].checked = inputs[i].value === choice;
      inputs[i].addEventListener("change", function (event) {
        choice = event.target.value;
        try {
          localStorage.setItem(KEY, choice);
        } catch (e) {
          // kept for this page only
        }
        apply();
      });
    }
  });
})();
