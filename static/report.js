// report.js: sortable and filterable tables for the fleet page. The
// tables are complete without it; this only reorders and hides rows.
(function () {
  "use strict";
  function cellValue(row, i, numeric) {
    var c = row.cells[i];
    var t = c ? c.textContent.trim() : "";
    if (numeric) {
      var n = parseFloat(t);
      return isNaN(n) ? -Infinity : n;
    }
    return t.toLowerCase();
  }
  function sortBy(table, i, th) {
    var numeric = th.getAttribute("data-sort") === "num";
    var asc = th.getAttribute("aria-sort") !== "ascending";
    var heads = table.tHead.rows[0].cells;
    for (var k = 0; k < heads.length; k++) heads[k].removeAttribute("aria-sort");
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, n) { r._order = n; });
    rows.sort(function (a, b) {
      var x = cellValue(a, i, numeric), y = cellValue(b, i, numeric);
      if (x < y) return asc ? -1 : 1;
      if (x > y) return asc ? 1 : -1;
      return a._order - b._order;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    if (!table.tHead || !table.tBodies[0]) return;
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "sort";
      b.textContent = th.textContent;
      b.title = "Sort by " + th.textContent;
      th.textContent = "";
      th.appendChild(b);
      b.addEventListener("click", function () { sortBy(table, i, th); });
    });
  });
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var tables = document.querySelectorAll(input.getAttribute("data-filter"));
    var count = document.getElementById(input.id + "-count");
    function apply() {
      var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0, total = 0;
      tables.forEach(function (t) {
        Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
          var text = r.textContent.toLowerCase();
          var ok = terms.every(function (w) { return text.indexOf(w) >= 0; });
          r.hidden = !ok;
          total++;
          if (ok) shown++;
        });
      });
      if (count) count.textContent = terms.length ? shown + " of " + total + " rows" : "";
    }
    input.addEventListener("input", apply);
    // The filter is hidden until this script can run it.
    if (input.parentNode.hidden) input.parentNode.hidden = false;
    apply();
  });
})();

// Printing shows what collapsed evidence holds.
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details:not([open])").forEach(function (d) {
    d.setAttribute("open", "");
    d.setAttribute("data-print-opened", "");
  });
});
window.addEventListener("afterprint", function () {
  document.querySelectorAll("details[data-print-opened]").forEach(function (d) {
    d.removeAttribute("open");
    d.removeAttribute("data-print-opened");
  });
});

// A link to a tree node opens the questions around it; browsers that open
// <details> for a fragment do it themselves, this covers the others.
function openTarget() {
  var id = decodeURIComponent(location.hash.slice(1));
  var el = id && document.getElementById(id);
  for (; el; el = el.parentElement) {
    if (el.tagName === "DETAILS") el.open = true;
  }
}
window.addEventListener("hashchange", openTarget);
openTarget();
