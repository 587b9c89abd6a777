/* The page of a revoked table link (templates/scoring/table_invalid.html): the rounds this
 * phone still holds for the link (queued offline, never stored) are listed, so nobody
 * believes them stored; they stay on the phone until the table enters them again. */
(function () {
  "use strict";
  var box = document.getElementById("link-invalid-unsent");
  if (!box || !window.TableQueue || !window.indexedDB) {
    return;
  }
  window.TableQueue.list(window.location.pathname)
    .then(function (rounds) {
      if (!rounds.length) {
        return;
      }
      var list = box.querySelector("ol");
      rounds.forEach(function (item) {
        var line = document.createElement("li");
        line.textContent = item.label || item.result;
        list.appendChild(line);
      });
      box.classList.remove("d-none");
    })
    .catch(function () {
      /* no IndexedDB in this browser: nothing was queued here */
    });
})();
