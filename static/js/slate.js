/* scorekeeper: the slate's record and correction form at a real table (no build step).
   The two piles fill each other, a tapped cell always leads to a hand entry (never to a Seich
   nobody saw coming) with the partner whose turn it was as declarer, and an entry survives a
   dropped connection; the match boxes speak the row's meaning and never change typed points
   without asking. app.js keeps the rest of the form (rows per declarer, "played as"). */
(function () {
  "use strict";

  /* Typing one pile fills the other with 157 minus it, until the user types that one too:
     a pile the user typed is never overwritten (values the page came with were not typed). */
  function piles(form) {
    var a = form.querySelector("input[name=declarer_points]");
    var b = form.querySelector("input[name=defender_points]");
    if (!a || !b) return;
    var typed = {};
    function fill(src, dst) {
      src.addEventListener("input", function () {
        var v = src.value.trim();
        typed[src.name] = v !== "";
        if (typed[dst.name]) return;
        dst.value = /^[0-9]{1,3}$/.test(v) && +v <= 157 ? String(157 - +v) : "";
      });
    }
    fill(a, b);
    fill(b, a);
    form.querySelectorAll("[data-piles-script]").forEach(function (p) { p.hidden = false; });
    form.querySelectorAll("[data-piles-plain]").forEach(function (p) { p.hidden = true; });
  }

  /* Seich ticked: the hand's fields are hidden and not sent, the button and a note say that a
     Seich is what will be written. */
  function seichGuard(form) {
    var seich = form.querySelector("input[name=seich]");
    var button = form.querySelector("button[type=submit]");
    if (!seich || !button) return;
    var note = form.querySelector("[data-seich-note]");
    var plain = button.textContent;
    function sync() {
      form.querySelectorAll("[data-result] input, [data-result] select").forEach(function (el) { el.disabled = seich.checked; });
      if (note) note.hidden = !seich.checked;
      button.textContent = seich.checked ? button.dataset.seichLabel : plain;
    }
    seich.addEventListener("change", sync);
    sync();
  }

  /* The two boxes say what happened at the table (every trick / no trick); which one is the
     ★ match is the row's: in a Misère taking no trick is the match (present/slate.py MarkChoice).
     The words follow the row and what it is played as; a Misère puts its ★ box first. Until
     both are known, both meanings are named (the words the page came with). */
  function markWords(form) {
    var box = form.querySelector("[data-marks]");
    var rowSel = form.querySelector("select[name=row]");
    var asSel = form.querySelector("select[name=played_as]");
    if (!box || !rowSel || box.dataset.marks === "fixed") return;
    var every = box.querySelector("[data-mark=every]");
    var none = box.querySelector("[data-mark=none]");
    function mode() {
      var row = rowSel.options[rowSel.selectedIndex];
      if (!row || !row.value) return "neutral";
      if (row.dataset.choice === "1") {
        var as = asSel ? asSel.options[asSel.selectedIndex] : null;
        if (!as || !as.value) return "neutral";
        return as.dataset.misere === "1" ? "misere" : "normal";
      }
      return row.dataset.misere === "1" ? "misere" : "normal";
    }
    function sync() {
      var m = mode();
      if (box.dataset.marks === m) return;
      box.dataset.marks = m;
      box.querySelectorAll("[data-mark-text]").forEach(function (s) { s.textContent = s.dataset[m]; });
      if (m === "misere") box.insertBefore(none, every);
      else box.insertBefore(every, none);
    }
    form.addEventListener("change", sync);
    form.addEventListener("reset", function () { setTimeout(sync, 0); });
    sync();
  }

  /* Ticking a box never changes typed points without asking: with both piles empty it fills
     them (157 : 0, or 0 : 157 for no trick); otherwise, and whenever a ticked box and the
     points disagree, a question says so and offers both ways out. The server refuses such a
     hand anyway (scoring/entries.py check_points). */
  function matchGuard(form) {
    var a = form.querySelector("input[name=declarer_points]");
    var b = form.querySelector("input[name=defender_points]");
    var every = form.querySelector("input[name=match]");
    var none = form.querySelector("input[name=countermatch]");
    var ask = form.querySelector("[data-match-ask]");
    if (!a || !b || !every || !none || !ask) return;
    var text = ask.querySelector("[data-match-ask-text]");
    var fillBtn = ask.querySelector("[data-match-fill]");
    var keepBtn = ask.querySelector("[data-match-keep]");
    function target() { return every.checked ? ["157", "0"] : none.checked ? ["0", "157"] : null; }
    function check(fillEmpty) {
      var t = target();
      var av = a.value.trim(), bv = b.value.trim();
      if (!t || (av === t[0] && bv === t[1])) { ask.hidden = true; return; }
      if (fillEmpty && av === "" && bv === "") { a.value = t[0]; b.value = t[1]; ask.hidden = true; return; }
      var which = every.checked ? "every" : "none";
      text.textContent = ask.dataset[which].replace("%(declarer)s", av || "–").replace("%(defenders)s", bv || "–");
      fillBtn.textContent = fillBtn.dataset[which];
      if (ask.hidden) { ask.hidden = false; ask.scrollIntoView({ block: "nearest" }); }
    }
    every.addEventListener("change", function () { if (every.checked) none.checked = false; check(true); });
    none.addEventListener("change", function () { if (none.checked) every.checked = false; check(true); });
    a.addEventListener("input", function () { check(false); });
    b.addEventListener("input", function () { check(false); });
    fillBtn.addEventListener("click", function () {
      var t = target();
      if (t) { a.value = t[0]; b.value = t[1]; }
      ask.hidden = true;
      (every.checked ? every : none).focus();
    });
    keepBtn.addEventListener("click", function () {
      every.checked = false; none.checked = false;
      ask.hidden = true;
      a.focus();
    });
    form.addEventListener("reset", function () { setTimeout(function () { check(false); }, 0); });
    check(false);
  }

  function slateState() {
    var el = document.querySelector("#live .slate-state");
    if (!el) return {};
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }

  /* In place (issue 23): a record, correction or undo is answered with the parts of the page it
     changed (web/slate.py _in_place), swapped in by id with htmx (app.js, offline.js and the poll
     follow its afterSwap); where the page changes its shape the server redirects. */
  var PARTS = ["flashes", "record", "slate-actions", "corrections"], SWAP = { "X-Slate-Swap": "1" };
  var saved = null, writing = false, era = 0; /* the record form while a correction stands in; a write on its way */
  function $(id) { return document.getElementById(id); }

  /* The answer read in two steps (slate/_swap.html). First the server's grid alone, before the
     answer's marker: parsed on its own and put in by hand, as it is (it holds nothing for htmx to
     process, nothing listens for it), so the new value is painted in the next frame. Then, that
     frame painted, the rest with htmx: the live fragment (turn guide, outlook, the poll's next
     version; its grid the same again), the message, the forms (then ``done``). */
  var SPEC = { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0, ignoreTitle: true }, REST = "<!--sk-rest-->";
  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }
  function swapIn(html, done) {
    var live = $("live");
    if (!window.htmx || !live || PARTS.some(function (id) { return !$(id); })) return false;
    var cut = html.indexOf(REST), shown = $("slate");
    var grid = cut > 0 ? parse(html.slice(0, cut)).getElementById("slate") : null;
    if (grid && shown && live.contains(shown)) shown.replaceWith(document.adoptNode(grid));
    requestAnimationFrame(function () {
      setTimeout(function () {
        var doc = parse(cut > 0 ? html.slice(cut) : html);
        window.htmx.swap($("live"), doc.body, SPEC, { select: "#live" });
        window.htmx.swap($("record"), doc.body, SPEC, { select: "#record", selectOOB: PARTS.join(",") });
        if (done) done();
      }, 0);
    });
    return true;
  }

  function restore() { /* back from a correction to the record form, its values kept */
    var section = $("record");
    if (!saved || !section || !section.hasAttribute("data-correcting")) return false;
    section.replaceWith(saved);
    saved = null;
    return true;
  }

  /* the form as a sheet at the bottom while a tapped cell is written (app.css .writing) */
  function sheet(on) {
    if ($("record")) $("record").classList.toggle("writing", on);
    document.body.classList.toggle("writing", on && !!$("record"));
  }

  /* Tap (or Enter on) an open cell: a hand in that row for that column, never a Seich; the
     declarer is the player of that column whose turn it was to choose (the turn guide's
     speaking order), or, when nobody knows, the form asks. Then the cell stays in view, the
     points take the focus in the tap's own handler (a phone's keyboard opens only then) and the
     button sits at the bottom, in the thumb's reach. */
  function cellTap(ev) {
    var td = ev.target.closest && ev.target.closest("td.open[data-row]");
    if (!td) return;
    restore();
    var form = document.querySelector("#record form[data-record]");
    var rowSel = form && form.querySelector("select[name=row]");
    if (!rowSel) return;
    var seich = form.querySelector("input[name=seich]");
    if (seich && seich.checked) { seich.checked = false; seich.dispatchEvent(new Event("change", { bubbles: true })); }
    var chooser = (slateState().chooser || {})[td.dataset.side];
    var radio = chooser === undefined || chooser === null ? null : form.querySelector("input[name=declarer][value='" + chooser + "']");
    if (!radio) radio = form.querySelectorAll("input[name=declarer][data-side='" + td.dataset.side + "']").length === 1
      ? form.querySelector("input[name=declarer][data-side='" + td.dataset.side + "']") : null;
    form.querySelectorAll("input[name=declarer]").forEach(function (r) { r.checked = r === radio; });
    var anyRadio = form.querySelector("input[name=declarer]");
    if (anyRadio) anyRadio.dispatchEvent(new Event("change", { bubbles: true }));
    rowSel.value = td.dataset.row;
    rowSel.dispatchEvent(new Event("change", { bubbles: true }));
    if (!radio) { /* who declared? the whole form, in its place */
      var who = form.querySelector("input[name=declarer][data-side='" + td.dataset.side + "']");
      if (who) who.focus({ preventScroll: true }); /* within the tap: an iPhone opens a keyboard only then */
      form.scrollIntoView({ behavior: "smooth", block: "start" });
      return;
    }
    var next = form.querySelector("input[name=declarer_points]"), section = $("record");
    sheet(true);
    next.focus({ preventScroll: true });
    var asField = form.querySelector("[data-played-as]"); /* what is left to say comes first */
    var first = asField && !asField.hidden ? asField : next.closest(".points") || next;
    section.scrollTop += first.getBoundingClientRect().top - section.getBoundingClientRect().top - 8;
    var r = td.getBoundingClientRect();
    window.scrollBy(0, r.top - Math.max(8, (window.innerHeight - section.offsetHeight - r.height) / 2));
  }

  function click(ev) {
    var t = ev.target.closest ? ev.target : null;
    if (!t) return;
    if (document.body.classList.contains("writing") && !t.closest("#record, td.open[data-row]")) sheet(false);
    var a = t.closest("#record[data-correcting] a[data-cancel]");
    if (a) { /* a correction's cancel */
      ev.preventDefault();
      if (restore()) $("slate").scrollIntoView({ block: "start" });
      else window.location.assign(a.href);
      return;
    }
    a = t.closest("#slate td.filled a.cell, #slate tr.seich a");
    if (!a || ev.defaultPrevented || !window.fetch) return;
    ev.preventDefault(); /* a filled cell: its correction takes the record form's place */
    fetch(a.href, { credentials: "same-origin", cache: "no-store", headers: SWAP }).then(function (res) {
      if (!res.ok || res.headers.get("X-Slate-Swap") !== "1") throw new Error("no parts");
      return res.text();
    }).then(function (html) {
      var section = $("record"), keep = section.hasAttribute("data-correcting") ? saved : section;
      if (!swapIn(html, function () { saved = keep; $("record").scrollIntoView({ block: "start" }); })) throw new Error("no swap");
    }).catch(function () { window.location.assign(a.href); });
  }

  /* Sent in the background, with its request id: a dropped connection keeps the form and its
     values and says so; sending again is safe (the server writes a request id once). The answer
     is taken in place, a refused entry too (its message next to the form); anything else is sent
     again the ordinary way, so the page shows why. A link that was replaced (410): offline.js
     keeps the hand in the phone's queue ("sk-link-gone"); where it cannot (no queue), the
     ordinary way shows the page that repeats the typed hand. */
  function send(ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("form[data-record], form[data-swap]") || !window.fetch || !window.FormData) return;
    if (ev.defaultPrevented && !form.dataset.sent) return;
    ev.preventDefault();
    if (form.dataset.fetching) return;
    form.dataset.fetching = "1";
    var box = form.querySelector("[data-send-error]"), after = form.dataset.after || location.pathname, live = $("live");
    if (box) box.hidden = true;
    /* the last entry's "Hand recorded" would speak of this one while it is on its way */
    document.querySelectorAll(".flashes .flash-success").forEach(function (f) { f.remove(); });
    function again() { delete form.dataset.fetching; delete form.dataset.sent; writing = false; }
    writing = true; /* no poll meanwhile: the answer brings the fresh slate */
    era += 1; /* a poll already on its way is not swapped in (aborting it leaves htmx's promise unhandled) */
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual", headers: live ? SWAP : {} })
      .then(function (res) {
        if (res.status === 410 && res.headers.get("X-Link-Gone")) { /* the link was replaced: offline.js keeps it */
          var gone = new CustomEvent("sk-link-gone", { bubbles: true, cancelable: true, detail: { response: res } });
          if (!form.dispatchEvent(gone)) { again(); return null; }
        }
        if (res.headers.get("X-Slate-Swap") === "1") {
          return res.text().then(function (html) {
            var swapped = swapIn(html, function () {
              again();
              saved = null;
              sheet(false);
              if (!res.ok) return; /* refused: app.js shows the problem in the new form */
              if (form.matches("form[data-swap]")) $("slate").scrollIntoView({ block: "start" });
              else window.scrollTo(0, 0); /* the message and the turn guide: who deals next */
            });
            if (!swapped) location.assign(after);
          });
        }
        if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) location.assign(after);
        else HTMLFormElement.prototype.submit.call(form);
        return null;
      }).catch(function () {
        again();
        if (box) { box.hidden = false; box.scrollIntoView({ block: "center" }); }
      });
  }

  /* The screen kept awake during an evening where the browser allows it (Screen Wake Lock),
     asked again when the page is seen again; the switch lets it sleep (kept on this phone). */
  function wakeLock() {
    var box = $("wake-lock"), held = null;
    if (!box || !navigator.wakeLock) return;
    var input = box.querySelector("input");
    try { input.checked = localStorage.getItem("scorekeeper.wake") !== "off"; } catch (e) { /* private mode */ }
    box.hidden = false;
    function release() { if (held) { held.release().catch(function () {}); held = null; } }
    function ask() {
      if (!input.checked || document.visibilityState !== "visible" || (held && !held.released)) return;
      navigator.wakeLock.request("screen").then(function (lock) { held = lock; if (!input.checked) release(); },
        function () { /* not allowed now: the screen sleeps as usual */ });
    }
    input.addEventListener("change", function () {
      try { localStorage.setItem("scorekeeper.wake", input.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (input.checked) ask(); else release();
    });
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  function bind(root) {
    var forms = Array.prototype.slice.call(root.querySelectorAll("form[data-record]"));
    if (root.matches && root.matches("form[data-record]")) forms.push(root);
    forms.forEach(function (form) {
      if (form.dataset.slateBound) return;
      form.dataset.slateBound = "1";
      piles(form);
      markWords(form);
      matchGuard(form);
      seichGuard(form);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    bind(document);
    wakeLock();
    document.body.addEventListener("htmx:afterSwap", function (e) { bind(e.target); });
    document.addEventListener("submit", send);
    document.body.addEventListener("htmx:beforeRequest", function (e) {
      if (writing) e.preventDefault();
      else if (e.detail.xhr) e.detail.xhr.skEra = era;
    });
    document.body.addEventListener("htmx:beforeSwap", function (e) {
      if (e.detail.xhr && e.detail.xhr.skEra !== undefined && e.detail.xhr.skEra !== era) e.detail.shouldSwap = false;
    });
    if ($("record")) {
      document.addEventListener("click", click);
      document.addEventListener("click", cellTap);
      document.addEventListener("reset", function () { sheet(false); }, true);
    }
  });
})();
