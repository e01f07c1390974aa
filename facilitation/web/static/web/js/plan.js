// The plan form (issue 16.7; templates/web/play/_plan.html). Without this file every step is a
// page load; with htmx only the form is redrawn: then keyboard and screen-reader users are
// told what changed (#plan-announce, a polite live region outside the redrawn form) and focus
// moves to what comes next: the refusal, the next question, or why the plan is complete.
(function () {
  "use strict";

  function announce() {
    var live = document.getElementById("plan-announce");
    var root = document.getElementById("plan");
    if (!live || !root) { return; }
    var text = root.getAttribute("data-status") || "";
    var next = document.getElementById("plan-next-legend") || document.getElementById("plan-why");
    if (next) { text = (text ? text + " " : "") + next.textContent.replace(/\s+/g, " ").trim(); }
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 60);
  }

  function focusNext() {
    var target = document.getElementById("plan-error") || document.getElementById("plan-next-legend") ||
      document.getElementById("plan-why");
    if (target) { target.focus(); }
  }

  document.addEventListener("htmx:afterSettle", function () {
    if (!document.body.classList.contains("page-plan")) { return; }
    if (!document.getElementById("plan-error")) { announce(); }
    focusNext();
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("plan-error") || /[?&]step=/.test(window.location.search)) { focusNext(); }
  });
})();
