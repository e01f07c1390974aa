/* CoinLab live pages: ETag polling, map clicks, keyboard shortcuts, decision timer.
   Plain JavaScript, no dependencies. htmx (served locally) handles form posts. */
(function () {
  "use strict";

  // ---- live region polling with ETag (If-None-Match -> 304 when nothing changed) ----
  function startPolling(region) {
    var url = region.getAttribute("data-poll-url");
    var every = parseInt(region.getAttribute("data-poll-ms") || "1500", 10);
    var etag = region.getAttribute("data-etag") || "";
    region._coinlabSetEtag = function (t) { etag = t; };
    function tick() {
      var headers = { "X-Requested-With": "fetch" };
      if (etag) { headers["If-None-Match"] = etag; }
      window.__coinlabPolls = (window.__coinlabPolls || 0) + 1;
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (resp) {
          if (resp.status === 200) {
            return resp.text().then(function (html) {
              if (olderThanShown(region, html)) { window.__coinlabStalePolls = (window.__coinlabStalePolls || 0) + 1; return; }
              etag = resp.headers.get("ETag") || "";
              drawWhenReleased(region, html);
            });
          }
        })
        .then(function () { window.__coinlabPollsAnswered = (window.__coinlabPollsAnswered || 0) + 1; })
        .catch(function (err) { window.__coinlabPollError = String(err); })
        .then(function () { setTimeout(tick, every); });
    }
    setTimeout(tick, every);
  }

  // A click is a press and a release, and the browser gives it to the element both landed on.
  // A poll's redraw between the two replaced the choice under the pointer: the click reached no
  // button and nothing was sent, while the page showed the same choice, enabled (issue 20: a
  // four-team test's click lost on a busy machine; test_poll_race.py presses across a redraw).
  // Space chooses a button on its release, on the button it went down on: the same. So while a
  // press on a live region is down, a poll's answer waits, the newest only, and is drawn just
  // after the click (a timer after the release), unless an answer newer still came meanwhile.
  // A press held longer than PRESS_HOLD_MS (a drag, a release the page never saw) lets it through.
  var PRESS_HOLD_MS = 3000;
  var pressed = false, pressTimer = null;
  function pressStart(ev) {
    if (!(ev.target && ev.target.closest && ev.target.closest("[data-poll-url]"))) { return; }
    pressed = true;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(pressEnd, PRESS_HOLD_MS);
  }
  function pressEnd() {
    if (!pressed) { return; }
    pressed = false;
    clearTimeout(pressTimer);
    setTimeout(drawHeld, 0);  // after the click the release makes, and what it sends
  }
  function drawWhenReleased(region, html) {
    if (pressed) { region._coinlabHeld = html; return; }
    swap(region, html);
  }
  function drawHeld() {
    document.querySelectorAll("[data-poll-url]").forEach(function (region) {
      var html = region._coinlabHeld;
      region._coinlabHeld = null;
      if (!html || pressed) { if (html) { region._coinlabHeld = html; } return; }
      if (olderThanShown(region, html)) { window.__coinlabStalePolls = (window.__coinlabStalePolls || 0) + 1; return; }
      swap(region, html);
    });
  }
  document.addEventListener("pointerdown", function (ev) { if (ev.isPrimary && ev.button === 0) { pressStart(ev); } }, true);
  document.addEventListener("pointerup", pressEnd, true);
  document.addEventListener("pointercancel", pressEnd, true);
  document.addEventListener("keydown", function (ev) {
    if (ev.key === " " && !ev.repeat && ev.target.closest && ev.target.closest("button, [role=button]")) { pressStart(ev); }
  }, true);
  document.addEventListener("keyup", function (ev) { if (ev.key === " ") { pressEnd(); } }, true);
  window.addEventListener("blur", pressEnd);

  // An answer (a poll's, or a decision's htmx answer) can arrive after a newer one was shown:
  // a poll that left before the decision, or a decision's answer overtaken by a poll that saw
  // another team's move. The log's seq only grows (an undo is a new event too), so a region
  // of a smaller seq than the one on the screen is dropped rather than put the previous
  // position back; the next poll brings the current one.
  function seqAgainstShown(region, html) {  // < 0 older, 0 the same, > 0 newer, NaN unknown
    var m = /data-seq="(\d+)"/.exec(html);
    var shown = region.querySelector("[data-seq]");
    return m && shown ? parseInt(m[1], 10) - parseInt(shown.getAttribute("data-seq"), 10) : NaN;
  }
  function olderThanShown(region, html) { return seqAgainstShown(region, html) < 0; }
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var region = ev.detail.target && ev.detail.target.closest && ev.detail.target.closest("[data-poll-url]");
    if (region && ev.detail.shouldSwap && olderThanShown(region, ev.detail.serverResponse || "")) {
      ev.detail.shouldSwap = false;
      window.__coinlabStaleAnswers = (window.__coinlabStaleAnswers || 0) + 1;
      var t = document.createElement("template");  // inert: nothing in it runs or loads
      t.innerHTML = ev.detail.serverResponse || "";
      showFlash(t.content.querySelector("ul.messages"), true);  // its position is old, its message is not
    }
  });

  // The messages of the page's own answer (a decision refused, an intent recorded, an undo)
  // belong to that request, not to the position the region shows: they move to #play-flash,
  // outside the region, and stay there until the page's next own answer. A poll answered just
  // after the page's own answer brings the region of the same seq without them (the answer
  // showed them), and redrawing the region no longer wipes them.
  function showFlash(list, ownAnswer) {
    var box = document.getElementById("play-flash");
    if (!box) { return; }
    if (list) { box.replaceChildren(list); } else if (ownAnswer) { box.replaceChildren(); }
  }

  // A live region from the shared cache is the same for every member of a team, so it carries
  // no per-request values: the CSRF token travels in the page's hx-headers (X-CSRFToken) and
  // each drawn region gets its own idempotency key here (a repeat of the same post keeps it).
  // The page's own CSRF token (the body's hx-headers) also goes into the drawn forms' empty
  // csrfmiddlewaretoken field: a form that is ever submitted natively rather than by htmx (seen
  // in loaded test runs: a keyboard decision posted with neither the header nor the field,
  // answered 403; the cause, a form htmx had not processed yet, is handled at htmx:afterSwap and
  // by the submit listener below) then still carries it.
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }
  function fillKeys(root) {
    var token = csrfToken();
    root.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (el) {
      if (!el.value && token) { el.value = token; }
    });
    root.querySelectorAll('input[name="key"]').forEach(function (el) {
      if (el.value) { return; }
      var b = new Uint8Array(16);
      window.crypto.getRandomValues(b);
      el.value = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    });
  }

  // What a live update must keep (issue #19.8): which disclosures are open ("Board as text", the
  // terms, the recap), where each scrolling list stands (the log, the choices) and where the
  // keyboard focus is, so a poll never collapses, scrolls back or drops focus to the page body.
  function disclosureKey(d, i) {
    return d.id || d.getAttribute("data-keep-open") || (d.className ? "." + d.className.split(" ")[0] + ":" + i : "#" + i);
  }
  // Only what the reader changed is kept: a disclosure the server draws open or closed (the
  // adversary's summary opens itself for the next window) follows the server until it is toggled.
  function markDrawn(region) {
    region.querySelectorAll("details").forEach(function (d) { d.setAttribute("data-drawn-open", d.open ? "1" : "0"); });
  }
  // The choices a click on a space of the map showed in the list (a space with several: .from-map)
  // stay shown while the question is the same: a poll redrawing the region for another team's
  // move no longer wipes them (nor the focus on the first of them, kept by refocus).
  function promptText(region) {
    var h = region.querySelector("#prompt-h");
    return h ? h.textContent : null;
  }
  function keepState(region) {
    var st = { open: {}, scroll: {}, prompt: promptText(region), fromMap: [] };
    region.querySelectorAll(".choices button.from-map").forEach(function (b) { st.fromMap.push(b.getAttribute("data-choice")); });
    region.querySelectorAll("details").forEach(function (d, i) {
      if (d.getAttribute("data-drawn-open") !== (d.open ? "1" : "0")) { st.open[disclosureKey(d, i)] = d.open; }
    });
    region.querySelectorAll(".log, .choices, .recap-steps").forEach(function (el) {
      st.scroll[el.className.split(" ")[0]] = el.scrollTop;
    });
    return st;
  }
  function restoreState(region, st) {
    markDrawn(region);
    region.querySelectorAll("details").forEach(function (d, i) {
      var k = disclosureKey(d, i);
      if (Object.prototype.hasOwnProperty.call(st.open, k)) { d.open = st.open[k]; }
    });
    region.querySelectorAll(".log, .choices, .recap-steps").forEach(function (el) {
      var v = st.scroll[el.className.split(" ")[0]];
      if (v) { el.scrollTop = v; }
    });
    if (st.fromMap.length && promptText(region) === st.prompt) {
      st.fromMap.forEach(function (id) {
        var b = region.querySelector('.choices button[data-choice="' + CSS.escape(id) + '"]');
        if (b) { b.classList.add("from-map"); }
      });
    }
  }
  function focusables(root) {
    return Array.prototype.filter.call(
      root.querySelectorAll('a[href], button, textarea, input:not([type=hidden]), select, summary, [tabindex]'),
      function (el) { return el.tabIndex >= 0 && !el.disabled && el.offsetParent !== null; });
  }
  function focusKey(region, el) {
    if (!el || !region.contains(el)) { return null; }
    // a choice is on the list and, for a space, on the map too (the same data-choice): the
    // focus comes back to the one it was on, never to the map's twin of a list button
    if (el.getAttribute("data-choice")) { return { choice: el.getAttribute("data-choice"), onMap: !el.closest(".choices") }; }
    if (el.tagName === "SUMMARY" && el.parentElement) {
      var ds = region.querySelectorAll("details");
      return { summaryOf: disclosureKey(el.parentElement, Array.prototype.indexOf.call(ds, el.parentElement)) };
    }
    if (el.id) { return { id: el.id }; }
    return { index: focusables(region).indexOf(el) };
  }
  function refocus(region, key) {
    if (!key) { return; }
    var el = null;
    if (key.choice) {
      var sel = '[data-choice="' + CSS.escape(key.choice) + '"]';
      el = region.querySelector(key.onMap ? ".space" + sel : ".choices " + sel) || region.querySelector(sel);
    }
    else if (key.id) { el = document.getElementById(key.id); }
    else if (key.summaryOf) {
      region.querySelectorAll("details").forEach(function (d, i) {
        if (!el && disclosureKey(d, i) === key.summaryOf) { el = d.querySelector("summary"); }
      });
    } else if (key.index >= 0) { el = focusables(region)[key.index] || null; }
    if (!el) {  // the element is gone (a choice made by a teammate): the decision panel, never the body
      el = region.querySelector(".choices button") || document.getElementById("prompt-h");
    }
    // an element the script made focusable (the decision panel's heading, where the focus waits
    // when the turn is over) is drawn again without its tabindex: without one, focus() did nothing
    // and a poll's redraw left the focus on the page body (issue 20, "after rally:1 the focus fell
    // to the page body" with the decision sent by htmx)
    if (el && el.tabIndex < 0 && !el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "-1"); }
    if (el) { el.focus({ preventScroll: true }); }
  }

  // The other teams' moves, told once each in the page's polite live region (outside the
  // region that polls, so nothing is announced again when the region is redrawn).
  var lastSeq = null;
  function announceMoves(region) {
    var box = document.getElementById("announcer");
    var meta = region.querySelector("[data-etag][data-seq]");
    if (!box || !meta) { return; }
    var seq = parseInt(meta.getAttribute("data-seq"), 10);
    var me = meta.getAttribute("data-seat") || "";
    if (lastSeq !== null && seq > lastSeq) {
      var items = Array.prototype.filter.call(region.querySelectorAll(".log > li[data-event-seq]"), function (li) {
        return parseInt(li.getAttribute("data-event-seq"), 10) > lastSeq && li.getAttribute("data-seat") !== me;
      }).reverse();
      items.forEach(function (li) {
        var p = document.createElement("p");
        p.textContent = li.textContent.replace(/\s+/g, " ").trim();
        box.appendChild(p);
      });
      while (box.childNodes.length > 6) { box.removeChild(box.firstChild); }
    }
    if (!isNaN(seq)) { lastSeq = seq; }
  }
  function say(text) {
    var box = document.getElementById("announcer");
    if (!box || !text) { return; }
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    while (box.childNodes.length > 6) { box.removeChild(box.firstChild); }
  }

  // ---- redrawing a live region in place (issue 20) ----
  // A new region differs from the one shown in a few places (a space's pieces, the log, the
  // prompt): the rest, most of it the board's SVG, is equal node for node. Setting innerHTML made
  // the browser build, style, lay out and paint every node again (a Tears of Tyranny region is
  // 3,475 elements); morphing keeps every node equal to its new version in place and replaces
  // only the others. The new HTML is parsed into an inert template, then each level's children
  // are matched by position; equal subtrees are skipped (isEqualNode, native); an element of the
  // same tag and id is kept with its attributes set to the new ones and its children matched in
  // turn; anything else is replaced. A level whose children count changed, or where most differ
  // (the log), is replaced whole. Form fields that differ are replaced, never updated, so that no
  // value typed or filled in a field outlives its field (a textarea equal to its new version,
  // e.g. the rationale being typed, is kept with what is typed). The result is the new HTML node
  // for node (benchmarks/region_swap.py checks it and measures the browser's CPU against
  // innerHTML and against idiomorph).
  function morphChildren(oldParent, newParent) {
    var olds = Array.prototype.slice.call(oldParent.childNodes);
    var news = Array.prototype.slice.call(newParent.childNodes);
    if (olds.length !== news.length) { oldParent.replaceChildren.apply(oldParent, news); return; }
    var differ = [];
    for (var i = 0; i < olds.length; i++) { if (!olds[i].isEqualNode(news[i])) { differ.push(i); } }
    if (olds.length > 4 && differ.length * 2 > olds.length) { oldParent.replaceChildren.apply(oldParent, news); return; }
    differ.forEach(function (k) { morphNode(olds[k], news[k]); });
  }
  function morphNode(old, nu) {
    if (old.nodeType !== 1 || nu.nodeType !== 1 || old.nodeName !== nu.nodeName || old.id !== nu.id
        || /^(INPUT|TEXTAREA|SELECT|OPTION)$/.test(old.nodeName)) { old.replaceWith(nu); return; }
    var i, a;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      a = old.attributes[i];
      if (!nu.hasAttribute(a.name)) { old.removeAttribute(a.name); }
    }
    for (i = 0; i < nu.attributes.length; i++) {
      a = nu.attributes[i];
      if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); }
    }
    morphChildren(old, nu);
  }
  function morphInto(region, html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    morphChildren(region, t.content);
  }
  window.coinlabMorphInto = morphInto;  // benchmarks/region_swap.py
  // The page's own answers (a decision, an undo, an intent: #live says hx-swap="morph", which its
  // forms inherit, and its hx-ext names this extension) are drawn the same way; htmx's other swaps are left to
  // htmx. htmx's own hx-preserve (the rationale box) still applies: it sets the shown element
  // aside before the swap and puts it back after.
  if (window.htmx) {
    window.htmx.defineExtension("coinlab-morph", {
      handleSwap: function (style, target, fragment) {
        if (style !== "morph") { return false; }
        morphChildren(target, fragment);
        // as after htmx's own innerHTML: the region's children are "added" until htmx settles
        // them (its settle tasks process them, drop the class and fire htmx:load on each)
        var tops = Array.prototype.slice.call(target.children);
        tops.forEach(function (el) { el.classList.add(window.htmx.config.addedClass); });
        return tops;
      }
    });
  }

  function swap(region, html) {
    var active = document.activeElement;
    var kept = keepState(region);
    var where = focusKey(region, active);
    var activeKey = active && region.contains(active) ? (active.getAttribute("data-choice") || active.id) : null;
    var typed = {};
    region.querySelectorAll("textarea[id], input[type=text][id]").forEach(function (el) {
      if (el.value) { typed[el.id] = el.value; }
    });
    var typingId = active && region.contains(active) && active.id && typed[active.id] !== undefined ? active.id : null;
    morphInto(region, html);
    showFlash(region.querySelector("ul.messages"), false);
    fillKeys(region);
    Object.keys(typed).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && !el.value) { el.value = typed[id]; }
    });
    if (typingId) { activeKey = null; var t = document.getElementById(typingId); if (t) { t.focus(); } }
    if (window.htmx) { window.htmx.process(region); }
    var newEtag = region.querySelector("[data-etag]");
    if (newEtag && region._coinlabSetEtag) { region._coinlabSetEtag(newEtag.getAttribute("data-etag")); }
    restoreState(region, kept);
    if (activeKey || (where && !typingId)) { refocus(region, where); }
    announceMoves(region);
    announceTurn(region);
  }

  var lastCue = null;
  function announceTurn(root) {
    var cue = document.querySelector("[data-turn-cue]");
    if (!cue) { return; }
    var state = cue.getAttribute("data-turn-cue");
    if (lastCue !== null && state !== lastCue) {
      var words = cue.cloneNode(true);
      words.querySelectorAll(".timer").forEach(function (t) { t.remove(); });  // the timer is never read out
      say(words.textContent.replace(/\s+/g, " ").trim());
    }
    if (state === "yours" && lastCue !== null && lastCue !== "yours") {
      document.title = "\u25B6 " + document.title.replace(/^\u25B6 /, "");
      var first = document.querySelector(".choices button");
      if (first && !isTyping()) { first.focus(); }
    } else if (state !== "yours") {
      document.title = document.title.replace(/^\u25B6 /, "");
    }
    lastCue = state;
  }

  function isTyping() {
    var a = document.activeElement;
    return a && (a.tagName === "TEXTAREA" || a.tagName === "INPUT" || a.tagName === "SELECT");
  }

  // ---- map: a space that is a legal choice acts like the matching list button ----
  function chooseFromMap(el) {
    var id = el.getAttribute("data-choice");
    if (!id) { return; }
    var btn = document.querySelector('.choices button[data-choice="' + CSS.escape(id) + '"]');
    if (btn && !btn.disabled) { btn.click(); }
  }
  // a space with several choices (e.g. which track row a presence uncovers): show them in the list
  function showOptions(el) {
    var ids = (el.getAttribute("data-choices") || "").split(" ").filter(Boolean);
    var btns = ids.map(function (id) {
      return document.querySelector('.choices button[data-choice="' + CSS.escape(id) + '"]');
    }).filter(Boolean);
    document.querySelectorAll(".choices button.from-map").forEach(function (b) { b.classList.remove("from-map"); });
    btns.forEach(function (b) { b.classList.add("from-map"); });
    if (btns.length) { btns[0].scrollIntoView({block: "nearest"}); btns[0].focus(); }
  }
  document.addEventListener("click", function (ev) {
    var sp = ev.target.closest && ev.target.closest(".space.is-choice");
    if (sp) { ev.preventDefault(); chooseFromMap(sp); return; }
    var opt = ev.target.closest && ev.target.closest(".space.is-option");
    if (opt) { ev.preventDefault(); showOptions(opt); }
  });
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (t.classList && t.classList.contains("is-choice") && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault(); chooseFromMap(t); return;
    }
    if (isTyping() || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (/^[1-9]$/.test(ev.key)) {
      var btns = document.querySelectorAll(".choices button");
      var b = btns[parseInt(ev.key, 10) - 1];
      if (b) { b.focus(); }
    } else if (ev.key === "u" || ev.key === "U") {
      var u = document.getElementById("undo-button");
      if (u && !u.disabled) { u.focus(); }
    }
  });

  // ---- decision timer: counts down to data-deadline (ISO time) ----
  function tickTimers() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(end)) { return; }
      var left = Math.max(0, Math.round((end - now) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      el.classList.toggle("expired", left === 0);
    });
    document.querySelectorAll("[data-since]").forEach(function (el) {
      var start = Date.parse(el.getAttribute("data-since"));
      if (isNaN(start)) { return; }
      var sec = Math.max(0, Math.round((now - start) / 1000));
      var mm = Math.floor(sec / 60), ss = sec % 60;
      el.textContent = mm + ":" + (ss < 10 ? "0" : "") + ss;
    });
  }
  setInterval(tickTimers, 1000);

  // a required rationale is missing: say so on the box, mark it invalid and put the cursor there
  // instead of sending a decision the server would refuse (issue #19.8)
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail.elt && ev.detail.elt.closest ? ev.detail.elt.closest("#choice-form") : null;
    var rat = document.getElementById("id_rationale");
    if (!form || !rat || !rat.hasAttribute("data-required")) { return; }
    var err = document.getElementById("rationale-err");
    if (rat.value.trim()) {
      rat.removeAttribute("aria-invalid");
      if (err) { err.hidden = true; }
      return;
    }
    ev.preventDefault();
    rat.setAttribute("aria-invalid", "true");
    if (err) { err.hidden = false; }
    rat.focus();
  });

  // a decision was accepted: the rationale box starts empty for the next one (the server
  // fires the event on the body, so a poll that redrew the form meanwhile cannot swallow it).
  // Only the rationale that decision sent is cleared: if a poll showed the new position first
  // and the team has already typed the next decision's reason, it is kept (issue 20).
  var sentRationale = null;
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail.elt && ev.detail.elt.closest ? ev.detail.elt.closest("#choice-form") : null;
    var rat = document.getElementById("id_rationale");
    if (form && rat && !ev.defaultPrevented) { sentRationale = rat.value; }
  });
  document.addEventListener("coinlab:accepted", function () {
    var rat = document.getElementById("id_rationale");
    if (rat && (sentRationale === null || rat.value === sentRationale)) { rat.value = ""; }
    sentRationale = null;
  });

  // after an htmx post swapped the live region, keep polling from the new ETag
  var beforeHtmx = null;
  // The answer redraws the position on the screen (a poll drew it first, or the decision was
  // refused): the reader may have moved to another choice in it meanwhile, and keeps it, rather
  // than being sent to the first choice, where the next Space or Enter would choose for them.
  var keptChoice = null;
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var region = ev.detail.target && ev.detail.target.closest && ev.detail.target.closest("[data-poll-url]");
    if (region && ev.detail.shouldSwap) {
      beforeHtmx = keepState(region);
      var active = document.activeElement;
      keptChoice = seqAgainstShown(region, ev.detail.serverResponse || "") === 0 && active && region.contains(active)
        ? active.getAttribute("data-choice") : null;
    }
  });
  document.addEventListener("htmx:afterSwap", function (ev) {
    var region = ev.detail.target && ev.detail.target.closest("[data-poll-url]");
    if (region) {
      // htmx attaches its handlers to the content it swapped in only when it settles, a timer
      // later (20 ms, much more on a loaded machine), but the focus goes to the next choice now:
      // an Enter or Space pressed meanwhile submitted the choice form natively, a full page post
      // (issue 20; test_poll_race.py holds the timers to show it). The region is processed before
      // anything in it gets the focus; processing it again when htmx settles changes nothing.
      if (window.htmx) { window.htmx.process(region); }
      if (beforeHtmx) { restoreState(region, beforeHtmx); beforeHtmx = null; } else { markDrawn(region); }
      showFlash(region.querySelector("ul.messages"), true);
      announceMoves(region);
      fillKeys(region);
      var e = region.querySelector("[data-etag]");
      if (e && region._coinlabSetEtag) { region._coinlabSetEtag(e.getAttribute("data-etag")); }
      announceTurn(region);
      if (keptChoice && (!document.activeElement || document.activeElement === document.body)) {
        var same = region.querySelector('.choices button[data-choice="' + CSS.escape(keptChoice) + '"]');
        if (same) { same.focus({ preventScroll: true }); }
      }
      keptChoice = null;
      // keyboard users keep their place: after a decision, focus the next choice
      if (!document.activeElement || document.activeElement === document.body) {
        var next = document.querySelector("[data-turn-cue=yours]") && document.querySelector(".choices button");
        if (!next) {  // the turn is over: the decision panel's heading says what comes next (never the body)
          next = document.getElementById("prompt-h");
          if (next) { next.setAttribute("tabindex", "-1"); }
        }
        if (next) { next.focus({ preventScroll: true }); }
      }
    }
  });

  // forms that ask first (End the session): data-confirm="question"; no inline handlers (CSP)
  document.addEventListener("submit", function (ev) {
    var f = ev.target;
    if (f && f.hasAttribute && f.hasAttribute("data-confirm") && !window.confirm(f.getAttribute("data-confirm"))) {
      ev.preventDefault();
    }
  });

  // A form that htmx sends is never posted natively (a full page load that drops the keyboard
  // focus to the body): if its submit reaches the document without htmx having taken it (a form
  // not processed yet), the page sends it through htmx itself, with the button that submitted it,
  // once (the native post is cancelled).
  document.addEventListener("submit", function (ev) {
    var f = ev.target;
    var url = f && f.getAttribute && f.getAttribute("hx-post");
    if (ev.defaultPrevented || !url || !window.htmx) { return; }
    ev.preventDefault();
    window.__coinlabUnprocessedSubmits = (window.__coinlabUnprocessedSubmits || 0) + 1;
    var values = {};
    if (ev.submitter && ev.submitter.name) { values[ev.submitter.name] = ev.submitter.value; }
    window.htmx.process(f);
    window.htmx.ajax("POST", url, { source: f, values: values });
  });

  // a select that submits its form when changed (the language switcher); no inline handlers (CSP)
  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el && el.hasAttribute && el.hasAttribute("data-autosubmit") && el.form) { el.form.submit(); }
  });

  // copy a join link to the clipboard
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-copy]");
    if (!b || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(b.getAttribute("data-copy")).then(function () {
      b.setAttribute("aria-live", "polite");
      b.dataset.label = b.dataset.label || b.textContent;
      b.textContent = "\u2713 " + b.dataset.label;
    });
  });

  // the browser's time zone, so that the server writes dates and times in it (facilitation/web/timezones.py)
  function rememberTimeZone() {
    var tz = "";
    try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (!tz || document.cookie.indexOf("coinlab_tz=" + encodeURIComponent(tz)) >= 0) { return; }
    document.cookie = "coinlab_tz=" + encodeURIComponent(tz) + "; path=/; max-age=31536000; samesite=lax";
  }

  // a term or a rule summary linked from the question or a choice: open the disclosure that
  // holds it on the page and move the focus there (issue #19: the game explains itself)
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#gl-"], a[href^="#rs-"]');
    if (!a) { return; }
    var target = document.getElementById(a.getAttribute("href").slice(1));
    if (!target) { return; }
    ev.preventDefault();
    var d = target.closest("details");
    if (d) { d.open = true; }
    target.focus();
    target.scrollIntoView({ block: "nearest" });
  });

  // projector mode: larger type for the back of a classroom, remembered by this browser
  function setProjector(on) {
    document.documentElement.classList.toggle("projector", on);
    document.querySelectorAll("[data-projector]").forEach(function (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-projector]");
    if (!b) { return; }
    var on = !document.documentElement.classList.contains("projector");
    setProjector(on);
    try { window.localStorage.setItem("coinlab.projector", on ? "1" : ""); } catch (e) { /* private mode */ }
  });

  document.addEventListener("DOMContentLoaded", function () {
    try { setProjector(window.localStorage.getItem("coinlab.projector") === "1"); } catch (e) { /* private mode */ }
    document.querySelectorAll("[data-poll-url]").forEach(function (r) { markDrawn(r); announceMoves(r); });
    rememberTimeZone();
    document.querySelectorAll("[data-poll-url]").forEach(function (r) { fillKeys(r); startPolling(r); });
    announceTurn(document);
    tickTimers();
  });
})();
