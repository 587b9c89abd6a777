/* troefclub: pages that follow the evening by themselves (issues 8 and 18).
 *
 * A live page marks the element that polls with [data-live] (htmx: hx-get with
 * hx-trigger="every Ns"): the director's board, the hall display, the table page of the
 * koppel that follows the rounds, the public standings and matchday pages. This file, one
 * for all of them, keeps their connection notice:
 *
 * - A poll that fails (no connection, a server error) leaves the page as it was and shows
 *   the notice ([data-live-status], templates/_live_status.html), with the time of the
 *   data on screen ([data-live-updated] <- the live element's data-updated), until a poll
 *   succeeds again: an answer swapped in, or 204 (nothing changed since the last one).
 * - A live element may poll through a child marked [data-live-poll] (the board, the
 *   display: an answer of only the changed parts swaps that child with the next version).
 * - Polls are skipped while the tab is hidden (a phone in a pocket), and while the reader
 *   types in a field of the live element (a swap would wipe what they typed).
 *
 * Only polls (GET) count: a save's failure is troefclub.js's to report (#save-error).
 * No inline code anywhere (the Content-Security-Policy allows none): everything is here.
 */
(function () {
  "use strict";

  function liveStatus(stale) {
    var live = document.querySelector("[data-live]");
    document.querySelectorAll("[data-live-status]").forEach(function (mark) {
      mark.hidden = !stale;
    });
    document.querySelectorAll("[data-live-updated]").forEach(function (slot) {
      slot.textContent = live ? live.getAttribute("data-updated") || "" : "";
    });
    if (live) {
      live.classList.toggle("live-is-stale", stale);
    }
  }

  // The live element a request comes from, when it is a poll (a GET); else null.
  function livePoll(event) {
    var detail = event.detail || {};
    var config = detail.requestConfig;
    if (config && config.verb && config.verb !== "get") {
      return null;
    }
    var elt = detail.elt;
    return elt && elt.closest ? elt.closest("[data-live]") : null;
  }

  function typingIn(live) {
    var focused = document.activeElement;
    return Boolean(
      focused &&
        live.contains(focused) &&
        focused.matches("input:not([type=button]):not([type=submit]), textarea, select")
    );
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var live = livePoll(event);
    if (live && (document.hidden || typingIn(live))) {
      event.preventDefault();
    }
  });
  // A poll sent before the reader began to fill in a form of the page comes back while
  // they are at it: its sheet would wipe what they chose (a phone on a slow network, the
  // "other result" of a round). It is dropped; the next poll, once they are done, brings it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var live = livePoll(event);
    var elt = event.detail.elt;
    var polling = elt === live || Boolean(elt && elt.matches && elt.matches("[data-live-poll]"));
    if (live && polling && typingIn(live)) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (livePoll(event)) {
      liveStatus(true);
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    if (livePoll(event)) {
      liveStatus(true);
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // 204: the page is as shown (nothing to swap), and the connection works again.
    if (livePoll(event) && event.detail.xhr && event.detail.xhr.status === 204) {
      liveStatus(false);
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.matches && event.target.matches("[data-live]")) {
      liveStatus(false);
    }
  });
})();
