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

  // A save htmx could not show (no connection, 403, 404, 500) says so above the page,
  // instead of leaving the page as it was: the tap was not stored. The texts come,
  // translated, from #save-error's data attributes (base.html).
  function saveError(kind) {
    var box = document.getElementById("save-error");
    if (!box) {
      return;
    }
    box.textContent = box.dataset[kind] || box.dataset.failed;
    box.classList.remove("d-none");
    box.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "get") {
      return; // a poll (board, display) keeps its own notice; only saves are reported here
    }
    if (xhr.status === 404) {
      saveError("gone");
    } else if (xhr.status === 403 || xhr.status === 401) {
      saveError("forbidden");
    } else {
      saveError("failed");
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "get") {
      return;
    }
    saveError("offline");
  });

  // A table wider than its box (.table-responsive) scrolls sideways. Its box says on
  // which sides more of it is hidden (data-more="start end"), and troefclub.css fades
  // those edges: the cut-off column (a round's ✕, the ratings' σ) is seen to go on.
  function markMore(box) {
    var hidden = box.scrollWidth - box.clientWidth;
    var more = [];
    if (hidden > 1 && box.scrollLeft > 1) {
      more.push("start");
    }
    if (hidden > 1 && box.scrollLeft < hidden - 1) {
      more.push("end");
    }
    if (more.length) {
      box.dataset.more = more.join(" ");
    } else {
      delete box.dataset.more;
    }
  }

  function markAllMore() {
    document.querySelectorAll(".table-responsive").forEach(markMore);
  }

  document.addEventListener(
    "scroll",
    function (event) {
      var box = event.target;
      if (box.classList && box.classList.contains("table-responsive")) {
        markMore(box);
      }
    },
    true // a box's scroll does not bubble: caught on its way down
  );
  window.addEventListener("resize", markAllMore);
  window.addEventListener("load", markAllMore); // widths settle once the fonts are in
  document.addEventListener("htmx:afterSettle", markAllMore);
  markAllMore();

  document.addEventListener("htmx:afterRequest", function (event) {
    var box = document.getElementById("save-error");
    if (box && event.detail.successful) {
      box.classList.add("d-none"); // the next save went through: the old warning is stale
    }
  });
})();
