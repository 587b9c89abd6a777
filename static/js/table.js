/* troefclub: the table phone's page working offline (issue 18).
 *
 * A tap on a round button does not post the form: the round goes into this phone's queue
 * (static/js/table_queue.js, IndexedDB) and shows at once as "waiting to send", with the
 * running score from the phone's copy of the rules (static/js/table_rules.js, fed by the
 * server's data-engine). The queue is sent in order right away, when the connection comes
 * back (`online`), every 15 s while rounds wait, and by the service worker's Background
 * Sync. Each answer brings the sheet as the server has it now. A refused round stays,
 * with the reason, until the user discards it or enters it again. "Undo" takes back a
 * round still queued before it asks the server.
 *
 * Without IndexedDB (or this script) the form posts as before, with its own key.
 * The texts come translated from #table-texts's data attributes.
 */
(function () {
  "use strict";

  // Sent again after 2 s, 4 s, 8 s, then every 15 s while rounds wait (the network may be
  // back without an `online` event, a server may have answered 500 once).
  var RETRY_FIRST_MS = 2000;
  var RETRY_MAX_MS = 15000;
  var retryMs = RETRY_FIRST_MS;
  var ready = null; // resolves to true when the queue can be used
  var usable = false; // the same, known synchronously once found (a submit can't wait)
  var pending = 0; // rounds waiting in the queue, as last shown

  function outbox() {
    return document.getElementById("table-outbox");
  }

  /* The page's texts and addresses (outside the sheet that every answer brings anew). */
  function say() {
    var texts = document.getElementById("table-texts");
    return texts ? texts.dataset : null;
  }

  function tablePage() {
    return document.getElementById("table");
  }

  function pageUrl() {
    var texts = say();
    return texts ? texts.page : null;
  }

  function queueUsable() {
    if (!ready) {
      ready =
        window.idb && window.indexedDB && window.TableQueue
          ? window.TableQueue.list("/probe/").then(
              function () {
                usable = true;
                return true;
              },
              function () {
                return false;
              }
            )
          : Promise.resolve(false);
    }
    return ready;
  }

  // ------------------------------------------------------------ the running score

  function engine() {
    var table = tablePage();
    try {
      return table ? JSON.parse(table.dataset.engine) : null;
    } catch (error) {
      return null;
    }
  }

  /* The waiting rounds applied on the server's state: [{item, points, score}], and the
   * state after them (null when the rules copy has no state). */
  function projected(items) {
    var data = engine();
    var state = data && data.state;
    var rows = [];
    items.forEach(function (item) {
      if (item.status !== "waiting") {
        rows.push({ item: item, points: null, score: null });
        return;
      }
      if (!state) {
        rows.push({ item: item, points: null, score: null });
        return;
      }
      try {
        var step = window.TableRules.apply(data.rules, state, {
          result: item.result,
          side: item.side,
          caller: window.TableRules.seatOf(data.seats, item.caller),
        });
        state = step.state;
        rows.push({ item: item, points: step.points, score: state.score });
      } catch (violation) {
        rows.push({ item: item, points: null, score: null, violation: violation.code });
      }
    });
    return { rows: rows, state: state, data: data };
  }

  // ------------------------------------------------------------ showing the queue

  function text(tag, className, content) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (content !== undefined) {
      node.textContent = content;
    }
    return node;
  }

  function render() {
    var box = outbox();
    var page = pageUrl();
    if (!box || !page) {
      return Promise.resolve();
    }
    var texts = say();
    return window.TableQueue.list(page).then(function (items) {
      var view = projected(items);
      var waiting = items.filter(function (item) {
        return item.status === "waiting";
      });
      pending = waiting.length;
      box.classList.toggle("d-none", items.length === 0);
      box.querySelector("#outbox-title").textContent = texts.title;
      var status = box.querySelector(".outbox-status");
      var over = !!(view.state && view.data && window.TableRules.finished(view.data.rules, view.state));
      status.textContent = "";
      if (waiting.length && over) {
        status.textContent = texts.over;
      } else if (waiting.length && !navigator.onLine) {
        status.textContent = texts.offline;
      }
      var list = box.querySelector(".outbox-rounds");
      list.textContent = "";
      var stored = Number(tablePage().dataset.rounds) || 0;
      var number = stored;
      view.rows.forEach(function (row) {
        var item = row.item;
        var line = text("li", "outbox-round outbox-" + item.status);
        line.dataset.key = item.key;
        var head = text("div", "outbox-line");
        if (item.status === "waiting") {
          number += 1;
          head.appendChild(text("span", "outbox-number", String(number)));
        }
        head.appendChild(text("span", "outbox-what", item.label));
        head.appendChild(text("span", "outbox-score", row.score ? row.score[0] + "–" + row.score[1] : ""));
        head.appendChild(
          text(
            "span",
            "badge " + (item.status === "waiting" ? "text-bg-warning" : "text-bg-danger"),
            item.status === "waiting" ? texts.waiting : texts.refused
          )
        );
        line.appendChild(head);
        if (item.status === "refused") {
          line.appendChild(
            text("div", "small text-danger outbox-reason", item.held ? texts.held : item.reason)
          );
          if (item.held) {
            line.appendChild(text("div", "small text-body-secondary", item.reason));
          }
          var buttons = text("div", "d-flex gap-2 mt-1");
          var discard = text("button", "btn btn-sm btn-outline-danger outbox-discard", texts.discard);
          discard.type = "button";
          discard.dataset.key = item.key;
          var again = text("button", "btn btn-sm btn-outline-primary outbox-reenter", texts.reenter);
          again.type = "button";
          again.dataset.key = item.key;
          again.title = texts.reenterHelp;
          buttons.appendChild(discard);
          buttons.appendChild(again);
          line.appendChild(buttons);
        }
        list.appendChild(line);
      });
      var stored_undo = document.getElementById("table-undo");
      if (stored_undo) {
        // While rounds wait, undo takes back the last waiting one: say so, not the
        // stored round's number the server wrote on the button.
        if (!stored_undo.dataset.stored) {
          stored_undo.dataset.stored = stored_undo.textContent;
        }
        stored_undo.textContent = waiting.length ? texts.undo : stored_undo.dataset.stored;
      }
      if (waiting.length && !stored_undo) {
        // No round of this phone stored yet: the sheet offers no undo, the queue does.
        var undo = text("button", "btn btn-sm btn-outline-warning mt-2 outbox-undo", texts.undo);
        undo.type = "button";
        list.appendChild(undo);
      }
      showScore(view, waiting.length, stored + waiting.length);
    });
  }

  /* The scoreboard and the round form as they will be once the waiting rounds are in. */
  function showScore(view, waiting, total) {
    var table = tablePage();
    if (!table) {
      return;
    }
    var state = view.state;
    var scoreA = table.querySelector(".score-a");
    var scoreB = table.querySelector(".score-b");
    if (state && scoreA && scoreB) {
      scoreA.textContent = state.score[0];
      scoreB.textContent = state.score[1];
    }
    table.classList.toggle("table-pending", waiting > 0);
    var form = document.getElementById("table-round-form");
    if (!form) {
      return;
    }
    var title = document.getElementById("round-title");
    if (title) {
      title.textContent = say().round + " " + (total + 1);
    }
    var over = !!(state && view.data && window.TableRules.finished(view.data.rules, state));
    var card = form.closest("section") || form;
    card.classList.toggle("d-none", over && waiting > 0);
    var caller = form.querySelector("select[name=caller]");
    if (caller && state && view.data.seats && state.caller && waiting > 0) {
      caller.value = String(view.data.seats[state.caller - 1]);
    }
  }

  // ------------------------------------------------------------ taking a tap

  // Longer than a double tap (~300 ms), shorter than any deal: settings.TABLE_TAP_GUARD_MS.
  function tapGuardMs() {
    var texts = say();
    var ms = texts ? Number(texts.tapGuard) : NaN;
    return isNaN(ms) ? 500 : ms;
  }
  var lastTapAt = 0;

  function roundOf(form, submitter) {
    var caller = form.querySelector("select[name=caller]");
    var texts = say();
    var results = JSON.parse(texts.results || "{}");
    var round = {
      caller: caller && caller.value ? caller.value : "",
      csrf: window.TableQueue.csrfToken(),
    };
    if (submitter && submitter.name === "quick") {
      round.result = "gewone_winst";
      round.side = submitter.value;
    } else {
      var result = form.querySelector("select[name=result]");
      var side = form.querySelector("input[name=side]:checked");
      if (!result || !result.value) {
        return null; // the server says what is missing
      }
      round.result = result.value;
      if (side) {
        round.side = side.value;
      } else if (round.result === "redeal") {
        round.side = "a"; // stored, but a redeal scores for neither koppel
      } else {
        return null;
      }
    }
    var team = round.side === "a" ? texts.teamA : texts.teamB;
    var label = results[round.result] || round.result;
    round.label = round.result === "redeal" ? label : label + " · " + team;
    return round;
  }

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form || !say()) {
        return;
      }
      if (!usable) {
        return; // no IndexedDB (yet): the form posts as before, with its own key
      }
      if (form.id === "table-round-form") {
        // A nervous double tap is one round, not two (no deal is played in under a second;
        // the queue gives each tap its own key, so the server can't tell them apart).
        var now = Date.now();
        if (now - lastTapAt < tapGuardMs()) {
          event.preventDefault();
          event.stopPropagation();
          return;
        }
        lastTapAt = now;
        var round = roundOf(form, event.submitter);
        if (!round) {
          return; // incomplete: the form posts and the page says why
        }
        // Before htmx sees it: the queue takes the round, whatever the network.
        event.preventDefault();
        event.stopPropagation();
        var details = form.querySelector(".other-result");
        if (details) {
          details.removeAttribute("open");
        }
        window.TableQueue.add(pageUrl(), round).then(function () {
          render();
          send();
        });
      } else if (pending > 0 && form.querySelector("input[name=action][value=undo]")) {
        takeBack(event);
      }
    },
    true
  );

  /* Undo with rounds still queued: the last of them goes from the queue (with none queued
   * the form posts: htmx asks to confirm, the server undoes its last round). A round on its
   * way to the server is not taken back behind its back: its answer is awaited, and once
   * stored the server undoes it. */
  function takeBack(event) {
    if (event) {
      event.preventDefault();
      event.stopPropagation();
    }
    var page = pageUrl();
    window.TableQueue.list(page).then(function (items) {
      var waiting = items.filter(function (item) {
        return item.status === "waiting";
      });
      if (!waiting.length) {
        // Stored meanwhile: the server's undo, as the page would have asked it.
        var undo = document.querySelector("#table-undo");
        var question = undo && undo.closest("form").getAttribute("hx-confirm");
        return !question || window.confirm(question) ? undoStored() : undefined;
      }
      var last = waiting[waiting.length - 1];
      if (!window.confirm(say().undoQueued + "\n" + last.label)) {
        return undefined;
      }
      var flight = window.TableQueue.sending(page);
      if (!flight || flight.key !== last.key) {
        return window.TableQueue.remove(last.key).then(render);
      }
      return flight.done.then(function () {
        return window.TableQueue.list(page).then(function (now) {
          var still = now.some(function (item) {
            return item.key === last.key && item.status === "waiting";
          });
          if (still) {
            return window.TableQueue.remove(last.key).then(render);
          }
          return undoStored();
        });
      });
    });
  }

  /* The server's undo of its last round, as the sheet of now offers it (asked already). */
  function undoStored() {
    var form = document.querySelector("#table form input[name=action][value=undo]");
    form = form && form.form;
    if (!form) {
      return render();
    }
    var values = {};
    new FormData(form).forEach(function (value, name) {
      values[name] = value;
    });
    return window.htmx.ajax("POST", pageUrl(), {
      target: "#table",
      swap: "outerHTML",
      values: values,
      headers: { "X-CSRFToken": window.TableQueue.csrfToken() }, // no source element: body's hx-headers don't apply
    });
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest(".outbox-undo")) {
      takeBack(null);
      return;
    }
    var button = event.target.closest(".outbox-discard, .outbox-reenter");
    if (!button) {
      return;
    }
    var key = button.dataset.key;
    window.TableQueue.list(pageUrl()).then(function (items) {
      var item = items.filter(function (candidate) {
        return candidate.key === key;
      })[0];
      if (!item) {
        return render();
      }
      if (button.classList.contains("outbox-discard")) {
        return window.TableQueue.remove(key).then(render);
      }
      item.csrf = window.TableQueue.csrfToken();
      return window.TableQueue.reenter(item).then(function () {
        render();
        send();
      });
    });
  });

  // ------------------------------------------------------------ sending

  function swapSheet(html) {
    var table = tablePage();
    if (!table || !html) {
      return;
    }
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.firstElementChild;
    if (!fresh || fresh.id !== "table") {
      return;
    }
    keepChoices(table, fresh);
    // The queue as shown stays until render() shows it anew: no flash of an empty queue.
    var shown = table.querySelector("#table-outbox");
    var empty = fresh.querySelector("#table-outbox");
    if (shown && empty) {
      empty.replaceWith(shown);
    }
    table.replaceWith(fresh);
    window.htmx.process(fresh);
  }

  /* An answer arriving while the user is choosing "another result" keeps that open, as
   * chosen: the sheet changes under it, not the user's hand. */
  function keepChoices(old, fresh) {
    var open = old.querySelector(".other-result[open]");
    var target = fresh.querySelector(".other-result");
    if (!open || !target) {
      return;
    }
    target.setAttribute("open", "");
    var result = old.querySelector("select[name=result]");
    var freshResult = fresh.querySelector("select[name=result]");
    if (result && freshResult) {
      freshResult.value = result.value;
    }
    var side = old.querySelector("input[name=side]:checked");
    if (side) {
      var freshSide = fresh.querySelector("input[name=side][value=" + side.value + "]");
      if (freshSide) {
        freshSide.checked = true;
      }
    }
  }

  var timer = null;

  function send() {
    var page = pageUrl();
    if (!page) {
      return Promise.resolve();
    }
    var release = say().release;
    return window.TableQueue.flush(
      page,
      {
        csrf: window.TableQueue.csrfToken(),
        stored: function (item, answer) {
          swapSheet(answer.html);
          return render();
        },
        refused: function (item, answer) {
          swapSheet(answer.html);
          return render();
        },
      },
      release
    ).then(function (result) {
      return window.TableQueue.list(page).then(function (items) {
        var waiting = items.some(function (item) {
          return item.status === "waiting";
        });
        clearTimeout(timer);
        if (waiting && result.offline) {
          window.TableQueue.askSync(); // the service worker sends it too once the browser sees a connection
        }
        if (waiting && (result.offline || result.sent === 0)) {
          timer = setTimeout(send, retryMs);
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        } else {
          retryMs = RETRY_FIRST_MS;
          if (waiting) {
            setTimeout(send, 0); // tapped while this run was sending: the next run, now
          }
        }
        return render()
          .then(catchUp)
          .then(function () {
            return result;
          });
      });
    });
  }

  /* The queue was sent by someone else (the service worker's Background Sync, another
   * tab): the sheet of now, once, when the server's last word is newer than the page. */
  function catchUp() {
    var page = pageUrl();
    return Promise.all([window.TableQueue.list(page), window.TableQueue.chain(page)]).then(
      function (loaded) {
        var waiting = loaded[0].some(function (item) {
          return item.status === "waiting";
        });
        var chain = loaded[1];
        var table = tablePage();
        if (table && table.querySelector(".other-result[open]")) {
          return undefined; // not under the user's hand: the next answer brings the sheet
        }
        if (!waiting && chain && chain.token && table && chain.token !== table.dataset.seen) {
          return window.htmx.ajax("GET", page, { target: "#table", swap: "outerHTML" });
        }
        return undefined;
      }
    );
  }

  // ------------------------------------------------------------ the page's life

  /* The sheet the server rendered (the page, a swap) tells the queue its state. */
  function adopt() {
    var table = tablePage();
    var page = pageUrl();
    if (!table || !page) {
      return Promise.resolve();
    }
    return window.TableQueue.adoptPage(page, table.dataset.seen, Number(table.dataset.rounds) || 0);
  }

  function start() {
    if (!say()) {
      return;
    }
    queueUsable().then(function (works) {
      if (!works) {
        return;
      }
      adopt()
        .then(render)
        .then(send);
    });
    listenToWorker();
  }

  function listenToWorker() {
    // static/js/offline_page.js registers the worker; it says when it sent the queue.
    if (!("serviceWorker" in navigator)) {
      return;
    }
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "queue-sent") {
        render().then(catchUp);
      }
    });
  }

  document.addEventListener("htmx:afterSwap", function () {
    if (usable && tablePage()) {
      adopt().then(render); // an undo, a confirmation, a poll: the server's sheet of now
    }
  });
  window.addEventListener("online", function () {
    send();
  });
  window.addEventListener("offline", function () {
    render();
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
