/* scorekeeper: the phone's queue of hands recorded offline (issue 11), in IndexedDB.
   Used by the page (offline.js) and by the service worker (Background Sync).
   An item: {request_id, evening, seq, url, token, base (the version it was made on),
   earlier (the request ids queued before it on this phone), hand (the API's HandInput
   fields), state: queued | sending | refused | conflict | moved, reason, version (of a conflict)}.
   Sent in order through the API: 200 -> gone (the hand is on the slate; a resend of the same
   request id records nothing), 409 -> conflict (kept, with its values), 410 -> moved (the link
   was replaced: kept, and sent once the page of the evening's new link takes it over, rebind),
   any other answer -> refused with the server's reason (kept), no network -> stays queued.
   Items belong to an evening (its public id stays when links change), not to a link. */
(function (root) {
  "use strict";
  var DB = "scorekeeper-offline", STORE = "hands";

  function open() {
    return new Promise(function (resolve, reject) {
      var req = root.indexedDB.open(DB, 1);
      req.onupgradeneeded = function (ev) {
        if (!ev.oldVersion) root.SkQueue.created += 1; /* new, or the browser cleared it (offline.js) */
        var store = req.result.createObjectStore(STORE, { keyPath: "request_id" });
        store.createIndex("evening", "evening");
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error || new Error("indexedDB.open")); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var out = work(t.objectStore(STORE));
        t.oncomplete = function () { db.close(); resolve(out instanceof root.IDBRequest ? out.result : out); };
        t.onerror = function () { db.close(); reject(t.error || new Error("indexedDB transaction")); };
      });
    });
  }

  function bySeq(a, b) { return a.seq - b.seq; }

  /* Every item of an evening (or of every evening: null), oldest first. */
  function list(evening) {
    return run("readonly", function (store) {
      return evening ? store.index("evening").getAll(evening) : store.getAll();
    }).then(function (items) { return (items || []).sort(bySeq); });
  }

  function put(item) { return run("readwrite", function (store) { store.put(item); }); }
  function get(requestId) { return run("readonly", function (store) { return store.get(requestId); }); }
  function remove(requestId) { return run("readwrite", function (store) { store.delete(requestId); }); }

  function newId() {
    if (root.crypto && root.crypto.randomUUID) return root.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    root.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  /* A new hand at the end of the evening's queue: it names every hand queued before it.
     state: "queued" (default), or "moved" (typed on a page whose link was replaced). */
  function add(evening, url, token, base, hand, state) {
    return list(evening).then(function (items) {
      var last = items.length ? items[items.length - 1].seq : 0;
      var item = {
        request_id: newId(), evening: evening, seq: Math.max(last + 1, Date.now()), url: url, token: token,
        base: base, earlier: items.map(function (i) { return i.request_id; }), hand: hand, state: state || "queued",
      };
      return put(item).then(function () { return item; });
    });
  }

  function post(item, body) {
    return root.fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + item.token },
      body: JSON.stringify(body),
    }).then(function (resp) {
      return resp.json().then(function (data) { return { status: resp.status, data: data }; },
        function () { return { status: resp.status, data: {} }; });
    });
  }

  function bodyOf(item) {
    var body = { request_id: item.request_id, expected_version: item.base, queued_after: item.earlier };
    Object.keys(item.hand).forEach(function (k) { body[k] = item.hand[k]; });
    return body;
  }

  /* Send one item: the answer decides what stays. Rejects when there is no network.
     "gone": another sender (the page or the worker) got it accepted meanwhile;
     "later": the server is busy (429) or failing (5xx): it stays queued for the next try. */
  function sendOne(item, body) {
    return get(item.request_id).then(function (current) {
      if (!current || current.state === "refused" || current.state === "conflict" || current.state === "moved") return "gone";
      item.state = "sending";
      return put(item).then(function () { return post(item, body || bodyOf(item)); }).then(answered, lost);
    });

    function lost(err) {
      return get(item.request_id).then(function (current) {
        if (!current) return null;
        item.state = "queued";
        return put(item);
      }).then(function () { throw err; });
    }

    function answered(answer) {
      if (answer.status === 200) return remove(item.request_id).then(function () { return "accepted"; });
      if (answer.status === 429 || answer.status >= 500) {
        item.state = "queued";
        return put(item).then(function () { return "later"; });
      }
      if (answer.status === 409) {
        item.state = "conflict";
        item.version = answer.data.version;
      } else if (answer.status === 410 && !(answer.data.error && answer.data.error.code === "evening_deleted")) {
        /* the link was replaced: nothing was written; kept for the new link (a deleted evening: refused) */
        item.state = "moved";
        item.reason = answer.data.error ? answer.data.error.message : "";
      } else {
        item.state = "refused";
        item.reason = answer.data.error ? answer.data.error.message : String(answer.status);
      }
      return put(item).then(function () { return item.state; });
    }
  }

  /* One sender at a time across the page and the worker (a Web Lock where the browser has it). */
  function exclusive(work) {
    var locks = root.navigator && root.navigator.locks;
    return locks ? locks.request("scorekeeper-queue", work) : work();
  }

  var running = null;
  /* Send every queued hand (of one evening, or of all: null) in order; stops at the first
     network failure, a busy server or a replaced link. Resolves to {accepted, refused, conflict,
     gone, later, moved, offline, reason (a replaced link's message)}. */
  function sync(evening) {
    return exclusive(function () { return syncHere(evening); });
  }

  function syncHere(evening) {
    if (running) return running.then(function () { return syncHere(evening); });
    var outcome = { accepted: 0, refused: 0, conflict: 0, gone: 0, later: 0, moved: 0, offline: false, reason: "" };
    var replaced = null; /* the link just answered "replaced" */
    running = list(evening).then(function (items) {
      var todo = items.filter(function (i) { return i.state === "queued" || i.state === "sending"; });
      return todo.reduce(function (chain, item) {
        return chain.then(function () {
          if (outcome.offline || outcome.later) return null;
          if (replaced !== null && item.token === replaced) return markMoved(item, outcome.reason);
          return sendOne(item).then(function (state) {
            outcome[state] += 1;
            if (state === "moved") { outcome.reason = item.reason; replaced = item.token; }
          }, function () { outcome.offline = true; });
        });
      }, Promise.resolve());
    }).then(function () { running = null; return outcome; }, function (err) { running = null; throw err; });
    return running;
  }

  /* The same link was just answered "replaced": its other hands wait too, unsent. */
  function markMoved(item, reason) {
    return get(item.request_id).then(function (current) {
      if (!current || (current.state !== "queued" && current.state !== "sending")) return null;
      current.state = "moved";
      current.reason = reason;
      return put(current);
    });
  }

  /* The page of an evening's (new) write link takes its hands over: every item of the evening
     sent through another link, or kept because its link was replaced, goes with this one (the
     queue's rules still apply: never twice, a conflict when the slate moved on meanwhile).
     Resolves to the number of kept ("moved") hands that go again. */
  function rebind(evening, url, token) {
    return exclusive(function () {
      return list(evening).then(function (items) {
        var again = 0;
        var changed = items.filter(function (item) {
          var moved = item.state === "moved";
          if (!moved && item.token === token && item.url === url) return false;
          if (moved) { item.state = "queued"; delete item.reason; again += 1; }
          item.token = token;
          item.url = url;
          return true;
        });
        return changed.reduce(function (chain, item) { return chain.then(function () { return put(item); }); },
          Promise.resolve()).then(function () { return again; });
      });
    });
  }

  /* A conflict recorded anyway: a new entry with a new request id on the fresh version. */
  function recordAnyway(item) {
    return exclusive(function () { return recordAgain(item); });
  }

  function recordAgain(item) {
    return remove(item.request_id).then(function () {
      var again = {
        request_id: newId(), evening: item.evening, seq: item.seq, url: item.url, token: item.token,
        base: item.version, earlier: [], hand: item.hand, state: "queued",
      };
      var body = { request_id: again.request_id, expected_version: again.base };
      Object.keys(again.hand).forEach(function (k) { body[k] = again.hand[k]; });
      return put(again).then(function () { return sendOne(again, body); });
    });
  }

  root.SkQueue = { created: 0, list: list, add: add, remove: remove, sync: sync, recordAnyway: recordAnyway, rebind: rebind };
})(self);
