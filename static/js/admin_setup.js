/* troefclub admin: a competition's set-up (scoring.admin.competitions.CompetitionSetupForm).
 *
 * A bye's "game points for" follows the target score unless the director set it
 * otherwise: the bye field names the field it follows (data-follows, an element id) and
 * its model default (data-default). While the bye still equals the target (or that
 * default), changing the target changes the bye with it; once the director types another
 * bye, it stays. The server does the same for a browser without this script.
 *
 * Loaded through the ModelAdmin's Media: the Content-Security-Policy allows no inline
 * script.
 */
(function () {
  "use strict";

  function follow(bye) {
    var target = document.getElementById(bye.getAttribute("data-follows"));
    if (!target) {
      return;
    }
    var fallback = bye.getAttribute("data-default") || "";
    var following = bye.value === target.value || bye.value === fallback;

    target.addEventListener("input", function () {
      var value = target.value.trim();
      // Empty (no target) or not a whole number yet: the bye keeps its value for now.
      if (following && /^\d+$/.test(value)) {
        bye.value = value;
      }
    });
    bye.addEventListener("input", function () {
      following = bye.value === target.value;
    });
  }

  function start() {
    var fields = document.querySelectorAll("input[data-follows]");
    for (var i = 0; i < fields.length; i += 1) {
      follow(fields[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
