/* troefclub: the page behaviour that is not htmx or Bootstrap.
 *
 * The Content-Security-Policy allows scripts from our static files only (no inline
 * <script>, no onclick="..."), so templates mark elements with data- attributes and this
 * file gives them their behaviour. Delegated from the document, so it also works for
 * HTML that htmx swaps in later.
 */
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    // <button data-print>: print the page (the matchday's table list).
    var printButton = event.target.closest("[data-print]");
    if (printButton) {
      event.preventDefault();
      window.print();
    }
  });
})();
