/* scorekeeper: the slate page while hands wait in the phone's queue (issue 20 point 14), loaded
   by offline.js once a hand waits.
   - The turn guide after them: who deals and who chooses are looked up in the rules island's
     "turns" (present/offline.py turn_snapshot, made by game/turns.py), never worked out here;
     the words are the server's (templates/slate/_guide.html's). The slate state's chooser (a
     tapped cell's declarer, slate.js) follows too.
   - What needs a person (a conflict, a refusal) stands at the top of the page (#queue-notice),
     not under the slate and the outlook. */
(function () {
  "use strict";
  var drawn = null; /* {live, guide, state}: the server's guide and slate state of the fragment shown */

  function para(text, cls) {
    var p = document.createElement("p");
    if (cls) p.className = cls;
    if (text) p.textContent = text;
    return p;
  }
  function who(name) { var s = document.createElement("span"); s.className = "who"; s.textContent = name; return s; }

  /* waiting: the queued hands; rules: the island; after: the rules after them (checks.js) */
  function guide(waiting, rules, after) {
    var live = document.getElementById("live");
    var section = live && live.querySelector("[data-guide]");
    var state = live && live.querySelector(".slate-state");
    var t = rules && rules.turns;
    if (!section || !t) return;
    if (!drawn || drawn.live !== live) drawn = { live: live, guide: section.cloneNode(true), state: state ? state.textContent : null };
    if (!waiting.length) {
      if (section.dataset.queued) {
        section.replaceWith(drawn.guide.cloneNode(true));
        if (state && drawn.state !== null) state.textContent = drawn.state;
      }
      return;
    }
    var dealer = t.dealers[waiting.length % t.dealers.length];
    var mask = 0;
    after.full.forEach(function (side) { mask |= 1 << side; });
    var order = t.orders[dealer + ":" + mask];
    section.dataset.queued = "1";
    if (after.complete || !order) { section.hidden = true; return; }
    section.hidden = false;
    var forehand = order[0], barrel = order[1], speaking = order.slice(2), names = after.names, w = t.words;
    var fill = window.ScorekeeperChecks.fill;
    var named = function (seats) { return seats.map(function (s) { return names[s]; }).join(" → "); };
    var sides = function (list) { return list.map(function (s) { return t.sides[s]; }).join(", "); };
    var summary = section.querySelector("summary");
    var details = section.querySelector("details");
    var open = !!(details && details.open);
    var cells = t.filled + waiting.filter(function (i) { return !i.hand.seich; }).length;
    section.textContent = "";
    section.appendChild(para(fill(w.count, { n: t.hands + waiting.length + 1, filled: cells, total: t.cells }), "guide-count"));
    var now = para(null, "guide-now");
    now.appendChild(who(names[dealer]));
    now.appendChild(document.createTextNode(" " + w.deals + " "));
    if (after.full.indexOf(after.seat_side[forehand]) >= 0 && speaking.length) {
      now.appendChild(document.createTextNode(fill(w.forehand_full, { forehand: names[forehand], first: names[speaking[0]] })));
    } else {
      now.appendChild(who(names[forehand]));
      now.appendChild(document.createTextNode(" " + w.forehand));
    }
    section.appendChild(now);
    var more = document.createElement("details");
    more.open = open;
    if (summary) more.appendChild(summary.cloneNode(true));
    if (speaking.length > 1) more.appendChild(para(fill(w.speaking, { names: named(speaking) })));
    if (after.full.length) more.appendChild(para(fill(w.full, { names: sides(after.full) })));
    if (barrel !== null && barrel >= 0) more.appendChild(para(fill(w.barrel, { name: names[barrel] })));
    if (t.seich !== null) { /* a queued Seich uses its team's */
      var used = waiting.filter(function (i) { return i.hand.seich; }).map(function (i) { return after.seat_side[i.hand.declarer_seat]; });
      var still = t.seich.filter(function (side) { /* a side may have several (seich_left) */
        var queued = used.filter(function (u) { return u === side; }).length;
        return queued < (t.seich_left ? t.seich_left[side] : 1);
      });
      var where = t.seich_used.slice();
      waiting.forEach(function (i, k) {
        if (i.hand.seich) where.push([after.seat_side[i.hand.declarer_seat], t.hands + k + 1, names[i.hand.declarer_seat]]);
      });
      where.sort(function (a, b) { return a[0] - b[0]; });
      var line = still.length ? fill(w.seich, { teams: sides(still) }) : w.seich_none;
      if (where.length) {
        line += " " + fill(w.seich_used, { where: where.map(function (u) {
          return fill(w.seich_where, { team: t.sides[u[0]], n: u[1], name: u[2] });
        }).join("; ") });
      }
      more.appendChild(para(line));
    }
    more.appendChild(para(w.barrel_rule, "muted"));
    section.appendChild(more);
    section.appendChild(para(w.queued, "muted guide-queued"));
    if (state && drawn.state !== null) {
      try {
        var data = JSON.parse(drawn.state);
        var chooser = {};
        speaking.forEach(function (seat) { var side = after.seat_side[seat]; if (chooser[side] === undefined) chooser[side] = seat; });
        data.chooser = chooser;
        state.textContent = JSON.stringify(data);
      } catch (e) { /* the server's state stays */ }
    }
  }

  /* items: the evening's queue; movedHere: hands typed under an old link go with this one */
  function notice(items, movedHere, say) {
    var box = document.getElementById("queue-notice");
    if (!box) return;
    var lines = [];
    if (items.some(function (i) { return i.state === "conflict"; })) lines.push(say("notice_conflict"));
    if (items.some(function (i) { return i.state === "refused"; })) lines.push(say("notice_refused"));
    var act = lines.length > 0;
    if (movedHere) lines.push(say("moved_here"));
    box.textContent = "";
    lines.forEach(function (text) { box.appendChild(para(text)); });
    if (act) {
      var a = document.createElement("a");
      a.href = "#queue";
      a.textContent = say("to_queue");
      box.appendChild(para(null)).appendChild(a);
    }
    box.hidden = !lines.length;
    box.className = lines.length ? "queue-notice flash " + (act ? "flash-error" : "flash-warning") : "queue-notice";
  }

  /* #live was replaced by a copy (offline.js, a replaced link): the server's guide is the same */
  function follow(old, copy) { if (drawn && drawn.live === old) drawn.live = copy; }

  /* The queue's database new again (queue.js counts) while this page showed hands waiting in
     it: the browser cleared the phone's storage. Said at the top, with the hands to enter again. */
  var shown = [], created = -1;
  function lost(items, now, describe, say) {
    var ids = items.map(function (i) { return i.request_id; });
    var gone = created >= 0 && now > created ? shown.filter(function (i) { return ids.indexOf(i.request_id) < 0; }) : [];
    created = now;
    shown = items.filter(function (i) { return i.state === "queued" || i.state === "sending" || i.state === "moved"; });
    if (!gone.length) return;
    var box = para(say("lost", { hands: gone.map(function (i) { return describe(i.hand); }).join("; ") }), "flash flash-error");
    box.setAttribute("role", "alert");
    var state = document.getElementById("offline-state");
    state.parentNode.insertBefore(box, state.nextSibling);
  }

  window.SkWaiting = { guide: guide, notice: notice, follow: follow, lost: lost };
})();
