/* The digital table's seat page.
   - A refused card or a stale tap (409/422 carry the fresh seat view and the reason) is shown,
     not dropped.
   - "Your turn" is announced once per turn (aria-live region outside the polled fragment) and,
     where the phone allows it, a short vibration: never with reduced motion asked for, and only
     after the player has touched the page (browsers refuse vibration before that).
   - Keyboard: when the fragment is swapped while the focus was in it, the focus goes to the same
     thing again (data-key), or, when that is gone (the card just played), to the first thing to
     do (on the seat's turn) or to the turn line, never back to the top of the page. The
     fragment's elements carry no ids: htmx would show their old attributes while settling. */
(function () {
  "use strict";
  var announced = null;
  var wantFocus = false; /* the focus was in the seat view when it was swapped, and not put back yet */
  var focusKey = null; /* the data-key of what had the focus */

  function live() { return document.getElementById("seat-live"); }

  function vibrate() {
    if (typeof navigator.vibrate !== "function") return;
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    try { navigator.vibrate(200); } catch (e) { /* not allowed here */ }
  }

  function announceTurn() {
    var el = live();
    var region = document.getElementById("turn-announcer");
    if (!el || !region) return;
    var turn = el.dataset.turn;
    if (!turn || turn === announced) return;
    announced = turn;
    region.textContent = "";
    /* a fresh text node after a pause: screen readers announce it even when the words repeat */
    window.setTimeout(function () { region.textContent = el.dataset.turnText || ""; }, 100);
    vibrate();
  }

  function firstAction(el) {
    return el.querySelector(".hand .card.legal:not([disabled])") ||
      el.querySelector(".choices [data-choice], .choices summary, .choices [data-pass]") ||
      el.querySelector("[data-deal-next]");
  }

  function restoreFocus() {
    var el = live();
    if (!el || !wantFocus) return;
    wantFocus = false;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var same = null;
    el.querySelectorAll("[data-key]").forEach(function (k) { if (!same && k.dataset.key === focusKey) same = k; });
    var target = (same && !same.disabled && same) || (el.dataset.turn && firstAction(el)) ||
      el.querySelector("[data-deal-next]") || el.querySelector("[data-turn-line]");
    if (target) target.focus();
  }

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    var target = evt.detail.target;
    if (!target || target.id !== "seat-live") return;
    var active = document.activeElement;
    if (active && target.contains(active)) {
      wantFocus = true;
      focusKey = active.dataset ? active.dataset.key || null : null;
    }
    if (status === 409 || status === 422) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    restoreFocus();
    announceTurn();
  });
  document.addEventListener("DOMContentLoaded", announceTurn);
})();
