/* scorekeeper: the phone's queue of hands recorded offline (issue 11), in IndexedDB.
   Used by the page (offline.js) and by the service worker (Background Sync).
   An item: {request_id, evening, seq, url, token, base (the version it was made on),
   earlier (the request ids queued before it on this phone), hand (the API's HandInput
   fields), state: queued | sending | refused | conflict, reason, version (of a conflict)}.
   Sent in order through the API: 200 -> gone (the hand is on the slate; a resend of the same
   request id records nothing), 409 -> conflict (kept, with its values), any other answer ->
   refused with the server's reason (kept), no network -> stays queued. */
(function (root) {
  "use strict";
  var DB = "scorekeeper-offline", STORE = "hands";

  function open() {
    return new Promise(function (resolve, reject) {
      var req = root.indexedDB.open(DB, 1);
      req.onupgradeneeded = function () {
        var store = req.result.createObjectStore(STORE, { keyPath: "request_id" });
        store.createIndex("evening", "evening");
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var out = work(t.objectStore(STORE));
        t.oncomplete = function () { db.close(); resolve(out instanceof root.IDBRequest ? out.result : out); };
        t.onerror = function () { db.close(); reject(t.error); };
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

  /* A new hand at the end of the evening's queue: it names every hand queued before it. */
  function add(evening, url, token, base, hand) {
    return list(evening).then(function (items) {
      var last = items.length ? items[items.length - 1].seq : 0;
      var item = {
        request_id: newId(), evening: evening, seq: Math.max(last + 1, Date.now()), url: url, token: token,
        base: base, earlier: items.map(function (i) { return i.request_id; }), hand: hand, state: "queued",
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
      if (!current || current.state === "refused" || current.state === "conflict") return "gone";
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
     network failure or a busy server. Resolves to {accepted, refused, conflict, gone, later, offline}. */
  function sync(evening) {
    return exclusive(function () { return syncHere(evening); });
  }

  function syncHere(evening) {
    if (running) return running.then(function () { return syncHere(evening); });
    var outcome = { accepted: 0, refused: 0, conflict: 0, gone: 0, later: 0, offline: false };
    running = list(evening).then(function (items) {
      var todo = items.filter(function (i) { return i.state === "queued" || i.state === "sending"; });
      return todo.reduce(function (chain, item) {
        return chain.then(function () {
          if (outcome.offline || outcome.later) return null;
          return sendOne(item).then(function (state) { outcome[state] += 1; }, function () { outcome.offline = true; });
        });
      }, Promise.resolve());
    }).then(function () { running = null; return outcome; }, function (err) { running = null; throw err; });
    return running;
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

  root.SkQueue = { list: list, add: add, remove: remove, sync: sync, recordAnyway: recordAnyway };
})(self);
