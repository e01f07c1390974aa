/* The progress of one after-action review build (/reports/ID/): polls
 * data-status-url every second until the report is done or failed.
 * The first status comes from <script type="application/json" id="aar-initial">.
 */
(function () {
  "use strict";
  var root = document.getElementById("aar-report");
  if (!root) return;
  var url = root.getAttribute("data-status-url");
  var labels = {queued: "Queued", running: "Running", done: "Ready", failed: "Failed"};
  var failures = 0;
  var queuedSince = Date.now();

  function byId(id) { return document.getElementById(id); }

  function show(d) {
    var st = byId("aar-status");
    st.textContent = d.status_label || labels[d.status] || d.status;
    st.className = "aar-status-" + d.status;
    byId("aar-stage").textContent = (d.status === "queued" || d.status === "running") ? (d.stage || "") : "";
    byId("aar-progress").value = d.progress;
    byId("aar-percent").textContent = d.progress + "%";
    var err = byId("aar-error");
    err.hidden = d.status !== "failed";
    err.textContent = d.error || "";
    byId("aar-files").hidden = d.status !== "done";
    if (d.status !== "queued") queuedSince = Date.now();
    byId("aar-waiting").hidden = !(d.status === "queued" && Date.now() - queuedSince > 20000);
    return d.status === "done" || d.status === "failed";
  }

  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        failures = 0;
        if (!show(d)) setTimeout(poll, 1000);
        else if (d.status === "failed") window.location.reload();
      })
      .catch(function () { failures += 1; setTimeout(poll, Math.min(10000, 1000 * failures)); });
  }

  var initial = JSON.parse(byId("aar-initial").textContent);
  if (!show(initial)) setTimeout(poll, 700);
})();
