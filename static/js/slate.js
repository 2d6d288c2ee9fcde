/* scorekeeper: the slate's record and correction form at a real table (no build step).
   The two piles fill each other, a tapped cell always leads to a hand entry (never to a Seich
   nobody saw coming) with the partner whose turn it was as declarer, and an entry survives a
   dropped connection. app.js keeps the rest of the form (rows per declarer, "played as"). */
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

  function slateState() {
    var el = document.querySelector("#live .slate-state");
    if (!el) return {};
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }

  /* Tap (or Enter on) an open cell: a hand in that row for that column, never a Seich; the
     declarer is the player of that column whose turn it was to choose (the turn guide's
     speaking order), or, when nobody knows, the form asks. */
  function cellTap(form) {
    var rowSel = form.querySelector("select[name=row]");
    if (!rowSel) return;
    document.addEventListener("click", function (ev) {
      var td = ev.target.closest && ev.target.closest("td.open[data-row]");
      if (!td) return;
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
      var next = radio ? form.querySelector("input[name=declarer_points]") : form.querySelector("input[name=declarer][data-side='" + td.dataset.side + "']");
      form.scrollIntoView({ behavior: "smooth", block: "start" });
      if (next) setTimeout(function () { next.focus({ preventScroll: true }); }, 300);
    });
  }

  /* Sent in the background, with its request id: a dropped connection keeps the form and its
     values and says so; sending again is safe (the server writes a request id once). A refused
     entry is sent again the ordinary way, so the page shows why. */
  function sendKeep(form) {
    if (!window.fetch || !window.FormData) return;
    var box = form.querySelector("[data-send-error]");
    form.addEventListener("submit", function (ev) {
      if (ev.defaultPrevented && !form.dataset.sent) return;
      ev.preventDefault();
      if (form.dataset.fetching) return;
      form.dataset.fetching = "1";
      if (box) box.hidden = true;
      /* the last entry's "Hand recorded" would speak of this one while it is on its way */
      document.querySelectorAll(".flashes .flash-success").forEach(function (f) { f.remove(); });
      var body = new FormData(form);
      fetch(form.action, { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
        .then(function (res) {
          if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
            window.location.assign(form.dataset.after);
          } else {
            HTMLFormElement.prototype.submit.call(form);
          }
        }, function () {
          delete form.dataset.fetching;
          delete form.dataset.sent;
          if (box) { box.hidden = false; box.scrollIntoView({ block: "center" }); }
        });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-record]").forEach(function (form) {
      piles(form);
      seichGuard(form);
      cellTap(form);
      sendKeep(form);
    });
  });
})();
