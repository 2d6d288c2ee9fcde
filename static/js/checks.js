/* scorekeeper: the checks of RULES.md 7 a phone can make without the server (issue 11).
   The rules come as data from the page (present/offline.py rule_snapshot, a JSON island);
   the order and the codes are the core's (scoring/slate.py check_entry). A hand that passes
   here may still be refused by the server (the Seich rules, another phone's hand). */
(function () {
  "use strict";

  function fill(template, params) {
    return template.replace(/%\(([a-z_]+)\)s/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : all;
    });
  }

  /* {code, params} for the first rule the hand breaks, or null. */
  function firstProblem(rules, hand) {
    var total = rules.total;
    if (rules.complete) return { code: "evening_complete", params: {} };
    var seat = hand.declarer_seat;
    if (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0 || seat >= rules.seat_side.length) {
      return { code: "declarer_unknown", params: { seat: seat } };
    }
    if (hand.seich) return null; /* the barrel and the Seich rules are the server's to check */
    var key = hand.row_key;
    if (typeof key !== "string" || !key) return { code: "row_required", params: {} };
    var row = Object.prototype.hasOwnProperty.call(rules.rows, key) ? rules.rows[key] : null;
    if (!row) return { code: "row_unknown", params: { row: key } };
    var side = rules.seat_side[seat];
    if (rules.full.indexOf(side) >= 0) return { code: "side_full", params: {} };
    if (rules.open[side].indexOf(key) < 0) return { code: "row_closed", params: { row: row.label } };
    var as = hand.played_as;
    if (as === null || as === undefined || as === "") {
      if (row.choice) return { code: "contract_required", params: { row: row.label } };
    } else if (row.allows.indexOf(as) < 0) {
      return { code: "contract_not_allowed", params: { row: row.label, contract: rules.contracts[as] || as } };
    }
    var d = hand.declarer_points, o = hand.defender_points;
    if (!Number.isInteger(d) || !Number.isInteger(o)) return { code: "points_not_whole", params: {} };
    var piles = [d, o];
    for (var i = 0; i < 2; i++) {
      if (piles[i] < 0 || piles[i] > total) return { code: "points_range", params: { points: piles[i] } };
    }
    if (d + o !== total) return { code: "points_sum", params: { declarer: d, defenders: o, sum: d + o } };
    if (hand.match && hand.countermatch) return { code: "match_and_countermatch", params: {} };
    if (hand.match && (d !== total || o !== 0)) return { code: "match_needs_all", params: { declarer: d, defenders: o } };
    if (hand.countermatch && (d !== 0 || o !== total)) return { code: "countermatch_needs_none", params: { declarer: d, defenders: o } };
    return null;
  }

  /* null when the phone finds nothing wrong, else {code, params, message} in the page's language. */
  function check(rules, hand) {
    var problem = firstProblem(rules, hand);
    if (!problem) return null;
    problem.message = fill(rules.messages[problem.code] || problem.code, problem.params);
    return problem;
  }

  /* The hand as the slate counts it: the rules after it (its cell no longer open). */
  function after(rules, hand) {
    var next = JSON.parse(JSON.stringify(rules));
    if (hand.seich || !hand.row_key) return next;
    var side = next.seat_side[hand.declarer_seat];
    next.open[side] = next.open[side].filter(function (k) { return k !== hand.row_key; });
    if (!next.open[side].length && next.full.indexOf(side) < 0) next.full.push(side);
    next.complete = next.open.every(function (rows) { return !rows.length; });
    return next;
  }

  window.ScorekeeperChecks = { check: check, after: after, fill: fill };
})();
