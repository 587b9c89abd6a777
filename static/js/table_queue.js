/* troefclub: the table phone's queue of rounds (issue 18), kept in IndexedDB (idb).
 *
 * Every tap on the table page becomes a queued round with its own idempotency key (a
 * UUID) and is sent from here, in order, to the link's `/t/<token>/round/`
 * (scoring.views.table.table_round_send). The queue survives a reload, a closed tab and
 * an offline evening; the page (static/js/table.js) and the service worker (its
 * Background Sync) both send it, and a round sent twice is stored once on the server.
 *
 * Each round is sent with `seen`: the game token of the state it was built on, from the
 * server's previous answer ("the chain"). A round the server refuses (the rules, or the
 * game changed meanwhile) is kept, marked refused with the reason, and so are all rounds
 * queued after it: nothing is applied over a newer state, nothing is dropped silently.
 * The phone's user discards such a round or enters it again (on the state it now sees).
 *
 * The director's score sheet queues its rounds here too (static/js/sheet_queue.js): a
 * queued round may carry its endpoint (`url`, default: the page's `round/`), the marker of
 * the page's part that answers replace in the cached page (`marker`, default "table") and
 * the form's own fields (`fields`: {name: value}, sent as they are).
 *
 * Works in a page and in the service worker (needs the global `idb`): it only defines
 * `self.TableQueue`.
 */
(function (root) {
  "use strict";

  var DB_NAME = "troefclub-table";
  var SEND_TIMEOUT_MS = 8000;
  var opened = null;

  function db() {
    if (!opened) {
      opened = root.idb.openDB(DB_NAME, 1, {
        upgrade: function (database) {
          // A queued round: {key, page, seq, result, side, caller, label, status, reason, csrf}.
          var rounds = database.createObjectStore("rounds", { keyPath: "key" });
          rounds.createIndex("page", "page");
          // The chain of each link's page: {page, token, rounds}, the server's last word.
          database.createObjectStore("chains", { keyPath: "page" });
        },
      });
    }
    return opened;
  }

  function uuid() {
    if (root.crypto && root.crypto.randomUUID) {
      return root.crypto.randomUUID();
    }
    // Plain http on a club's network is no secure context: no randomUUID there.
    var bytes = root.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    });
    return [hex.slice(0, 4), hex.slice(4, 6), hex.slice(6, 8), hex.slice(8, 10), hex.slice(10)]
      .map(function (part) {
        return part.join("");
      })
      .join("-");
  }

  function inOrder(rounds) {
    return rounds.sort(function (x, y) {
      return x.seq - y.seq;
    });
  }

  /* The queued rounds of the link's page `page`, in the order they were entered. */
  function list(page) {
    return db()
      .then(function (database) {
        return database.getAllFromIndex("rounds", "page", page);
      })
      .then(inOrder);
  }

  /* The queued rounds of `page` and its chain, read in one transaction. Another tab
   * sending the same queue removes a stored round and moves the chain in one transaction
   * too (`storedRound`): two reads could see the round gone but the chain from before
   * it, and send the next round on a state the server left behind ("changed meanwhile"). */
  function listWithChain(page) {
    return db()
      .then(function (database) {
        var tx = database.transaction(["rounds", "chains"], "readonly");
        return Promise.all([
          tx.objectStore("rounds").index("page").getAll(page),
          tx.objectStore("chains").get(page),
          tx.done,
        ]);
      })
      .then(function (loaded) {
        return [inOrder(loaded[0]), loaded[1]];
      });
  }

  /* The round `key` of `page` is stored: it leaves the queue and the server's answer
   * becomes the chain, in one transaction. An answer behind the chain (another tab's
   * later round was answered first) leaves the chain as it is. */
  function storedRound(page, key, token, rounds) {
    return db().then(function (database) {
      var tx = database.transaction(["rounds", "chains"], "readwrite");
      var chains = tx.objectStore("chains");
      return Promise.all([
        tx.objectStore("rounds").delete(key),
        chains.get(page).then(function (known) {
          if (!known || !(known.rounds > rounds)) {
            return chains.put({ page: page, token: token, rounds: rounds });
          }
          return undefined;
        }),
        tx.done,
      ]);
    });
  }

  /* Round `key` and the chain of `page` as stored now, read together. */
  function roundWithChain(page, key) {
    return db().then(function (database) {
      var tx = database.transaction(["rounds", "chains"], "readonly");
      return Promise.all([
        tx.objectStore("rounds").get(key),
        tx.objectStore("chains").get(page),
        tx.done,
      ]);
    });
  }

  var lastSeq = 0;
  function nextSeq() {
    lastSeq = Math.max(Date.now() * 1000, lastSeq + 1);
    return lastSeq;
  }

  /* Queue a round of `page` ({result, side, caller, label, csrf}, optionally url, marker,
   * fields); returns it. */
  function add(page, round) {
    var item = Object.assign({}, round, {
      key: uuid(),
      page: page,
      seq: nextSeq(),
      status: "waiting",
      reason: "",
    });
    return db()
      .then(function (database) {
        return database.put("rounds", item);
      })
      .then(function () {
        return item;
      });
  }

  function remove(key) {
    return db().then(function (database) {
      return database.delete("rounds", key);
    });
  }

  /* A refused round entered again: a new key, waiting, at the end of the queue. */
  function reenter(item) {
    return remove(item.key).then(function () {
      return add(item.page, {
        result: item.result,
        side: item.side,
        caller: item.caller,
        label: item.label,
        csrf: item.csrf,
        url: item.url,
        marker: item.marker,
        fields: item.fields,
      });
    });
  }

  function chain(page) {
    return db().then(function (database) {
      return database.get("chains", page);
    });
  }

  /* The page's own state becomes the chain, unless rounds are still queued (their chain
   * is the server's answers, which a page from the cache may be behind). Read and written
   * in one transaction: a tab sending the queue meanwhile can't slip a round in between. */
  function adoptPage(page, token, rounds) {
    return db().then(function (database) {
      var tx = database.transaction(["rounds", "chains"], "readwrite");
      var chains = tx.objectStore("chains");
      var adopted = tx
        .objectStore("rounds")
        .index("page")
        .getAll(page)
        .then(function (items) {
          var pending = items.some(function (item) {
            return item.status === "waiting";
          });
          return pending ? undefined : chains.put({ page: page, token: token, rounds: rounds });
        });
      return Promise.all([adopted, tx.done]);
    });
  }

  function timedFetch(url, options) {
    var controller = new AbortController();
    var timer = setTimeout(function () {
      controller.abort();
    }, SEND_TIMEOUT_MS);
    options.signal = controller.signal;
    return fetch(url, options).finally(function () {
      clearTimeout(timer);
    });
  }

  /* Put the sheet of an answer into the service worker's copy of the page, so a reload
   * while offline shows the rounds stored so far (the markers `<!--table-->` and
   * `<!--/table-->` are in table_sheet.html; `marker` names others, game_sheet.html's). */
  function cachePage(page, html, release, marker) {
    var open = "<!--" + (marker || "table") + "-->";
    var close = "<!--/" + (marker || "table") + "-->";
    if (!root.caches || !release || !html) {
      return Promise.resolve();
    }
    return root.caches.open("troefclub-pages-" + release).then(function (cache) {
      return cache.match(page, { ignoreVary: true }).then(function (cached) {
        if (!cached) {
          return undefined;
        }
        return cached.text().then(function (text) {
          var start = text.indexOf(open);
          var end = text.indexOf(close);
          if (start < 0 || end < start) {
            return undefined;
          }
          var fresh = text.slice(0, start + open.length) + html + text.slice(end);
          return cache.put(
            page,
            new Response(fresh, {
              headers: { "Content-Type": "text/html; charset=utf-8" },
            })
          );
        });
      });
    });
  }

  /* The form a queued round is sent with, built on the chain `state`. */
  function roundBody(item, state) {
    var body = new URLSearchParams();
    Object.keys(item.fields || {}).forEach(function (name) {
      body.set(name, item.fields[name]);
    });
    body.set("key", item.key);
    body.set("seen", state.token);
    body.set("number", String(state.rounds + 1));
    if (item.result) {
      body.set("result", item.result);
    }
    if (item.side) {
      body.set("side", item.side);
    }
    if (item.caller) {
      body.set("caller", item.caller);
    }
    body.set("html", "1");
    return body;
  }

  var running = {};
  var inFlight = {}; // the key of the round being sent, per page, in this context

  /* Send the waiting rounds of `page`, in order. `hooks.stored(item, answer)`,
   * `hooks.refused(item, answer)` tell the page, `hooks.csrf` is its CSRF token,
   * `hooks.url` the endpoint (else the round's own `url`, else the page's `round/`);
   * `release` names the page cache.
   * Resolves {sent, offline, refused}: offline when the network failed (they stay
   * waiting; send again later). One run per page at a time in this context. */
  function flush(page, hooks, release) {
    if (running[page]) {
      return running[page];
    }
    hooks = hooks || {};
    var result = { sent: 0, offline: false, refused: false };
    var run = listWithChain(page)
      .then(function (loaded) {
        var items = loaded[0].filter(function (item) {
          return item.status === "waiting";
        });
        var state = loaded[1];
        if (!state) {
          return result; // the page never told its state: nothing to build on
        }
        var index = 0;
        function next() {
          if (index >= items.length) {
            return result;
          }
          var item = items[index];
          index += 1;
          // Claimed before it is read again: an undo that took it back meanwhile (its
          // delete ordered before this read) wins, one that comes later waits for it.
          inFlight[page] = item.key;
          return roundWithChain(page, item.key).then(function (now) {
            var still = now[0];
            var known = now[1];
            if (!still || still.status !== "waiting") {
              delete inFlight[page];
              return next();
            }
            // Another tab (or the service worker) sending this queue stored rounds this
            // run skipped above: its answer is the state this round is built on.
            if (known && known.rounds > state.rounds) {
              state = known;
            }
            return post(item, roundBody(item, state));
          });
        }

        function post(item, body) {
          return timedFetch(hooks.url || item.url || page + "round/", {
            method: "POST",
            body: body,
            credentials: "same-origin",
            // The page's own token when a page sends (a login since the tap changes it),
            // else the one the round was queued with (the service worker).
            headers: {
              "X-CSRFToken": hooks.csrf || item.csrf || "",
              Accept: "application/json",
            },
          })
            .then(
              function (response) {
                if (response.redirected || response.status === 403) {
                  // Sent to the login page (a director's login expired) or refused its
                  // CSRF token: not refused by the rules. Kept, tried again, and the page
                  // says to log in again.
                  result.login = true;
                  return null;
                }
                if (response.status >= 500) {
                  return null; // not refused by the rules: try again later
                }
                return response.json().catch(function () {
                  return null;
                });
              },
              function () {
                return null; // no connection (or no answer in time)
              }
            )
            .then(function (answer) {
              delete inFlight[page];
              if (!answer) {
                result.offline = true;
                return result;
              }
              if (answer.stored) {
                state = { page: page, token: answer.token, rounds: answer.rounds };
                result.sent += 1;
                return Promise.all([
                  storedRound(page, item.key, answer.token, answer.rounds),
                  cachePage(page, answer.html, release, item.marker),
                ])
                  .then(function () {
                    return hooks.stored && hooks.stored(item, answer);
                  })
                  .then(next);
              }
              result.refused = true;
              return refuseFrom(page, item, answer, items.slice(index)).then(function () {
                return Promise.all([
                  cachePage(page, answer.html, release, item.marker),
                  hooks.refused && hooks.refused(item, answer),
                ]);
              }).then(function () {
                return result;
              });
            });
        }
        return next();
      })
      .finally(function () {
        delete running[page];
        delete inFlight[page];
      });
    running[page] = run;
    return run;
  }

  /* `item` was refused with `answer`: it and every round queued after it (built on it)
   * are kept, refused, with the reason. The chain becomes the server's state of now: a
   * round entered from here on is built on what the page shows. */
  function refuseFrom(page, item, answer, later) {
    return db().then(function (database) {
      var tx = database.transaction(["rounds", "chains"], "readwrite");
      var store = tx.objectStore("rounds");
      var puts = [item].concat(later).map(function (round, position) {
        return store.get(round.key).then(function (stored) {
          if (!stored) {
            return undefined;
          }
          stored.status = "refused";
          stored.reason = answer.message || "";
          stored.held = position > 0 && answer.refused !== "game_changed_meanwhile";
          return store.put(stored);
        });
      });
      if (answer.token !== undefined) {
        puts.push(
          tx.objectStore("chains").put({ page: page, token: answer.token, rounds: answer.rounds })
        );
      }
      puts.push(tx.done);
      return Promise.all(puts);
    });
  }

  /* Every link page with waiting rounds (the service worker's Background Sync). */
  function pages() {
    return db()
      .then(function (database) {
        return database.getAll("rounds");
      })
      .then(function (rounds) {
        var found = {};
        rounds.forEach(function (round) {
          if (round.status === "waiting") {
            found[round.page] = true;
          }
        });
        return Object.keys(found);
      });
  }

  /* Send the waiting rounds of every page but those in `skip` (pages open in sight send
   * their own). */
  function flushAll(release, skip) {
    return pages().then(function (all) {
      return all.filter(function (page) {
        return !skip || skip.indexOf(page) < 0;
      }).reduce(function (done, page) {
        return done.then(function () {
          return flush(page, {}, release);
        });
      }, Promise.resolve());
    });
  }

  /* The key of the round of `page` on its way to the server now (from this context), and
   * the run sending it: an undo waits for its answer instead of taking it back. */
  /* The CSRF token a page sends its queue with. The cookie first: a login in another tab
   * (after a director's session expired) gives a new token, which the page's copy in the
   * body's `hx-headers` doesn't know. Pages only (the service worker sends with the token
   * each round was queued with). */
  function csrfToken() {
    var cookie = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (cookie) {
      return decodeURIComponent(cookie[1]);
    }
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  /* Ask the service worker to send the queues once the browser sees a connection. */
  function askSync() {
    if (!("serviceWorker" in navigator)) {
      return;
    }
    navigator.serviceWorker.ready
      .then(function (registration) {
        return registration.sync && registration.sync.register("table-queue");
      })
      .catch(function () {
        // No Background Sync (Firefox, Safari): `online` and the timer send it.
      });
  }

  function sending(page) {
    return inFlight[page] ? { key: inFlight[page], done: running[page] } : null;
  }

  root.TableQueue = {
    csrfToken: csrfToken,
    askSync: askSync,
    sending: sending,
    add: add,
    list: list,
    remove: remove,
    reenter: reenter,
    chain: chain,
    adoptPage: adoptPage,
    flush: flush,
    flushAll: flushAll,
    cachePage: cachePage,
  };
})(self);
