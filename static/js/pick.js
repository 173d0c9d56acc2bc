/* A picker's filter (republic/games/templatetags/picks.py): as the player types a few letters, only the choices
   whose label holds them stay, and each group holding one opens; cleared, the groups fold again as they were,
   but the one holding the choice made. A choice ticked in a grouped list is given its aside from the picker's
   template.
   Without scripts the filter stays hidden and every group still opens by its summary. */
(function () {
  "use strict";
  function plain(text) {
    return text.replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, " ").trim().toLowerCase();
  }

  function filter(box) {
    var wanted = plain(box.value);
    var picker = box.closest(".pick");
    picker.querySelectorAll(".pick-item").forEach(function (item) {
      item.hidden = wanted !== "" && plain(item.querySelector("label").textContent).indexOf(wanted) < 0;
    });
    picker.querySelectorAll(".pick-group").forEach(function (group) {
      if (!group.hasAttribute("data-was-open")) group.setAttribute("data-was-open", group.open ? "1" : "");
      var shown = group.querySelector(".pick-item:not([hidden])");
      group.hidden = wanted !== "" && !shown;
      var kept = group.getAttribute("data-was-open") === "1" || !!group.querySelector("input:checked");
      group.open = wanted !== "" ? !!shown : kept;
      if (wanted === "") group.removeAttribute("data-was-open");
    });
  }

  function reveal(root) {
    (root.querySelectorAll ? root : document).querySelectorAll(".pick-filter[hidden]").forEach(function (box) {
      box.hidden = false;
    });
  }

  // a grouped list draws a choice's aside (an assault's contact, its primary defender) only once it is ticked
  function aside(box) {
    var item = box.closest(".pick-item");
    var template = box.closest(".pick").querySelector("template.pick-aside-template");
    if (!box.checked || !template || item.querySelector(".pick-aside")) return;
    var drawn = template.content.cloneNode(true);
    drawn.querySelectorAll("input").forEach(function (input) { input.value = box.value; });
    item.appendChild(drawn);
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches(".pick-item > label > input")) aside(event.target);
  });
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(".pick-filter")) filter(event.target);
  });
  // Enter in the filter would send the form half filled in
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.matches && event.target.matches(".pick-filter")) event.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });
})();
