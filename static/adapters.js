// rocekb adapters index: filters, sorting and side-by-side comparison of
// the server-rendered table. No framework; the state lives in the URL
// query (replaceState), so it survives reloads and can be shared, and
// everything works from file://. Without JavaScript the table is complete.
(function () {
  "use strict";
  var form = document.getElementById("ad-filters"), table = document.getElementById("adapters");
  if (!form || !table) return;
  var tbody = table.tBodies[0], rows = Array.prototype.slice.call(tbody.rows);
  var count = document.getElementById("ad-count"), cmpBox = document.getElementById("compare");
  var fields = ["q", "vendor", "roce", "kernel", "eos", "stack"];

  function num(v) { return String(v).split(/[^0-9]+/).filter(Boolean).map(Number); }
  function vcmp(a, b) {
    var x = num(a), y = num(b);
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      var d = (x[i] || 0) - (y[i] || 0);
      if (d) return d < 0 ? -1 : 1;
    }
    return 0;
  }
  function fold(s) { return String(s).toLowerCase().replace(/[^a-z0-9:]+/g, ""); }

  function state() {
    var st = {};
    fields.forEach(function (f) { st[f] = form.elements[f].value.trim(); });
    return st;
  }
  function apply(st) {
    var shown = 0;
    rows.forEach(function (r) {
      var d = r.dataset, ok = true;
      if (st.q) {
        var q = fold(st.q);
        ok = d.names.split(/\s+/).some(function (n) { return n && fold(n).indexOf(q) >= 0; });
      }
      if (ok && st.vendor) ok = d.vendor === st.vendor;
      if (ok && st.roce) ok = (" " + d.roce + " ").indexOf(" " + st.roce + " ") >= 0;
      if (ok && st.kernel) ok = d.kernel !== "" && vcmp(d.kernel, st.kernel) <= 0;
      if (ok && st.eos) ok = d.eos === st.eos;
      if (ok && st.stack) ok = (" " + d.stacks + " ").indexOf(" " + st.stack + " ") >= 0;
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " adapters shown";
  }
  function save(extra) {
    var p = new URLSearchParams(location.search), st = state();
    fields.forEach(function (f) { if (st[f]) p.set(f, st[f]); else p.delete(f); });
    for (var k in extra) { if (extra[k]) p.set(k, extra[k]); else p.delete(k); }
    var q = p.toString();
    history.replaceState(null, "", q ? "?" + q : location.pathname.replace(/.*\//, ""));
  }

  // Sorting by column heading: a button inside each sortable th.
  var sortKey = "", sortDir = 1;
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
    var kind = th.dataset.sort;
    if (!kind) return;
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", function () {
      sortDir = sortKey === String(i) ? -sortDir : 1;
      sortKey = String(i);
      sortBy(i, kind, sortDir);
      save({ sort: (sortDir < 0 ? "-" : "") + i });
    });
  });
  function sortBy(i, kind, dir) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, j) {
      if (th.dataset.sort) th.setAttribute("aria-sort", j === i ? (dir > 0 ? "ascending" : "descending") : "none");
    });
    var sorted = rows.slice().sort(function (a, b) {
      var x = a.cells[i].textContent.trim(), y = b.cells[i].textContent.trim();
      var c = kind === "version" ? vcmp(x || "999", y || "999") : x.localeCompare(y);
      return c * dir;
    });
    sorted.forEach(function (r) { tbody.appendChild(r); });
  }

  // Comparison of 2-3 ticked adapters: their rows' cells side by side.
  function compare() {
    var ids = Array.prototype.filter.call(tbody.querySelectorAll("input.cmp"), function (c) { return c.checked; }).map(function (c) { return c.value; });
    if (ids.length > 3) {
      ids = ids.slice(0, 3);
      Array.prototype.forEach.call(tbody.querySelectorAll("input.cmp"), function (c) { c.checked = ids.indexOf(c.value) >= 0; });
    }
    cmpBox.textContent = "";
    cmpBox.hidden = ids.length < 2;
    if (ids.length >= 2) {
      var heads = table.tHead.rows[0].cells, t = document.createElement("table");
      t.className = "cmp-table";
      var cap = document.createElement("caption");
      cap.textContent = "Side by side";
      t.appendChild(cap);
      for (var i = 1; i < heads.length; i++) {
        var tr = document.createElement("tr"), th = document.createElement("th");
        th.scope = "row";
        th.textContent = heads[i].textContent;
        tr.appendChild(th);
        ids.forEach(function (id) {
          var td = document.createElement("td"), src = document.getElementById("row-" + id).cells[i];
          td.innerHTML = src.innerHTML; // the page's own escaped markup
          tr.appendChild(td);
        });
        t.appendChild(tr);
      }
      cmpBox.appendChild(t);
    }
    return ids;
  }
  tbody.addEventListener("change", function (ev) {
    if (!ev.target.classList.contains("cmp")) return;
    save({ cmp: compare().join(",") });
  });

  form.addEventListener("submit", function (ev) { ev.preventDefault(); apply(state()); save({}); });
  form.addEventListener("input", function () { apply(state()); save({}); });

  var q = new URLSearchParams(location.search);
  fields.forEach(function (f) { if (q.get(f)) form.elements[f].value = q.get(f); });
  (q.get("cmp") || "").split(",").forEach(function (id) {
    var c = id && tbody.querySelector('input.cmp[value="' + id.replace(/[^A-Za-z0-9._-]/g, "") + '"]');
    if (c) c.checked = true;
  });
  compare();
  var s = q.get("sort");
  if (s) {
    var i = Math.abs(parseInt(s, 10)), th = table.tHead.rows[0].cells[i];
    if (th && th.dataset.sort) { sortKey = String(i); sortDir = s[0] === "-" ? -1 : 1; sortBy(i, th.dataset.sort, sortDir); }
  }
  apply(state());
})();
