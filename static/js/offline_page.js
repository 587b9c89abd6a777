/* troefclub: keep this page for offline use (issue 18). On a page that names the service
 * worker (<meta name="troefclub-service-worker">: the table page, the director's score
 * sheet), register it (scope: the whole site) and ask it to keep a copy of this page now,
 * as the first visit came before the worker controlled anything. Offline, the worker then
 * serves the copy (templates/scoring/sw.js).
 *
 * Needs a secure context: on plain http (a club's network) browsers offer no service
 * worker, and the page works online only (the table's queue still keeps its taps).
 */
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="troefclub-service-worker"]');
  if (!meta || !("serviceWorker" in navigator) || !window.isSecureContext) {
    return;
  }
  navigator.serviceWorker
    .register(meta.content, { scope: "/", updateViaCache: "none" })
    .then(function () {
      return navigator.serviceWorker.ready;
    })
    .then(function (registration) {
      if (registration.active) {
        registration.active.postMessage({ type: "keep-page", url: location.href });
      }
    })
    .catch(function () {
      // No worker (private mode, a policy): the page works online as before.
    });
})();
