/* The score sheet's keyboard shortcuts (templates/scoring/game_sheet.html), for a
 * director at a desktop: a / b record a gewone winst for koppel A / B (the one-tap
 * buttons), u undoes the last round, n and p open the next and previous table.
 *
 * Keys only act when no text is being typed (a tricks field, a select) and without
 * Ctrl, Alt or Cmd, so they never take a letter or a browser shortcut; Escape leaves
 * such a field. They click the
 * page's own buttons and links: htmx, its confirmation dialogs and the forms' guards
 * against double submits work as with a tap. Delegated from the document, so they keep
 * working after htmx swaps the sheet.
 */
(function () {
  "use strict";

  var KEYS = {
    a: "#one-tap-a",
    b: "#one-tap-b",
    u: "#undo-button",
    n: "#next-table",
    p: "#previous-table",
  };
  // Fields that take typed text; radio buttons and buttons don't, keys still work there.
  var TYPED = /^(text|number|search|email|password|tel|url|date|time)$/;

  function typing(target) {
    if (!target || !target.tagName) {
      return false;
    }
    if (target.isContentEditable) {
      return true;
    }
    var tag = target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT") {
      return true;
    }
    return tag === "INPUT" && TYPED.test(target.type || "text");
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) {
      return;
    }
    if (event.isComposing) {
      return;
    }
    if (typing(event.target)) {
      // Escape leaves the field, so the next key is a shortcut again.
      if (event.key === "Escape" && event.target.closest("#sheet")) {
        event.target.blur();
      }
      return;
    }
    var selector = KEYS[(event.key || "").toLowerCase()];
    if (!selector || event.repeat) {
      return;
    }
    var element = document.querySelector(selector);
    if (!element || element.disabled) {
      return;
    }
    event.preventDefault();
    element.click();
  });
})();
