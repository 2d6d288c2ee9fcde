/* scorekeeper: the little script the pages need (no build step). */
(function () {
  "use strict";
  var KEY = "scorekeeper.circles";

  function readCircles() {
    try { var v = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { return []; }
  }

  function remember(el) {
    var c = { id: el.dataset.id, name: el.dataset.name, url: el.dataset.url, write: el.dataset.write === "1", at: Date.now() };
    if (!c.url) return;
    // A circle has one write link at a time: a new one (replaced) drops the old one.
    var list = readCircles().filter(function (x) {
      return x.url !== c.url && !(c.write && x.write && c.id && x.id === c.id);
    });
    list.unshift(c);
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, 30))); } catch (e) { /* private mode */ }
  }

  /* A circle deleted for good: this browser forgets its links too. */
  function forget(el) {
    var id = el.dataset.id;
    if (!id) return;
    var list = readCircles().filter(function (x) { return x.id !== id; });
    try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* private mode */ }
  }

  /* A link that opened a circle once and no longer does (the 410 page: replaced, or its circle
     deleted): this browser forgets it, so "My circles" offers no dead link. */
  function forgetLink() {
    var found = location.pathname.match(/^\/c\/([^/]+)/);
    if (!found) return;
    var list = readCircles().filter(function (x) {
      try { return new URL(x.url, location.href).pathname.split("/")[2] !== found[1]; } catch (e) { return true; }
    });
    try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* private mode */ }
  }

  /* One line per circle: the write link wins over the read-only link of the same circle. */
  function uniqueCircles(list) {
    var out = [], at = {};
    list.forEach(function (c) {
      var key = c.id ? "id:" + c.id : "name:" + c.name;
      if (at[key] === undefined) { at[key] = out.length; out.push(c); }
      else if (c.write && !out[at[key]].write) out[at[key]] = c;
    });
    return out;
  }

  function renderCircles(ul) {
    var list = uniqueCircles(readCircles());
    var box = document.getElementById("my-circles-box");
    if (!list.length) return;
    if (box) box.hidden = false;
    list.forEach(function (c) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = c.url;
      a.setAttribute("referrerpolicy", "no-referrer");
      var name = document.createElement("span");
      name.textContent = c.name || "?";
      var badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = c.write ? ul.dataset.writeLabel : ul.dataset.readLabel;
      a.appendChild(name); a.appendChild(badge); li.appendChild(a); ul.appendChild(li);
    });
  }

  function copyButtons(root) {
    root.querySelectorAll("[data-copy]").forEach(function (btn) {
      if (btn.dataset.bound) return;
      btn.dataset.bound = "1";
      btn.addEventListener("click", function () {
        var input = document.getElementById(btn.dataset.copy);
        if (!input) return;
        var done = function () { var t = btn.textContent; btn.textContent = btn.dataset.done || "✓"; setTimeout(function () { btn.textContent = t; }, 1500); };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(done, function () { input.select(); document.execCommand("copy"); done(); });
        } else { input.select(); input.setSelectionRange(0, 9999); document.execCommand("copy"); done(); }
      });
    });
  }

  /* Record form: rows open to the declarer, "played as" only for choice rows. */
  function recordForm(form) {
    var rowSel = form.querySelector("select[name=row]");
    var asSel = form.querySelector("select[name=played_as]");
    var asField = form.querySelector("[data-played-as]");
    var seich = form.querySelector("input[name=seich]");
    var resultBox = form.querySelector("[data-result]");

    function declarerSide() {
      var r = form.querySelector("input[name=declarer]:checked");
      return r ? r.dataset.side : null;
    }
    function syncRows() {
      if (!rowSel) return;
      var side = declarerSide();
      var current = rowSel.options[rowSel.selectedIndex];
      Array.prototype.forEach.call(rowSel.options, function (o) {
        if (!o.value) return;
        var sides = (o.dataset.open || "").trim();
        var open = o.dataset.keep === "1" || (side === null ? sides !== "" : (" " + sides + " ").indexOf(" " + side + " ") >= 0);
        o.hidden = !open; o.disabled = !open;
      });
      if (current && current.disabled) rowSel.value = "";
      syncPlayedAs();
    }
    function syncPlayedAs() {
      if (!asSel || !asField || !rowSel) return;
      var opt = rowSel.options[rowSel.selectedIndex];
      var choice = opt && opt.dataset.choice === "1";
      asField.hidden = !choice;
      var row = rowSel.value;
      Array.prototype.forEach.call(asSel.options, function (o) {
        if (!o.value) return;
        var ok = (" " + o.dataset.rows + " ").indexOf(" " + row + " ") >= 0;
        o.hidden = !ok; o.disabled = !ok;
      });
      var cur = asSel.options[asSel.selectedIndex];
      if (!choice || (cur && cur.disabled)) asSel.value = "";
    }
    function syncSeich() {
      if (!seich || !resultBox) return;
      resultBox.hidden = seich.checked;
    }
    form.querySelectorAll("input[name=declarer]").forEach(function (r) { r.addEventListener("change", syncRows); });
    if (rowSel) rowSel.addEventListener("change", syncPlayedAs);
    if (seich) seich.addEventListener("change", syncSeich);

    /* the two piles fill each other, the match boxes and their words: static/js/slate.js */
    syncRows(); syncSeich();

    /* After a refused entry: the first invalid field gets the focus (the page opened at #record). */
    function showProblem() {
      var bad = form.querySelector("[aria-invalid=true]");
      if (bad) { bad.focus({ preventScroll: true }); bad.scrollIntoView({ block: "center" }); }
      else if (form.querySelector(".form-messages")) form.scrollIntoView({ block: "start" });
    }
    /* after the browser has scrolled to #record (which moves the focus away) */
    if (form.querySelector("[aria-invalid=true], .form-messages")) {
      if (document.readyState === "complete") setTimeout(showProblem, 0);
      else window.addEventListener("load", function () { setTimeout(showProblem, 0); });
    }

    /* Untouched form + the slate changed on another phone: follow the fresh slate.
       A form somebody is filling in keeps its version: the server answers with a conflict. */
    var dirty = false;
    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("change", function () { dirty = true; });
    document.body.addEventListener("htmx:afterSwap", function () {
      var state = document.querySelector("#live .slate-state");
      if (!state || dirty || !form.isConnected) return;
      var data;
      try { data = JSON.parse(state.textContent); } catch (e) { return; }
      var version = form.querySelector("input[name=expected_version]");
      if (version) version.value = String(data.version);
      if (rowSel) Array.prototype.forEach.call(rowSel.options, function (o) {
        if (o.value && data.open[o.value] !== undefined) o.dataset.open = data.open[o.value];
      });
      syncRows();
    });
    /* a tapped open cell: static/js/slate.js */
  }

  /* Start form: the first-dealer choices carry the names typed in the seats. */
  function dealerNames(form) {
    var radios = form.querySelectorAll("input[name=first_dealer]");
    function sync() {
      radios.forEach(function (r) {
        var seat = form.querySelector("input[name=seat_" + r.value + "]");
        var span = r.parentNode.querySelector("[data-seat-name]");
        if (!seat || !span) return;
        var name = seat.value.trim();
        span.textContent = name || span.dataset.seatName;
      });
    }
    form.querySelectorAll("input[name^=seat_]").forEach(function (i) { i.addEventListener("input", sync); i.addEventListener("change", sync); });
    sync();
  }

  function confirmForms(root) {
    root.querySelectorAll("form[data-confirm]").forEach(function (f) {
      if (f.dataset.bound) return;
      f.dataset.bound = "1";
      f.addEventListener("submit", function (ev) { if (!window.confirm(f.dataset.confirm)) ev.preventDefault(); });
    });
  }

  function once(form) {
    /* A second tap while the first request is on its way does nothing (the server is idempotent anyway). */
    if (form.dataset.once) return;
    form.dataset.once = "1";
    form.addEventListener("submit", function (ev) {
      if (ev.defaultPrevented) return;
      if (form.dataset.sent) { ev.preventDefault(); return; }
      form.dataset.sent = "1";
    });
  }

  /* Who uses this phone: remembered by the browser, sent with entries and undos (the audit trail). */
  var ME = "scorekeeper.me";
  function rememberMe(root) {
    var me = "";
    try { me = localStorage.getItem(ME) || ""; } catch (e) { /* private mode */ }
    root.querySelectorAll("select[data-remember-me]").forEach(function (sel) {
      if (me && !sel.value && Array.prototype.some.call(sel.options, function (o) { return o.value === me; })) sel.value = me;
      if (sel.dataset.bound) return;
      sel.dataset.bound = "1";
      sel.addEventListener("change", function () {
        try { localStorage.setItem(ME, sel.value); } catch (e) { /* private mode */ }
        document.querySelectorAll("input[type=hidden][name=author]").forEach(function (i) { i.value = sel.value; });
      });
    });
    root.querySelectorAll("input[type=hidden][name=author]").forEach(function (i) { if (!i.value) i.value = me; });
  }

  /* Parts of a page swapped in (a write answered in place, slate.js; the live fragment): their
     forms work as the page's did. */
  function bindSwapped(root) {
    rememberMe(root);
    confirmForms(root);
    root.querySelectorAll("form[data-record]").forEach(function (f) {
      if (!f.dataset.appBound) { f.dataset.appBound = "1"; recordForm(f); }
    });
    root.querySelectorAll("form[method=post]").forEach(once);
  }

  /* Back to a page from the browser's cache: its forms may be sent again. */
  window.addEventListener("pageshow", function (ev) {
    if (ev.persisted) document.querySelectorAll("form[data-sent]").forEach(function (f) { delete f.dataset.sent; });
  });

  document.addEventListener("DOMContentLoaded", function () {
    rememberMe(document);
    document.querySelectorAll("[data-remember]").forEach(remember);
    document.querySelectorAll("[data-forget]").forEach(forget);
    if (document.querySelector("[data-link-gone]")) forgetLink();
    var ul = document.getElementById("my-circles");
    if (ul) renderCircles(ul);
    copyButtons(document);
    confirmForms(document);
    document.querySelectorAll("form[data-record]").forEach(function (f) { f.dataset.appBound = "1"; recordForm(f); });
    document.querySelectorAll("form#start-form").forEach(dealerNames);
    document.querySelectorAll("form[method=post]").forEach(once);
    document.body.addEventListener("htmx:afterSwap", function (e) { bindSwapped(e.target); });
  });
})();
