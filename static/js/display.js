/* troefclub: the hall display (issue 8).
 *
 * The display ([data-display]) shows its lists a screenful at a time: the rows that fit
 * are worked out from the screen (filled column by column, the columns even), the other
 * rows hidden; every `data-page-seconds` it turns to the next page, the tables' pages
 * first, then the standings', then round again. A data refresh (htmx polling; the
 * connection notice is static/js/live.js's, as on every live page) keeps the view and
 * page on screen. `data-pinned` ("pairings" / "standings") keeps to one view; the arrow
 * keys turn.
 *
 * No inline code anywhere (the Content-Security-Policy allows none): everything is here.
 */
(function () {
  "use strict";

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.matches && event.target.matches("[data-display]")) {
      display.refresh();
    }
  });

  // ------------------------------------------------------------ the hall display

  var VIEWS = ["pairings", "standings"];

  var display = {
    view: null, // the view on screen
    page: 0, // its page
    pages: {}, // view -> list of pages, each a list of items
    columns: {}, // view -> columns of its list (CSS --cols)
    timer: null,
    part: null, // the part of the tables on screen (data-part)

    root: function () {
      return document.querySelector("[data-display]");
    },

    // The items of `view` cut in pages of the rows and columns that fit its box.
    paginate: function (root, view) {
      var section = root.querySelector('[data-view="' + view + '"]');
      var box = section && section.querySelector("[data-items]");
      if (!box) {
        return [[]];
      }
      var items = Array.prototype.slice.call(box.querySelectorAll("[data-item]"));
      if (!items.length) {
        return [[]];
      }
      // Measured alone on screen: two views shown at once would share the height.
      var sections = Array.prototype.slice.call(root.querySelectorAll("[data-view]"));
      var before = sections.map(function (other) {
        return other.hidden;
      });
      sections.forEach(function (other) {
        other.hidden = other !== section;
      });
      items.forEach(function (item) {
        item.hidden = false;
      });
      var style = window.getComputedStyle(box);
      var gap = parseFloat(style.rowGap) || 0;
      var height = items[0].getBoundingClientRect().height;
      var rows = Math.max(1, Math.floor((box.clientHeight + gap) / (height + gap)));
      var columns = parseInt(style.getPropertyValue("--cols"), 10) || 1;
      this.columns[view] = columns;
      sections.forEach(function (other, index) {
        other.hidden = before[index];
      });
      var size = rows * columns;
      var pages = [];
      for (var start = 0; start < items.length; start += size) {
        pages.push(items.slice(start, start + size));
      }
      return pages;
    },

    // The views this screen cycles through: one when pinned, else those with something
    // to show (both when neither has).
    views: function (root) {
      var pinned = root.getAttribute("data-pinned");
      if (VIEWS.indexOf(pinned) >= 0) {
        return [pinned];
      }
      var shown = VIEWS.filter(function (view) {
        return root.querySelector('[data-view="' + view + '"] [data-item]');
      });
      return shown.length ? shown : VIEWS;
    },

    show: function () {
      var root = this.root();
      if (!root) {
        return;
      }
      var views = this.views(root);
      if (views.indexOf(this.view) < 0) {
        this.view = views[0];
        this.page = 0;
      }
      var pages = this.pages[this.view] || [[]];
      if (this.page >= pages.length) {
        this.page = 0;
      }
      var view = this.view;
      root.querySelectorAll("[data-view]").forEach(function (section) {
        section.hidden = section.getAttribute("data-view") !== view;
      });
      root.querySelectorAll("[data-heading]").forEach(function (heading) {
        heading.hidden = heading.getAttribute("data-heading") !== view;
      });
      // Fewer items than fit: as many rows as needed, so the columns come out even.
      var box = root.querySelector('[data-view="' + view + '"] [data-items]');
      if (box) {
        var items = (pages[this.page] || []).length;
        var rows = Math.ceil(items / (this.columns[view] || 1));
        box.style.setProperty("--rows", String(Math.max(1, rows)));
      }
      VIEWS.forEach(function (name) {
        var shown = name === view ? pages[display.page] || [] : [];
        (display.pages[name] || []).forEach(function (page) {
          page.forEach(function (item) {
            item.hidden = shown.indexOf(item) < 0;
          });
        });
      });
      var label = root.querySelector("[data-page-label]");
      if (label) {
        label.textContent = pages.length > 1 ? this.page + 1 + "/" + pages.length : "";
      }
    },

    // Work the pages out again (new data, another screen size) and show the same place.
    refresh: function () {
      var root = this.root();
      if (!root) {
        return;
      }
      var self = this;
      // Another part of the tables came: its first page.
      var part = root.getAttribute("data-part");
      if (this.part !== null && part !== this.part) {
        this.view = "pairings";
        this.page = 0;
      }
      this.part = part;
      VIEWS.forEach(function (view) {
        self.pages[view] = self.paginate(root, view);
      });
      this.show();
      this.clock();
    },

    // The next page of this view, else the first page of the next view. At league size
    // the server sends the tables a part at a time (data-part of data-parts): past the
    // last page of a part comes the next part, and the standings only after the last.
    turn: function (step) {
      var root = this.root();
      if (!root) {
        return;
      }
      var views = this.views(root);
      var pages = (this.pages[this.view] || [[]]).length;
      var part = parseInt(root.getAttribute("data-part"), 10) || 1;
      var parts = parseInt(root.getAttribute("data-parts"), 10) || 1;
      if (step > 0 && this.page + step >= pages) {
        var following = views[(views.indexOf(this.view) + 1) % views.length];
        if (this.view === "pairings" && part < parts) {
          this.loadPart(root, part + 1);
          return;
        }
        if (following === "pairings" && part !== 1) {
          this.loadPart(root, 1);
          return;
        }
      }
      this.page += step;
      if (this.page >= pages || this.page < 0) {
        var next = (views.indexOf(this.view) + (step > 0 ? 1 : views.length - 1)) % views.length;
        this.view = views[next];
        this.page = step > 0 ? 0 : (this.pages[this.view] || [[]]).length - 1;
      }
      this.show();
    },

    // Ask for part `part` of the tables (the whole screen, as a poll's full answer); the
    // screen stays as it is until it comes (`refresh` then shows its first page).
    loadPart: function (root, part) {
      var url = new URL(window.location.href);
      url.searchParams.set("part", String(part));
      url.searchParams.delete("v");
      window.htmx.ajax("GET", url.pathname + url.search, {
        source: root,
        target: root,
        swap: "outerHTML",
      });
    },

    clock: function () {
      var root = this.root();
      var slot = root && root.querySelector("[data-clock]");
      if (slot) {
        var now = new Date();
        var pad = function (n) {
          return (n < 10 ? "0" : "") + n;
        };
        slot.textContent = pad(now.getHours()) + ":" + pad(now.getMinutes());
      }
    },

    start: function () {
      var root = this.root();
      if (!root) {
        return;
      }
      var seconds = parseInt(root.getAttribute("data-page-seconds"), 10) || 15;
      this.refresh();
      this.timer = window.setInterval(function () {
        display.turn(1);
        display.clock();
      }, seconds * 1000);
      var resized = null;
      window.addEventListener("resize", function () {
        window.clearTimeout(resized);
        resized = window.setTimeout(function () {
          display.refresh();
        }, 200);
      });
      document.addEventListener("keydown", function (event) {
        if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") {
          event.preventDefault();
          display.turn(1);
        } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
          event.preventDefault();
          display.turn(-1);
        }
      });
    },
  };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      display.start();
    });
  } else {
    display.start();
  }
})();
