/* Replay autoplay without reloading the page (issue #19.5).
 *
 * The Autoplay button fetches each next position's stage (the board, the event and the log:
 * ?seq=N&stage=1) and swaps it in place: the page keeps its scroll and focus, the address bar
 * follows the position (a deep link), the jump list follows the card in play, and the speed is
 * the reader's choice. Without JavaScript the button is a link that steps one event forward.
 */
(function () {
  "use strict";
  function ready(fn) { if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); } }
  ready(function () {
    var nav = document.querySelector("[data-replay-base]");
    var stage = document.getElementById("replay-stage");
    var button = document.getElementById("vcr-auto");
    if (!nav || !stage || !button || !window.fetch) { return; }
    var base = nav.getAttribute("data-replay-base");
    var as = nav.getAttribute("data-replay-as");
    var last = parseInt(nav.getAttribute("data-replay-last"), 10);
    var speed = document.getElementById("vcr-speed");
    var timer = null;
    var busy = false;

    function url(seq, forStage) {
      return base + "?seq=" + seq + (as ? "&as=" + encodeURIComponent(as) : "") + (forStage ? "&stage=1" : "");
    }
    function current() { return parseInt(stage.getAttribute("data-seq"), 10); }
    function setLinks(seq) {
      var links = {"vcr-first": 0, "vcr-prev": Math.max(0, seq - 1), "vcr-next": Math.min(last, seq + 1), "vcr-last": last};
      Object.keys(links).forEach(function (id) { var a = document.getElementById(id); if (a) { a.href = url(links[id]); } });
      var jump = document.getElementById("jump-seq");
      if (jump) { jump.value = seq; }
    }
    function show(seq, html) {
      // keep the reader where they are: the swap briefly shortens the page, which would clamp
      // the scroll to the top
      var x = window.scrollX, y = window.scrollY;
      stage.style.minHeight = stage.offsetHeight + "px";
      stage.innerHTML = html;
      window.scrollTo(x, y);
      stage.style.minHeight = "";
      stage.setAttribute("data-seq", seq);
      var inner = stage.firstElementChild;
      var pos = document.getElementById("vcr-pos");
      if (pos && inner) { pos.textContent = inner.getAttribute("data-stage-pos"); }
      var card = inner && inner.getAttribute("data-stage-card");
      var select = document.getElementById("jump-card");
      if (select && card) { select.value = card; }
      setLinks(seq);
      if (window.history && window.history.replaceState) { window.history.replaceState(null, "", url(seq)); }
    }
    function stop() {
      if (timer) { window.clearTimeout(timer); timer = null; }
      button.textContent = button.getAttribute("data-play-label");
      button.setAttribute("data-playing", "false");
    }
    function step() {
      var next = current() + 1;
      if (next > last) { stop(); return; }
      busy = true;
      fetch(url(next, true), {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}})
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) {
          busy = false;
          if (!timer) { return; }
          show(next, html);
          if (next >= last) { stop(); return; }
          timer = window.setTimeout(step, parseInt(speed ? speed.value : "1200", 10));
        })
        .catch(function () { busy = false; stop(); });
    }
    button.addEventListener("click", function (ev) {
      ev.preventDefault();
      if (timer || busy) { stop(); return; }
      if (current() >= last) { return; }
      button.textContent = button.getAttribute("data-stop-label");
      button.setAttribute("data-playing", "true");
      timer = window.setTimeout(step, 0);
    });
  });
})();
