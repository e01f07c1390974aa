/* Draws the after-action review's interactive charts with Plotly.js.
 *
 * Each chart is an element with data-figure-id="ID" next to a
 * <script type="application/json" id="ID"> block holding the Plotly figure
 * (written by Django's json_script: data, never executed). No inline script, so
 * the pages keep a Content-Security-Policy without 'unsafe-inline'. Without
 * Plotly.js (e.g. a report file opened offline without it), the static SVG copy
 * of each chart already inside the element stays in place.
 *
 * The mode bar is off: Plotly.js styles each chart's mode bar with a <style>
 * element of its own, which the policy refuses. Hovering, zooming by dragging,
 * double-click to reset and the legend toggles all work without it.
 */
(function () {
  "use strict";

  function draw() {
    if (!window.Plotly) return;
    var charts = document.querySelectorAll("[data-figure-id]");
    Array.prototype.forEach.call(charts, function (el) {
      var src = document.getElementById(el.getAttribute("data-figure-id"));
      if (!src) return;
      var fig = JSON.parse(src.textContent);
      var layout = fig.layout || {};
      layout.width = undefined;
      layout.autosize = true;
      el.textContent = "";
      window.Plotly.newPlot(el, fig.data || [], layout, {responsive: true, displaylogo: false, displayModeBar: false});
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
