/* scorekeeper offline (issue 11): the service worker, the offline state, the queue of hands
   recorded without network, and the share buttons. Every page loads it; it reads its words
   from the #offline-texts island and, on a slate page, the evening from #offline-evening and
   the rules from #slate-rules (inside the polled #live, so always the latest the phone saw). */
(function () {
  "use strict";
  var STEP = "scorekeeper.step.";

  function island(id) {
    var el = document.getElementById(id);
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }
  var T = {};
  var EVENING = null; /* the public id of the evening on a slate page */
  var EV = null; /* {evening, api, token, can_write}: a slate page that may queue hands */
  var offline = false;

  function say(key, params) {
    var text = T[key] || key;
    return window.ScorekeeperChecks ? window.ScorekeeperChecks.fill(text, params || {}) : text;
  }

  /* --- the service worker ----------------------------------------------------------- */
  function register() {
    var link = document.querySelector("link[rel=manifest][data-sw]");
    if (!link || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(link.dataset.sw, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      /* the first visit came before the worker: ask it to keep this page too */
      if (!controlled && reg.active) reg.active.postMessage({ type: "sk-keep", path: location.pathname });
    }).catch(function () { /* no worker: online only */ });
    navigator.serviceWorker.addEventListener("message", function (ev) {
      if (ev.data && ev.data.type === "sk-synced") afterSync(ev.data.outcome);
    });
  }

  /* Keep the cached copy of this slate as fresh as what the phone shows. */
  function refreshCachedPage() {
    if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    caches.open("sk-pages").then(function (cache) { return cache.add(location.pathname); }).catch(function () { /* offline */ });
  }

  /* --- offline state ---------------------------------------------------------------- */
  function stepKey() { return EVENING ? STEP + EVENING : null; }
  function markInStep() {
    var key = stepKey();
    if (key) { try { localStorage.setItem(key, String(Date.now())); } catch (e) { /* private mode */ } }
  }
  function lastInStep() {
    var key = stepKey();
    var at = null;
    if (key) { try { at = localStorage.getItem(key); } catch (e) { /* private mode */ } }
    if (!at) return null;
    var d = new Date(+at);
    var time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return d.toDateString() === new Date().toDateString() ? time : d.toLocaleDateString() + " " + time;
  }

  function banner() { return document.getElementById("offline-state"); }

  function showState() {
    var box = banner();
    if (!box) return;
    box.textContent = "";
    /* styled as a warning only while shown (pages and tests look for their own warnings) */
    box.className = offline ? "offline-state flash flash-warning" : "offline-state";
    if (!offline) { box.hidden = true; return; }
    var lines = [];
    if (document.querySelector("[data-offline-table]")) lines.push(say("table_offline"));
    else if (EVENING) {
      var at = lastInStep();
      lines.push(at ? say("offline", { time: at }) : say("offline_never"));
      if (EV) lines.push(say("disabled"));
    } else lines.push(say("offline_page"));
    lines.forEach(function (text) { var p = document.createElement("p"); p.textContent = text; box.appendChild(p); });
    box.hidden = false;
  }

  /* Offline: every change but a new hand waits (undo, end, cuts, reopen, corrections). */
  function lockWrites() {
    document.querySelectorAll("form[method=post]:not([data-record]) button[type=submit]").forEach(function (b) {
      if (offline && !b.disabled) { b.disabled = true; b.dataset.offlineDisabled = "1"; }
      else if (!offline && b.dataset.offlineDisabled) { b.disabled = false; delete b.dataset.offlineDisabled; }
    });
    document.querySelectorAll("#slate td.filled a.cell").forEach(function (a) {
      if (offline) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
    });
  }

  function setOffline(flag) {
    var was = offline;
    offline = flag;
    document.documentElement.classList.toggle("is-offline", flag);
    showState();
    lockWrites();
    if (was && !flag) syncNow();
  }

  /* --- the queue -------------------------------------------------------------------- */
  function rules() { return island("slate-rules"); }

  function handFromForm(form) {
    function val(name) { var el = form.querySelector("[name=" + name + "]"); return el ? el.value.trim() : ""; }
    function on(name) { var el = form.querySelector("input[name=" + name + "]"); return !!(el && el.checked); }
    function points(name) { var v = val(name); return /^[0-9]{1,4}$/.test(v) ? +v : (v === "" ? null : NaN); }
    var who = form.querySelector("input[name=declarer]:checked");
    var hand = {
      declarer_seat: who ? +who.value : null,
      row_key: val("row") || null,
      played_as: val("played_as") || null,
      declarer_points: points("declarer_points"),
      defender_points: points("defender_points"),
      match: on("match"),
      countermatch: on("countermatch"),
    };
    if (on("seich")) { hand = { declarer_seat: hand.declarer_seat, row_key: null, played_as: null, seich: true }; }
    var author = val("author");
    if (author) hand.author = author;
    return hand;
  }

  function rulesAfterQueue(items) {
    var r = rules();
    items.forEach(function (item) {
      if (item.state === "queued" || item.state === "sending") r = window.ScorekeeperChecks.after(r, item.hand);
    });
    return r;
  }

  var FIELD = { declarer_unknown: "declarer", row_required: "row", row_unknown: "row", side_full: "declarer",
    row_closed: "row", contract_required: "played_as", contract_not_allowed: "played_as" };

  function formMessage(form, text, kind, field) {
    var box = form.querySelector(".form-messages");
    if (!box) { box = document.createElement("div"); box.className = "form-messages"; box.setAttribute("role", "alert"); form.insertBefore(box, form.firstChild); }
    box.textContent = "";
    var p = document.createElement("p");
    p.className = "flash flash-" + kind;
    p.textContent = text;
    box.appendChild(p);
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    var target = field ? form.querySelector("[name=" + field + "]") : null;
    if (target) { target.setAttribute("aria-invalid", "true"); target.focus({ preventScroll: true }); }
    box.scrollIntoView({ block: "center" });
  }

  function queueHand(form) {
    var hand = handFromForm(form);
    if (hand.declarer_seat === null) { formMessage(form, say("declarer_required"), "error", "declarer"); return; }
    if (!hand.seich && (hand.declarer_points === null || hand.defender_points === null)) {
      formMessage(form, say("points_required"), "error", "declarer_points");
      return;
    }
    window.SkQueue.list(EV.evening).then(function (items) {
      var problem = window.ScorekeeperChecks.check(rulesAfterQueue(items), hand);
      if (problem) {
        formMessage(form, problem.message, "error", FIELD[problem.code] || (/points|match/.test(problem.code) ? "declarer_points" : null));
        return null;
      }
      return window.SkQueue.add(EV.evening, EV.api, EV.token, rules().version, hand).then(function () {
        var author = form.querySelector("select[name=author]");
        var me = author ? author.value : "";
        form.reset();
        if (author) author.value = me;
        form.querySelectorAll("[data-auto]").forEach(function (el) { el.dataset.auto = ""; });
        ["input[name=seich]", "select[name=row]"].forEach(function (sel) { /* app.js shows the fields again */
          var el = form.querySelector(sel);
          if (el) el.dispatchEvent(new Event("change", { bubbles: true }));
        });
        formMessage(form, say("queued_note"), "warning", null);
        if (navigator.serviceWorker) {
          navigator.serviceWorker.ready.then(function (reg) { return reg.sync && reg.sync.register("sk-queue"); }).catch(function () { /* no Background Sync */ });
        }
        return renderQueue();
      });
    });
  }

  function describe(hand) {
    var r = rules() || { names: [], rows: {}, contracts: {} };
    var parts = [r.names[hand.declarer_seat] || "?"];
    if (hand.seich) parts.push("Seich");
    else {
      parts.push(r.rows[hand.row_key] ? r.rows[hand.row_key].label : hand.row_key);
      if (hand.played_as) parts.push(r.contracts[hand.played_as] || hand.played_as);
      parts.push(hand.declarer_points + " : " + hand.defender_points);
    }
    return parts.join(" · ");
  }

  function button(label, cls, act) {
    var b = document.createElement("button");
    b.type = "button"; b.className = cls; b.textContent = label;
    b.addEventListener("click", act);
    return b;
  }

  /* The queued hands' cells: marked on the slate, and no longer offered in the form. */
  function markCells(items) {
    var r = rules();
    var rowSel = document.querySelector("form[data-record] select[name=row]");
    document.querySelectorAll("#slate td.queued").forEach(function (td) {
      td.classList.remove("queued");
      var mark = td.querySelector(".queued-mark");
      if (mark) mark.remove();
      var cell = td.querySelector(".cell");
      if (cell) cell.hidden = false;
    });
    if (!r) return;
    items.forEach(function (item) {
      if (item.hand.seich || (item.state !== "queued" && item.state !== "sending")) return;
      var side = r.seat_side[item.hand.declarer_seat];
      var option = rowSel && rowSel.querySelector("option[value='" + item.hand.row_key + "']");
      if (option) {
        option.dataset.open = (option.dataset.open || "").split(" ").filter(function (x) { return x && x !== String(side); }).join(" ");
      }
      var td = document.querySelector("#slate td.open[data-row='" + item.hand.row_key + "'][data-side='" + side + "']");
      if (!td) return;
      td.classList.add("queued");
      var cell = td.querySelector(".cell");
      if (cell) cell.hidden = true;
      var mark = document.createElement("span");
      mark.className = "queued-mark";
      mark.textContent = String(item.hand.declarer_points);
      var note = document.createElement("span");
      note.className = "visually-hidden";
      note.textContent = " " + say("queued");
      mark.appendChild(note);
      td.appendChild(mark);
    });
    var checked = document.querySelector("form[data-record] input[name=declarer]:checked");
    if (checked) checked.dispatchEvent(new Event("change", { bubbles: true })); /* app.js: the rows open to them */
  }

  function renderQueue() {
    if (!EV || !window.SkQueue) return Promise.resolve();
    return window.SkQueue.list(EV.evening).then(function (items) {
      markCells(items);
      var box = document.getElementById("queue");
      var list = document.getElementById("queue-list");
      if (!box || !list) return;
      list.textContent = "";
      box.hidden = !items.length;
      items.forEach(function (item) {
        var li = document.createElement("li");
        li.className = "queue-item queue-" + item.state;
        li.dataset.requestId = item.request_id;
        var what = document.createElement("span");
        what.className = "queue-what";
        what.textContent = describe(item.hand);
        var state = document.createElement("span");
        state.className = "queue-state";
        if (item.state === "refused") state.textContent = say("refused", { reason: item.reason || "" });
        else if (item.state === "conflict") state.textContent = say("conflict");
        else state.textContent = item.state === "sending" ? say("sending") : say("queued");
        li.appendChild(what); li.appendChild(state);
        if (item.state === "conflict" || item.state === "refused") {
          var actions = document.createElement("span");
          actions.className = "queue-actions";
          if (item.state === "conflict") {
            actions.appendChild(button(say("record_anyway"), "secondary small", function () {
              if (offline) return;
              window.SkQueue.recordAnyway(item).then(function (outcome) { afterSync({ accepted: outcome === "accepted" ? 1 : 0 }); }, renderQueue);
            }));
          } else {
            actions.appendChild(button(say("correct"), "secondary small", function () { correctItem(item); }));
          }
          actions.appendChild(button(say("drop"), "secondary small", function () {
            window.SkQueue.remove(item.request_id).then(renderQueue);
          }));
          li.appendChild(actions);
        }
        list.appendChild(li);
      });
    });
  }

  /* A refused hand back into the form, to correct it (it leaves the queue). */
  function correctItem(item) {
    var form = document.querySelector("form[data-record]");
    if (!form) return;
    var h = item.hand;
    var who = form.querySelector("input[name=declarer][value='" + h.declarer_seat + "']");
    if (who) { who.checked = true; who.dispatchEvent(new Event("change", { bubbles: true })); }
    var row = form.querySelector("select[name=row]");
    if (row && h.row_key) { row.value = h.row_key; row.dispatchEvent(new Event("change", { bubbles: true })); }
    var as = form.querySelector("select[name=played_as]");
    if (as && h.played_as) as.value = h.played_as;
    ["declarer_points", "defender_points"].forEach(function (name) {
      var el = form.querySelector("input[name=" + name + "]");
      if (el && typeof h[name] === "number") { el.value = String(h[name]); el.dataset.auto = ""; }
    });
    ["match", "countermatch"].forEach(function (name) {
      var el = form.querySelector("input[name=" + name + "]");
      if (el) el.checked = !!h[name];
    });
    window.SkQueue.remove(item.request_id).then(renderQueue).then(function () {
      formMessage(form, say("refused", { reason: item.reason || "" }), "error", null);
    });
  }

  function refreshLive() {
    var live = document.getElementById("live");
    if (!live || !window.htmx) return;
    var url = live.getAttribute("hx-get");
    if (url) window.htmx.ajax("GET", url.replace(/([?&]v=)\d+/, "$1-1"), { target: "#live", swap: "outerHTML" });
  }

  function afterSync(outcome) {
    renderQueue();
    if (outcome && outcome.accepted) { refreshLive(); refreshCachedPage(); }
  }

  /* On page open: is the server there (the page may be the worker's kept copy)? Then the
     phone is in step, a fresher slate comes in, and the queue goes out. */
  function probe() {
    var live = document.getElementById("live");
    var url = live && live.getAttribute("hx-get");
    if (!url) { syncNow(); return; }
    fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.status !== 200 && r.status !== 204) return;
      markInStep();
      if (r.status === 200) refreshLive();
      setOffline(false);
      syncNow();
    }, function () { setOffline(true); });
  }

  var syncing = false;
  var retry = false; /* the server was busy: try again after the next good poll */
  function syncNow() {
    if (!EV || !window.SkQueue || syncing || offline) return;
    syncing = true;
    retry = false;
    window.SkQueue.sync(EV.evening).then(function (outcome) {
      syncing = false;
      retry = outcome.later > 0;
      if (outcome.offline) setOffline(true);
      afterSync(outcome);
    }, function () { syncing = false; });
  }

  /* --- share ------------------------------------------------------------------------- */
  function share(btn) {
    var input = btn.dataset.shareInput ? document.getElementById(btn.dataset.shareInput) : null;
    var url = input ? input.value : (btn.dataset.shareUrl ? new URL(btn.dataset.shareUrl, location.href).href : location.href);
    var title = btn.dataset.shareTitle || document.title;
    function copied() { var t = btn.textContent; btn.textContent = say("copied"); setTimeout(function () { btn.textContent = t; }, 1500); }
    function copy() {
      if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(url).then(copied);
      if (input) { input.select(); document.execCommand("copy"); copied(); }
      return Promise.resolve();
    }
    if (btn.dataset.sharePng && navigator.canShare && window.File) {
      fetch(btn.dataset.sharePng).then(function (r) { return r.blob(); }).then(function (blob) {
        var file = new File([blob], btn.dataset.shareFile || "slate.png", { type: "image/png" });
        if (navigator.canShare({ files: [file] })) return navigator.share({ files: [file], title: title });
        return navigator.share ? navigator.share({ title: title, url: url }) : copy();
      }).catch(function (err) { if (!err || err.name !== "AbortError") copy(); });
    } else if (navigator.share) {
      navigator.share({ title: title, url: url }).catch(function (err) { if (!err || err.name !== "AbortError") copy(); });
    } else copy();
  }

  function shareButtons() {
    document.querySelectorAll("[data-share]").forEach(function (btn) {
      /* a share button next to a copy button only where the phone can share */
      if (btn.dataset.shareInput && !navigator.share) return;
      btn.hidden = false;
      btn.addEventListener("click", function () { share(btn); });
    });
  }

  /* --- start ------------------------------------------------------------------------- */
  document.addEventListener("DOMContentLoaded", function () {
    T = island("offline-texts") || {};
    var ev = island("offline-evening");
    EVENING = ev ? ev.evening : null;
    /* the queue needs what the service worker needs: a secure context (HTTPS or this computer) */
    EV = ev && ev.can_write && window.isSecureContext && window.indexedDB && window.SkQueue ? ev : null;
    var insecure = document.getElementById("offline-insecure");
    if (insecure && !window.isSecureContext) insecure.hidden = false;
    register();
    shareButtons();
    setOffline(!navigator.onLine);
    window.addEventListener("online", function () { setOffline(false); });
    window.addEventListener("offline", function () { setOffline(true); });

    /* the slate's poll tells whether the server answers */
    document.body.addEventListener("htmx:afterRequest", function (e) {
      var xhr = e.detail && e.detail.xhr;
      if (!xhr) return;
      if (xhr.status === 200 || xhr.status === 204) {
        markInStep();
        if (offline) setOffline(false);
        else if (retry) syncNow();
      }
    });
    document.body.addEventListener("htmx:sendError", function () { setOffline(true); });
    document.body.addEventListener("htmx:afterSwap", function () {
      if (!EVENING) return;
      renderQueue(); /* the fresh slate: mark the queued cells again */
      lockWrites();
      refreshCachedPage();
    });

    /* offline, a new hand goes to the queue; every other change waits */
    document.addEventListener("submit", function (e) {
      if (!offline) return;
      var form = e.target;
      var newHand = form.matches("#record form[data-record]");
      if (newHand && !(EV && rules())) return; /* no queue here (plain HTTP): as without this script */
      e.preventDefault();
      e.stopPropagation();
      if (newHand) queueHand(form);
      else { showState(); if (banner()) banner().scrollIntoView({ block: "center" }); }
    }, true);
    document.addEventListener("click", function (e) {
      var a = offline && e.target.closest && e.target.closest("#slate td.filled a.cell");
      if (a) { e.preventDefault(); showState(); if (banner()) banner().scrollIntoView({ block: "center" }); }
    }, true);

    renderQueue();
    if (!offline) probe();
  });
})();
