/* troefclub: the director's score sheet entering rounds offline (issue 18).
 *
 * While the connection is there the sheet's round forms post as before (htmx). A round
 * the director enters when the server can't be reached (the browser says it is offline,
 * or htmx's post fails on the network) goes into this computer's queue instead: the
 * table phone's queue (static/js/table_queue.js, IndexedDB), with the sheet's endpoint
 * (`/c/<slug>/game/<id>/sheet/round/`, scoring.views.sheet_queue) and the form's own
 * fields. It shows at once as "waiting to send" with the running score from the rules copy
 * (static/js/table_rules.js, fed by #sheet's data-engine), and is sent in order when the
 * connection is back (`online`, a timer, the service worker's Background Sync), each
 * round with its key and the game token of the answer before. While rounds wait, every
 * new round joins the queue behind them (order). A refused round stays with the reason
 * until the director discards it or enters it again.
 *
 * Corrections, deletes, undo, totals, seats, close, reopen and confirm need the server:
 * offline their buttons are off and #sheet-offline-hint says why. Texts come translated
 * from #sheet-texts's data attributes.
 */
(function () {
  "use strict";

  var RETRY_FIRST_MS = 2000;
  var RETRY_MAX_MS = 15000;
  var MARKER = "sheet"; // <!--sheet--> … <!--/sheet--> in game_sheet.html: the cached copy
  var retryMs = RETRY_FIRST_MS;
  var usable = false;
  var pending = 0;
  var unreachable = false; // the last send found no connection
  var loginNeeded = false; // the last send was sent to the login page (or refused: 403)
  var timer = null;

  function say() {
    var texts = document.getElementById("sheet-texts");
    return texts ? texts.dataset : null;
  }

  function sheet() {
    return document.getElementById("sheet");
  }

  function pageUrl() {
    return say() ? say().page : null;
  }

  function offline() {
    return !navigator.onLine || unreachable;
  }

  // ------------------------------------------------------------ the running score

  function engine() {
    var node = sheet();
    try {
      return node ? JSON.parse(node.dataset.engine) : null;
    } catch (error) {
      return null;
    }
  }

  /* The waiting rounds applied on the stored state: [{item, score}] and the state after. */
  function projected(items) {
    var data = engine();
    var state = data && data.state;
    var rows = items.map(function (item) {
      if (item.status !== "waiting" || !state) {
        return { item: item, score: null };
      }
      try {
        state = window.TableRules.apply(data.rules, state, {
          result: item.result,
          side: item.side,
          caller: window.TableRules.seatOf(data.seats, item.caller),
        }).state;
        return { item: item, score: state.score };
      } catch (violation) {
        return { item: item, score: null };
      }
    });
    return { rows: rows, state: state, data: data };
  }

  // ------------------------------------------------------------ showing the queue

  function el(tag, className, content) {
    var node = document.createElement(tag);
    node.className = className || "";
    if (content !== undefined) {
      node.textContent = content;
    }
    return node;
  }

  function render() {
    var box = document.getElementById("sheet-outbox");
    var page = pageUrl();
    if (!box || !page || !usable) {
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
      box.querySelector(".outbox-status").textContent = !waiting.length
        ? ""
        : loginNeeded
          ? texts.login
          : offline()
            ? texts.offline
            : "";
      var list = box.querySelector(".outbox-rounds");
      list.textContent = "";
      var node = sheet();
      var number = node ? Number(node.dataset.rounds) || 0 : 0;
      view.rows.forEach(function (row) {
        var item = row.item;
        var line = el("li", "outbox-round outbox-" + item.status);
        line.dataset.key = item.key;
        var head = el("div", "outbox-line");
        if (item.status === "waiting") {
          number += 1;
          head.appendChild(el("span", "outbox-number", String(number)));
        }
        head.appendChild(el("span", "outbox-what", item.label));
        head.appendChild(el("span", "outbox-score", row.score ? row.score[0] + "–" + row.score[1] : ""));
        var waits = item.status === "waiting";
        head.appendChild(
          el("span", "badge " + (waits ? "text-bg-warning" : "text-bg-danger"), waits ? texts.waiting : texts.refused)
        );
        line.appendChild(head);
        if (!waits) {
          line.appendChild(el("div", "small text-danger outbox-reason", item.held ? texts.held : item.reason));
          if (item.held) {
            line.appendChild(el("div", "small text-body-secondary", item.reason));
          }
          var buttons = el("div", "d-flex gap-2 mt-1");
          [["outbox-discard btn-outline-danger", texts.discard], ["outbox-reenter btn-outline-primary", texts.reenter]].forEach(
            function (spec) {
              var button = el("button", "btn btn-sm " + spec[0], spec[1]);
              button.type = "button";
              button.dataset.key = item.key;
              buttons.appendChild(button);
            }
          );
          line.appendChild(buttons);
        }
        list.appendChild(line);
      });
      if (waiting.length) {
        var undo = el("button", "btn btn-sm btn-outline-warning mt-2 outbox-undo", texts.undo);
        undo.type = "button";
        list.appendChild(undo);
      }
      showScore(view, waiting.length);
      showOffline();
    });
  }

  function showScore(view, waiting) {
    var node = sheet();
    if (!node) {
      return;
    }
    node.classList.toggle("sheet-pending", waiting > 0);
    // "Add round n": the number after the waiting rounds (the one number in the heading,
    // in either language).
    var title = node.querySelector("#add-round-title");
    if (title) {
      title.dataset.text = title.dataset.text || title.textContent;
      var next = (Number(node.dataset.rounds) || 0) + waiting + 1;
      title.textContent = title.dataset.text.replace(/\d+/, String(next));
    }
    var state = view.state;
    var scoreA = node.querySelector(".score-a");
    var scoreB = node.querySelector(".score-b");
    if (state && scoreA && scoreB) {
      scoreA.textContent = state.score[0];
      scoreB.textContent = state.score[1];
    }
  }

  /* Offline: the hint, and every write but the round forms off (they need the server). */
  function showOffline() {
    var hint = document.getElementById("sheet-offline-hint");
    var node = sheet();
    var off = offline();
    if (hint) {
      hint.classList.toggle("d-none", !off);
    }
    if (!node) {
      return;
    }
    node.classList.toggle("sheet-offline", off);
    node.querySelectorAll("form").forEach(function (form) {
      if (queued(form)) {
        return;
      }
      form.querySelectorAll("button[type=submit], button:not([type])").forEach(function (button) {
        if (off && !button.disabled) {
          button.disabled = true;
          button.dataset.offlineOff = "1";
          button.title = hint ? hint.textContent : "";
        } else if (!off && button.dataset.offlineOff) {
          button.disabled = false;
          delete button.dataset.offlineOff;
          button.removeAttribute("title");
        }
      });
    });
    node.querySelectorAll(".round-actions a").forEach(function (link) {
      link.setAttribute("aria-disabled", off ? "true" : "false");
    });
  }

  // ------------------------------------------------------------ taking a round

  /* Whether `form` is one of the sheet's round forms (the one-tap buttons, the round form). */
  function queued(form) {
    return !!form && (form.id === "round-form" || !!form.closest(".one-tap"));
  }

  function roundOf(form) {
    var texts = say();
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && value !== "") {
        fields[name] = String(value);
      }
    });
    if (!fields.result || (!fields.side && fields.result !== "redeal")) {
      return null; // incomplete: the form posts and the page says why
    }
    if (!fields.side) {
      fields.side = "a"; // stored, but a redeal scores for neither koppel
    }
    var results = JSON.parse(texts.results || "{}");
    var label = results[fields.result] || fields.result;
    return {
      result: fields.result,
      side: fields.side,
      caller: fields.caller || "",
      label: fields.result === "redeal" ? label : label + " · " + (fields.side === "a" ? texts.teamA : texts.teamB),
      csrf: window.TableQueue.csrfToken(),
      url: texts.send,
      marker: MARKER,
      fields: fields,
    };
  }

  /* The caller whose turn it is after the waiting rounds (the one-tap form carries the
   * caller of the stored state). */
  function withCaller(round) {
    return window.TableQueue.list(pageUrl()).then(function (items) {
      var view = projected(items);
      var waiting = items.some(function (item) {
        return item.status === "waiting";
      });
      var seats = view.data && view.data.seats;
      if (waiting && view.state && view.state.caller && seats && round.fields.result === "gewone_winst" && !round.fields.tricks_a) {
        round.caller = String(seats[view.state.caller - 1]);
        round.fields.caller = round.caller;
      }
      return round;
    });
  }

  function enqueue(form) {
    var round = roundOf(form);
    if (!round) {
      return false;
    }
    withCaller(round)
      .then(function (ready) {
        return window.TableQueue.add(pageUrl(), ready);
      })
      .then(function () {
        if (form.id === "round-form") {
          form.reset();
        }
        return render();
      })
      .then(send);
    return true;
  }

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!usable || !say() || !queued(form)) {
        return;
      }
      if (!offline() && pending === 0) {
        return; // online with nothing waiting: htmx posts it as before
      }
      if (enqueue(form)) {
        // Before htmx sees it: the queue takes the round, behind those waiting.
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true
  );

  /* htmx could not reach the server with a round form: the round goes into the queue. */
  function lostPost(event) {
    var source = event.detail && event.detail.elt;
    var form = source && (source.tagName === "FORM" ? source : source.closest("form"));
    if (usable && queued(form) && enqueue(form)) {
      unreachable = true;
      // Not "not stored" (troefclub.js said so first): the round waits in the queue.
      var said = document.getElementById("save-error");
      if (said) {
        said.classList.add("d-none");
      }
    }
  }
  document.addEventListener("htmx:sendError", lostPost);
  document.addEventListener("htmx:timeout", lostPost);

  document.addEventListener("click", function (event) {
    if (!usable) {
      return;
    }
    var page = pageUrl();
    if (event.target.closest(".outbox-undo")) {
      window.TableQueue.list(page).then(function (items) {
        var waiting = items.filter(function (item) {
          return item.status === "waiting";
        });
        var last = waiting[waiting.length - 1];
        var flight = window.TableQueue.sending(page);
        if (!last || (flight && flight.key === last.key)) {
          return render(); // on its way: once stored, the sheet's undo takes it back
        }
        if (window.confirm(say().undoQueued + "\n" + last.label)) {
          return window.TableQueue.remove(last.key).then(render);
        }
        return undefined;
      });
      return;
    }
    var button = event.target.closest("#sheet-outbox .outbox-discard, #sheet-outbox .outbox-reenter");
    if (!button) {
      return;
    }
    var key = button.dataset.key;
    window.TableQueue.list(page).then(function (items) {
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
        return render().then(send);
      });
    });
  });

  // ------------------------------------------------------------ sending

  function swapSheet(html) {
    var node = sheet();
    if (!node || !html) {
      return;
    }
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.firstElementChild;
    if (!fresh || fresh.id !== "sheet") {
      return;
    }
    // The queue as shown stays until render() shows it anew: no flash of an empty queue.
    var shown = node.querySelector("#sheet-outbox");
    var empty = fresh.querySelector("#sheet-outbox");
    if (shown && empty) {
      empty.replaceWith(shown);
    }
    node.replaceWith(fresh);
    window.htmx.process(fresh);
  }

  function send() {
    var page = pageUrl();
    if (!page || !usable) {
      return Promise.resolve();
    }
    var texts = say();
    var shown = function (item, answer) {
      swapSheet(answer.html);
      return render();
    };
    return window.TableQueue.flush(
      page,
      { csrf: window.TableQueue.csrfToken(), url: texts.send, stored: shown, refused: shown },
      texts.release
    ).then(function (result) {
      unreachable = result.offline && !result.login;
      loginNeeded = !!result.login;
      return window.TableQueue.list(page).then(function (items) {
        var waiting = items.some(function (item) {
          return item.status === "waiting";
        });
        clearTimeout(timer);
        if (waiting && result.offline) {
          window.TableQueue.askSync();
        }
        if (waiting && (result.offline || result.sent === 0)) {
          timer = setTimeout(send, retryMs);
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        } else {
          retryMs = RETRY_FIRST_MS;
          if (waiting) {
            setTimeout(send, 0); // entered while this run was sending
          }
        }
        return render().then(catchUp);
      });
    });
  }

  /* Sent by someone else (Background Sync, another tab): the sheet of now, once. */
  function catchUp() {
    var page = pageUrl();
    return Promise.all([window.TableQueue.list(page), window.TableQueue.chain(page)]).then(function (loaded) {
      var waiting = loaded[0].some(function (item) {
        return item.status === "waiting";
      });
      var chain = loaded[1];
      var node = sheet();
      if (!waiting && chain && chain.token && node && chain.token !== node.dataset.seen && !offline()) {
        return window.htmx.ajax("GET", page, { target: "#sheet", swap: "outerHTML" });
      }
      return undefined;
    });
  }

  // ------------------------------------------------------------ the page's life

  function adopt() {
    var node = sheet();
    var page = pageUrl();
    if (!node || !page) {
      return Promise.resolve();
    }
    return window.TableQueue.adoptPage(page, node.dataset.seen, Number(node.dataset.rounds) || 0);
  }

  function start() {
    if (!say() || !window.idb || !window.indexedDB || !window.TableQueue) {
      return;
    }
    window.TableQueue.list("/probe/").then(
      function () {
        usable = true;
        adopt().then(render).then(send);
      },
      function () {
        // No IndexedDB (private mode, a policy): the sheet works online only, as before.
      }
    );
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && event.data.type === "queue-sent") {
          render().then(catchUp);
        }
      });
    }
  }

  document.addEventListener("htmx:afterSwap", function () {
    if (usable && sheet()) {
      unreachable = false; // the server answered
      adopt().then(render);
    }
  });
  window.addEventListener("online", function () {
    unreachable = false;
    showOffline();
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
