/* scorekeeper offline (issue 11): the service worker, the offline state, the queue of hands
   recorded without network, and the share buttons. Every page loads it; it reads its words
   from the #offline-texts island and, on a slate page, the evening from #offline-evening and
   the rules from #slate-rules (inside the polled #live, so always the latest the phone saw)
   over #slate-rules-fixed (what no write changes, sent once with the page).
   A link that was replaced (410, issue 21): the page says so at the top, stops polling at the
   first such answer, and keeps the hands typed on it in the queue ("moved") until the page of
   the evening's new link takes them over (queue.js rebind). While hands wait in the queue the
   turn guide follows them (rule_snapshot's "turns"), and what needs a person (a conflict, a
   refusal) is said at the top of the page (issue 20 point 14). */
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
  var gone = null; /* the message of a link that was replaced (410): the page is locked */
  var movedHere = false; /* hands typed under an old link were taken over by this page */

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

  /* Keep the cached copy of this slate as fresh as what the phone shows (never a copy that
     shows a flashed message: web/__init__.py marks those, sw.js keeps none either). */
  var refreshing = false; /* one at a time: a write answered in place swaps several parts */
  function refreshCachedPage() {
    if (refreshing || gone !== null || !window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    var path = location.pathname;
    refreshing = true;
    fetch(path, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok || response.redirected || response.headers.get("X-Flashed")) return null;
      return caches.open("sk-pages").then(function (cache) { return cache.put(path, response); });
    }).catch(function () { /* offline */ }).then(function () { refreshing = false; });
  }

  /* A replaced link's page is kept no longer: offline it would show a slate it cannot reach. */
  function forgetCachedPage() {
    if (!window.caches) return;
    caches.open("sk-pages").then(function (cache) { return cache.delete(location.pathname); }).catch(function () { /* none */ });
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
    if (noCopy) lines.push(say("no_copy"));
    if (document.querySelector("[data-offline-table]")) lines.push(say("table_offline"));
    else if (EVENING) {
      var at = lastInStep();
      lines.push(at ? say("offline", { time: at }) : say("offline_never"));
      if (EV) lines.push(say("disabled"));
    } else lines.push(say("offline_page"));
    lines.forEach(function (text) { var p = document.createElement("p"); p.textContent = text; box.appendChild(p); });
    box.hidden = false;
  }

  /* Offline (or the link replaced): every change but a new hand waits (undo, end, cuts,
     reopen, corrections). */
  function lockWrites() {
    var locked = offline || gone !== null;
    document.querySelectorAll("form[method=post]:not([data-record]) button[type=submit]").forEach(function (b) {
      if (locked && !b.disabled) { b.disabled = true; b.dataset.offlineDisabled = "1"; }
      else if (!locked && b.dataset.offlineDisabled) { b.disabled = false; delete b.dataset.offlineDisabled; }
    });
    document.querySelectorAll("#slate td.filled a.cell").forEach(function (a) {
      if (locked) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
    });
  }

  /* --- a replaced link (410) ---------------------------------------------------------- */
  function showGone(scroll) {
    var box = document.getElementById("link-gone");
    if (!box || gone === null) return;
    box.textContent = "";
    [gone, EV ? say("gone_queue") : null].forEach(function (text) {
      if (!text) return;
      var p = document.createElement("p");
      p.textContent = text;
      box.appendChild(p);
    });
    box.className = "link-gone flash flash-error";
    box.hidden = false;
    if (scroll) box.scrollIntoView({ block: "start" });
  }

  /* The first answer that says the link was replaced: say so, poll no more, lock the writes. */
  function linkGone(message, scroll) {
    if (gone === null) {
      gone = message || "";
      var live = document.getElementById("live");
      if (live && live.hasAttribute("hx-get")) {
        /* htmx's timer belongs to this element: a copy without the poll takes its place */
        var still = live.cloneNode(true);
        still.removeAttribute("hx-get");
        still.removeAttribute("hx-trigger");
        live.replaceWith(still);
        if (window.SkWaiting) window.SkWaiting.follow(live, still);
      }
      forgetCachedPage();
      lockWrites();
    }
    showGone(scroll);
  }

  /* The message of a 410 answer: the poll's is the sentence itself, a page's is in [data-link-gone]. */
  function goneText(text) {
    if (!/^\s*</.test(text)) return text.trim();
    var found = new DOMParser().parseFromString(text, "text/html").querySelector("[data-link-gone] p");
    return found ? found.textContent.trim() : "";
  }

  /* Offline: a slate's copy cleared by the browser (days unused) is said */
  var noCopy = false;
  function checkCopy() {
    if (!EVENING || !window.caches || !window.isSecureContext) return;
    caches.has("sk-pages").then(function (has) {
      return has && caches.open("sk-pages").then(function (c) { return c.match(location.pathname); });
    }).then(function (kept) { noCopy = !kept; showState(); }, function () { /* unknown */ });
    renderQueue();
  }

  function setOffline(flag) {
    var was = offline;
    offline = flag;
    if (flag) checkCopy();
    document.documentElement.classList.toggle("is-offline", flag);
    showState();
    lockWrites();
    if (was && !flag) syncNow();
  }

  /* --- the queue -------------------------------------------------------------------- */
  /* the rules a write changes (in the live fragment) over those it never changes (sent once with
     the page; a page without them, the deleted evening's, carries all in one) */
  function rules() {
    var live = island("slate-rules"), fixed = island("slate-rules-fixed");
    if (!live || !fixed) return live;
    Object.keys(live).forEach(function (k) { fixed[k] = live[k]; });
    return fixed;
  }

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

  /* A hand still to be written: queued, on its way, or kept for the new link. */
  function pending(item) { return item.state === "queued" || item.state === "sending" || item.state === "moved"; }

  function rulesAfterQueue(items) {
    var r = rules();
    items.forEach(function (item) {
      if (pending(item)) r = window.ScorekeeperChecks.after(r, item.hand);
    });
    return r;
  }

  var FIELD = { declarer_unknown: "declarer", row_required: "row", row_unknown: "row", side_full: "declarer",
    row_closed: "row", contract_required: "played_as", contract_not_allowed: "played_as" };

  function formMessage(form, text, kind, field, note) {
    var box = form.querySelector(".form-messages");
    if (!box) { box = document.createElement("div"); box.className = "form-messages"; box.setAttribute("role", "alert"); form.insertBefore(box, form.firstChild); }
    box.textContent = "";
    var p = document.createElement("p");
    p.className = "flash flash-" + kind;
    p.textContent = text;
    if (note) p.dataset.queueNote = "1"; /* "Saved on this phone": gone once the hands are sent */
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
    var kept = gone !== null; /* the link was replaced: kept for the new link, not sent */
    window.SkQueue.list(EV.evening).then(function (items) {
      var problem = window.ScorekeeperChecks.check(rulesAfterQueue(items), hand);
      if (problem) {
        formMessage(form, problem.message, "error", FIELD[problem.code] || (/points|match/.test(problem.code) ? "declarer_points" : null));
        return null;
      }
      return window.SkQueue.add(EV.evening, EV.api, EV.token, rules().version, hand, kept ? "moved" : "queued").then(function () {
        /* the last entry's "Hand recorded" would speak of another hand */
        document.querySelectorAll(".flashes .flash-success").forEach(function (f) { f.remove(); });
        var author = form.querySelector("select[name=author]");
        var me = author ? author.value : "";
        form.reset();
        if (author) author.value = me;
        form.querySelectorAll("[data-auto]").forEach(function (el) { el.dataset.auto = ""; });
        ["input[name=seich]", "select[name=row]"].forEach(function (sel) { /* app.js shows the fields again */
          var el = form.querySelector(sel);
          if (el) el.dispatchEvent(new Event("change", { bubbles: true }));
        });
        formMessage(form, say(kept ? "moved_note" : "queued_note"), "warning", null, true);
        if (!kept && navigator.serviceWorker) {
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
      if (item.hand.seich || !pending(item)) return;
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
      renderWaiting(items);
      if (!items.some(pending)) { /* every hand sent (or settled by a person): the note goes */
        document.querySelectorAll("[data-queue-note]").forEach(function (p) { p.remove(); });
      }
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
        else if (item.state === "moved") state.textContent = say("moved");
        else state.textContent = item.state === "sending" ? say("sending") : say("queued");
        li.appendChild(what); li.appendChild(state);
        if (item.state === "conflict" || item.state === "refused" || item.state === "moved") {
          var actions = document.createElement("span"); /* a kept ("moved") hand: only a person drops it */
          actions.className = "queue-actions";
          if (item.state === "moved") { /* sent once the new link is opened */ }
          else if (item.state === "conflict") {
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

  /* --- while hands wait (issue 20 point 14): the turn guide after them and the notices at the
     top, drawn by waiting.js, fetched only once a hand waits (the worker keeps it with the shell) */
  var waitingJs = null;
  function withWaiting() {
    if (window.SkWaiting) return Promise.resolve(window.SkWaiting);
    var queue = document.getElementById("queue");
    if (!waitingJs && queue && queue.dataset.waitingJs) {
      waitingJs = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = queue.dataset.waitingJs;
        script.onload = function () { resolve(window.SkWaiting); };
        script.onerror = function () { waitingJs = null; reject(new Error("waiting.js")); };
        document.head.appendChild(script);
      });
    }
    return waitingJs || Promise.reject(new Error("no waiting.js"));
  }

  function renderWaiting(items) {
    var waiting = items.filter(pending);
    if (!waiting.length) movedHere = false;
    if (!items.length && !window.SkWaiting) return; /* nothing waits, nothing was drawn */
    withWaiting().then(function (w) {
      w.guide(waiting, rules(), rulesAfterQueue(items));
      w.notice(items, waiting.length > 0 && movedHere, say);
      w.lost(items, window.SkQueue.created, describe, say);
    }, function () { /* the server's guide stays */ });
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
    if (url) window.htmx.ajax("GET", url.replace(/([?&]v=)\d+/, "$1-1"), { target: "#live", swap: "outerHTML" })
      .catch(function () { /* offline again: the next poll */ });
  }

  function afterSync(outcome) {
    if (outcome && outcome.moved && EV) {
      /* the worker syncs every evening: only a hand sent with this page's own link says it is gone */
      window.SkQueue.list(EV.evening).then(function (items) {
        var mine = items.filter(function (i) { return i.state === "moved" && i.token === EV.token; });
        if (mine.length) linkGone(mine[0].reason || "", false);
      });
    }
    renderQueue();
    if (outcome && outcome.accepted) {
      /* an earlier "Hand recorded" speaks of another hand now */
      document.querySelectorAll(".flashes .flash-success").forEach(function (f) { f.remove(); });
      refreshLive();
      refreshCachedPage();
    }
  }

  /* On page open: is the server there (the page may be the worker's kept copy)? Then the
     phone is in step, a fresher slate comes in, and the queue goes out. */
  function probe() {
    var live = document.getElementById("live");
    var url = live && live.getAttribute("hx-get");
    if (!url) { syncNow(); return; }
    fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.status === 410 && !r.headers.get("X-Link-Gone")) { window.location.reload(); return; } /* deleted */
      if (r.status === 410) { r.text().then(function (text) { linkGone(goneText(text), false); }); return; }
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
    if (!EV || !window.SkQueue || syncing || offline || gone !== null) return;
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
  /* Never a URL with the circle's link in it: a link is shared only when the button names it
     (a link field, or the picture's redirect below), never the page's own address. */
  function copyText(url, input, done) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(url).then(done);
    var field = input;
    if (!field) { /* no clipboard API (plain HTTP in the pub): a field of our own, removed again */
      field = document.createElement("textarea");
      field.value = url;
      field.setAttribute("readonly", "");
      field.className = "visually-hidden";
      document.body.appendChild(field);
    }
    field.select();
    field.setSelectionRange(0, 9999);
    document.execCommand("copy");
    if (field !== input) field.remove();
    done();
    return Promise.resolve();
  }

  function share(btn) {
    var input = btn.dataset.shareInput ? document.getElementById(btn.dataset.shareInput) : null;
    if (!input) return;
    var url = input.value;
    var title = btn.dataset.shareTitle || document.title;
    function copied() { var t = btn.textContent; btn.textContent = say("copied"); setTimeout(function () { btn.textContent = t; }, 1500); }
    if (navigator.share) {
      navigator.share({ title: title, url: url }).catch(function (err) { if (!err || err.name !== "AbortError") copyText(url, input, copied); });
    } else copyText(url, input, copied);
  }

  /* The slate picture: the button's address redirects to the picture link (that picture only,
     never the circle's link). The PNG file where the phone can share files, else the picture
     link, else the picture link copied. */
  function sharePicture(btn) {
    var title = btn.dataset.shareTitle || document.title;
    function copied() { var t = btn.textContent; btn.textContent = say("copied"); setTimeout(function () { btn.textContent = t; }, 1500); }
    /* no file to share here: the link, within the tap (WebKit allows the share sheet and the
       clipboard only then, not after waiting for the picture) */
    if (!(navigator.canShare && window.File) && btn.dataset.shareLink) {
      var now = new URL(btn.dataset.shareLink, location.href).href;
      if (navigator.share) {
        navigator.share({ title: title, url: now }).catch(function (err) { if (!err || err.name !== "AbortError") copyText(now, null, copied); });
      } else {
        copyText(now, null, copied);
      }
      return;
    }
    fetch(btn.dataset.sharePicture, { credentials: "same-origin" }).then(function (r) {
      var link = r.url;
      if (!r.ok || new URL(link).pathname.indexOf("/p/") !== 0) throw new Error("no picture link");
      return r.blob().then(function (blob) {
        var file = window.File ? new File([blob], btn.dataset.shareFile || "slate.png", { type: "image/png" }) : null;
        if (file && navigator.canShare && navigator.canShare({ files: [file] })) return navigator.share({ files: [file], title: title });
        if (navigator.share) {
          return navigator.share({ title: title, url: link }).catch(function (err) {
            if (!err || err.name !== "AbortError") return copyText(link, null, copied);
          });
        }
        return copyText(link, null, copied);
      });
    }).catch(function () { /* no network or no picture: nothing is shared (the offline notice says why) */ });
  }

  function shareButtons() {
    document.querySelectorAll("[data-share]").forEach(function (btn) {
      /* a share button next to a copy button only where the phone can share */
      if (btn.dataset.shareInput && !navigator.share) return;
      btn.hidden = false;
      btn.addEventListener("click", function () { if (btn.dataset.sharePicture) sharePicture(btn); else share(btn); });
    });
  }

  /* Safari: how to add the app to the Home Screen (no install prompt), until dismissed */
  function homeHint() {
    var link = document.querySelector("link[data-hint]"), n = navigator, ua = n.userAgent, K = "scorekeeper.homeHint";
    if (!link || "onbeforeinstallprompt" in window || n.standalone || matchMedia("(display-mode: standalone)").matches ||
      !/AppleWebKit/.test(ua) || /Chrom|Android/.test(ua) || (/Macintosh/.test(ua) && !n.maxTouchPoints)) return;
    try { if (localStorage.getItem(K)) return; } catch (e) { return; }
    fetch(link.dataset.hint).then(function (r) { return r.text(); }).then(function (html) {
      var box = new DOMParser().parseFromString(html, "text/html").querySelector(".home-hint");
      if (!box) return;
      /* after what the page shows, never above it: a box that pushes the page down while the
         person reaches for a button would put another button under the finger */
      document.getElementById("main").append(box);
      box.querySelector("button").onclick = function () { try { localStorage.setItem(K, "1"); } catch (e) { /* private */ } box.remove(); };
    }).catch(function () { /* offline: another time */ });
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
    homeHint();
    setOffline(!navigator.onLine);
    /* no Background Sync on an iPhone: sent when online, when shown again, on load (probe) */
    window.addEventListener("online", function () { setOffline(false); syncNow(); });
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible" && EVENING) probe(); });
    window.addEventListener("offline", function () { setOffline(true); });

    /* the slate's poll tells whether the server answers */
    document.body.addEventListener("htmx:afterRequest", function (e) {
      var xhr = e.detail && e.detail.xhr;
      if (!xhr) return;
      if (xhr.status === 410 && !xhr.getResponseHeader("X-Link-Gone")) return; /* deleted: HX-Refresh shows it */
      if (xhr.status === 410) { linkGone(goneText(xhr.responseText || ""), false); return; }
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

    /* no more polls once the link is known to be replaced (the copy of #live has none either) */
    document.body.addEventListener("htmx:beforeRequest", function (e) { if (gone !== null) e.preventDefault(); });

    /* offline (or the link replaced), a new hand goes to the queue; every other change waits */
    function held() {
      if (gone !== null) showGone(true);
      else { showState(); if (banner()) banner().scrollIntoView({ block: "center" }); }
    }
    document.addEventListener("submit", function (e) {
      if (!offline && gone === null) return;
      var form = e.target;
      var newHand = form.matches("#record:not([data-correcting]) form[data-record]"); /* a correction shown in its place (slate.js) waits */
      if (newHand && !(EV && rules())) return; /* no queue here (plain HTTP): as without this script */
      e.preventDefault();
      e.stopPropagation();
      if (newHand) queueHand(form);
      else held();
    }, true);
    document.addEventListener("click", function (e) {
      var a = (offline || gone !== null) && e.target.closest && e.target.closest("#slate td.filled a.cell");
      if (a) { e.preventDefault(); held(); }
    }, true);
    /* slate.js sent the hand and heard that the link was replaced: the hand stays on this phone */
    document.addEventListener("sk-link-gone", function (e) {
      var form = e.target;
      if (!(EV && rules() && form.matches && form.matches("#record:not([data-correcting]) form[data-record]"))) return;
      e.preventDefault();
      var answer = e.detail && e.detail.response;
      (answer ? answer.text() : Promise.resolve("")).then(function (text) {
        linkGone(goneText(text), true);
        queueHand(form);
      });
    });

    /* this page's write link takes over the evening's hands kept under another (an old) link */
    var taken = EV ? window.SkQueue.rebind(EV.evening, EV.api, EV.token).catch(function () { return 0; }) : Promise.resolve(0);
    taken.then(function (again) {
      movedHere = again > 0;
      return renderQueue();
    }).then(function () { if (!offline) probe(); });
  });
})();
