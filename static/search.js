// rocekb site search: no server, no framework. It loads search/manifest.js,
// then only the term-range shards for the query's tokens and terms, then
// the fragment files (a few docs each) of the results it shows. Every file registers itself
// through window.rocekbSearch, so <script src> works over HTTP and from
// file:// (where fetch and XHR are blocked). The query analysis uses the
// tables and patterns the Go analyzer exported; this file does not stem,
// alias or classify words itself.
(function () {
  "use strict";
  var base = (function () {
    var s = document.currentScript && document.currentScript.src;
    return s ? s.replace(/[^\/]*$/, "") : "";
  })();
  var man = null, manWait = [], shards = {}, shardWait = {}, frags = {}, fragWait = {};
  var re = {}, digit = {}, decoded = {};
  var pow10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

  function load(src) {
    var el = document.createElement("script");
    el.src = base + src;
    el.async = true;
    el.onerror = function () { el.remove(); };
    document.head.appendChild(el);
  }
  function waitFor(table, waits, key, src) {
    return new Promise(function (resolve) {
      if (table[key]) return resolve(table[key]);
      var first = !waits[key];
      if (first) waits[key] = [];
      waits[key].push(resolve);
      if (first) load(src);
    });
  }
  var api = {
    manifest: function (m) {
      man = m;
      re.tok = new RegExp(m.tok, "g");
      re.noise = new RegExp(m.noise);
      re.split = new RegExp(m.split);
      re.cjk = new RegExp("^" + m.cjk);
      re.alpha = new RegExp(m.alpha);
      re.number = new RegExp(m.number);
      for (var i = 0; i < m.b64.length; i++) digit[m.b64.charCodeAt(i)] = i;
      manWait.forEach(function (f) { f(m); });
      manWait = [];
    },
    shard: function (i, d) {
      shards[i] = d;
      (shardWait[i] || []).forEach(function (f) { f(d); });
      delete shardWait[i];
    },
    frags: function (g, list) {
      list.forEach(function (d, j) { frags[g * man.fg + j] = d; });
      (fragWait[g] || []).forEach(function (f) { f(list); });
      delete fragWait[g];
    },
    terms: terms, run: run, fragment: fragment
  };
  window.rocekbSearch = api;

  function manifest() {
    return new Promise(function (resolve) {
      if (man) return resolve(man);
      manWait.push(resolve);
      if (manWait.length === 1) load("search/manifest.js");
    });
  }
  // shardOf returns the number of the shard whose range holds key.
  function shardOf(key) {
    var lo = 0, hi = man.shards.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (man.shards[mid] <= key) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  function shardsFor(keys) {
    var need = {};
    keys.forEach(function (k) { need[shardOf(k)] = true; });
    return Promise.all(Object.keys(need).map(function (i) {
      return waitFor(shards, shardWait, i, "search/s/" + i + ".js");
    }));
  }
  function entry(table, key) {
    var d = shards[shardOf(key)];
    return d && d[table] && Object.prototype.hasOwnProperty.call(d[table], key) ? d[table][key] : null;
  }
  // postings decodes a term's posting string (see encodePostings in Go)
  // into [doc, weight, doc, weight, …] with absolute doc numbers.
  function postings(term) {
    if (Object.prototype.hasOwnProperty.call(decoded, term)) return decoded[term];
    var str = entry("p", term), out = [];
    if (str) {
      for (var i = 0, doc = 0; i < str.length;) {
        var d = 0, mul = 1, c;
        while ((c = digit[str.charCodeAt(i++)]) >= 32) { d += (c - 32) * mul; mul *= 32; }
        doc += d + c * mul;
        var code = digit[str.charCodeAt(i)] * 4096 + digit[str.charCodeAt(i + 1)] * 64 + digit[str.charCodeAt(i + 2)];
        i += 3;
        out.push(doc, (code % 10000) / pow10[Math.floor(code / 10000)]);
      }
    }
    decoded[term] = out;
    return out;
  }
  function raws(text) {
    var out = [], m;
    re.tok.lastIndex = 0;
    while ((m = re.tok.exec(text)) !== null) out.push(m[0].toLowerCase());
    return out;
  }
  // analyze mirrors Static.StaticTerms in Go; the shards for raw tokens and
  // their parts must be loaded.
  function analyze(rs) {
    var toks = [];
    function add(t, k) { toks.push([t, k]); }
    rs.forEach(function (r, i) {
      var e = entry("s", r);
      if (e) {
        for (var j = 0; j < e.length; j += 2) add(e[j], e[j + 1]);
      } else if (re.cjk.test(r)) {
        var cs = Array.from(r);
        if (cs.length === 1) add(r, 7);
        for (var c = 0; c + 1 < cs.length; c++) add(cs[c] + cs[c + 1], 7);
      } else if (!re.noise.test(r)) {
        add(r, re.alpha.test(r) ? 0 : re.number.test(r) ? 5 : 1);
        var parts = r.split(re.split);
        if (parts.length > 1) parts.forEach(function (p) {
          var pe = entry("s", p);
          if (pe) for (var j = 0; j < pe.length; j += 2) if (pe[j + 1] !== 6) add(pe[j], 2);
        });
      }
      (entry("c", r) || []).forEach(function (ph) {
        if (i + ph.length - 1 >= rs.length) return;
        for (var j = 1; j < ph.length; j++) if (rs[i + j] !== ph[j]) return;
        add(ph[0], 6);
      });
    });
    var out = [], at = {};
    toks.forEach(function (t) {
      var w = man.kw[t[1]];
      if (!w) return;
      if (Object.prototype.hasOwnProperty.call(at, t[0])) {
        if (w > out[at[t[0]]].weight) out[at[t[0]]].weight = w;
        return;
      }
      at[t[0]] = out.length;
      out.push({ term: t[0], weight: w });
    });
    return out;
  }
  // terms resolves to the query's analyzed terms.
  function terms(text) {
    return manifest().then(function () {
      var rs = raws(text), keys = rs.slice();
      rs.forEach(function (r) { r.split(re.split).forEach(function (p) { if (p) keys.push(p); }); });
      return shardsFor(keys).then(function () { return analyze(rs); });
    });
  }
  function groupOf(doc) {
    var g = man.groups, lo = 0, hi = g.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (g[mid][0] <= doc) lo = mid; else hi = mid - 1;
    }
    return g[lo];
  }
  // run resolves to {terms, total, hits: [{doc, score}], facets, marks}.
  // Ranking mirrors Static.Search in Go.
  function run(text, filter, limit) {
    filter = filter || {};
    limit = limit || 10;
    return terms(text).then(function (qts) {
      return shardsFor(qts.map(function (t) { return t.term; })).then(function () {
        var score = {}, count = {}, marks = {};
        qts.forEach(function (t) {
          var p = postings(t.term);
          for (var j = 0; j < p.length; j += 2) {
            var doc = p[j];
            score[doc] = (score[doc] || 0) + t.weight * p[j + 1];
            count[doc] = (count[doc] || 0) + 1;
          }
          (entry("r", t.term) || []).forEach(function (r) { marks[r] = true; });
          if (re.cjk.test(t.term)) marks["\u0000" + t.term] = true;
        });
        var hits = [], facets = { kind: {}, vendor: {}, lang: {} };
        Object.keys(score).forEach(function (k) {
          var d = +k, g = groupOf(d);
          var kind = man.kinds[g[1]], vendor = man.vendors[g[2]], lang = man.langs[g[3]];
          if ((filter.kind && kind !== filter.kind) || (filter.vendor && vendor !== filter.vendor) || (filter.lang && lang !== filter.lang)) return;
          hits.push({ doc: d, score: score[d] * count[d] / qts.length });
          facets.kind[kind] = (facets.kind[kind] || 0) + 1;
          if (vendor) facets.vendor[vendor] = (facets.vendor[vendor] || 0) + 1;
          facets.lang[lang] = (facets.lang[lang] || 0) + 1;
        });
        hits.sort(function (a, b) { return b.score - a.score || a.doc - b.doc; });
        return { terms: qts, total: hits.length, hits: hits.slice(0, limit), facets: facets, marks: marks };
      });
    });
  }

  // fragment resolves to doc's fragment {u, t, k, v, l, x}, loading the
  // file of fg docs that holds it.
  function fragment(doc) {
    var g = Math.floor(doc / man.fg);
    return new Promise(function (resolve) {
      if (frags[doc]) return resolve(frags[doc]);
      var first = !fragWait[g];
      if (first) fragWait[g] = [];
      fragWait[g].push(function () { resolve(frags[doc]); });
      if (first) load("search/f/" + g + ".js");
    });
  }

  // --- the page ---------------------------------------------------------
  function esc(s) {
    return s.replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }
  // snippet marks the raw tokens whose terms the query has, in the window
  // with the most marks (as Snippet does in Go).
  function snippet(text, marks) {
    var hits = [], m, lead = 60, size = 220;
    re.tok.lastIndex = 0;
    while ((m = re.tok.exec(text)) !== null) {
      var r = m[0].toLowerCase(), s = m.index;
      if (marks[r]) { hits.push([s, s + m[0].length]); continue; }
      if (re.cjk.test(r)) {
        var cs = Array.from(m[0]), off = s;
        for (var c = 0; c + 1 < cs.length; c++) {
          if (marks["\u0000" + cs[c] + cs[c + 1]]) hits.push([off, off + cs[c].length + cs[c + 1].length]);
          off += cs[c].length;
        }
      }
    }
    hits.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    hits.forEach(function (h) {
      var last = merged[merged.length - 1];
      if (last && h[0] < last[1]) { if (h[1] > last[1]) last[1] = h[1]; } else merged.push(h.slice());
    });
    var best = 0, bestN = 0;
    for (var i = 0; i < merged.length; i++) {
      var n = 0;
      for (var j = i; j < merged.length && merged[j][1] - merged[i][0] <= size - lead; j++) n++;
      if (n > bestN) { best = i; bestN = n; }
    }
    var start = bestN ? Math.max(0, merged[best][0] - lead) : 0;
    if (start > 0) { var sp = text.indexOf(" ", start); if (sp >= 0 && sp - start < 24) start = sp + 1; }
    var end = Math.min(text.length, start + size), out = start > 0 ? "…" : "", at = start;
    merged.forEach(function (h) {
      if (h[0] < start || h[1] > end) return;
      out += esc(text.slice(at, h[0])) + "<mark>" + esc(text.slice(h[0], h[1])) + "</mark>";
      at = h[1];
    });
    out += esc(text.slice(at, end)) + (end < text.length ? "…" : "");
    return out.replace(/\s+/g, " ");
  }

  function ui() {
    var box = document.getElementById("search-q");
    if (!box) return;
    // Typing searches; Enter must not reload the page (no inline handler:
    // the preview's Content-Security-Policy allows no inline script).
    if (box.form) box.form.addEventListener("submit", function (e) { e.preventDefault(); });
    var list = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    var facetsEl = document.getElementById("search-facets");
    var filter = {}, seq = 0, timer = 0;
    var root = base; // search.js sits at the site root

    function facetHTML(name, counts) {
      var keys = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
      if (!keys.length) return "";
      var h = '<div class="facet" role="group" aria-label="' + name + '"><span>' + name + ":</span> ";
      keys.forEach(function (k) {
        var on = filter[name] === k;
        h += '<button type="button" data-facet="' + name + '" data-value="' + esc(k) + '" aria-pressed="' + on + '">' +
          esc(k) + " (" + counts[k] + ")" + (on ? " ×" : "") + "</button> ";
      });
      return h + "</div>";
    }
    function render(q, res, mySeq) {
      Promise.all(res.hits.map(function (h) { return fragment(h.doc); })).then(function (fs) {
        if (mySeq !== seq) return;
        status.textContent = res.total ? res.total + " result" + (res.total === 1 ? "" : "s") + " for “" + q + "”" : "No results for “" + q + "”";
        facetsEl.innerHTML = facetHTML("kind", res.facets.kind) + facetHTML("vendor", res.facets.vendor);
        list.innerHTML = fs.map(function (f) {
          return '<li><a href="' + esc(root + f.u) + '">' + esc(f.t) + '</a> <span class="kind">' + esc(f.k) +
            (f.v ? " · " + esc(f.v) : "") + '</span><p class="snippet">' + snippet(f.x, res.marks) + "</p></li>";
        }).join("");
      });
    }
    function go() {
      var q = box.value.trim(), mySeq = ++seq;
      try {
        var u = new URL(location.href);
        if (q) u.searchParams.set("q", q); else u.searchParams.delete("q");
        history.replaceState(null, "", u.toString());
      } catch (e) { /* file:// may refuse; the query still runs */ }
      if (!q) { list.innerHTML = ""; facetsEl.innerHTML = ""; status.textContent = ""; return; }
      run(q, filter, 10).then(function (res) { if (mySeq === seq) render(q, res, mySeq); });
    }
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(go, 60); });
    facetsEl.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-facet]");
      if (!b) return;
      var f = b.getAttribute("data-facet"), v = b.getAttribute("data-value");
      filter[f] = filter[f] === v ? "" : v;
      go();
    });
    document.addEventListener("keydown", function (e) {
      var links = Array.prototype.slice.call(list.querySelectorAll("a"));
      var i = links.indexOf(document.activeElement);
      if (e.key === "/" && document.activeElement !== box) { e.preventDefault(); box.focus(); box.select(); }
      else if (e.key === "ArrowDown" && (document.activeElement === box || i >= 0)) {
        e.preventDefault(); if (links[i + 1]) links[i + 1].focus();
      } else if (e.key === "ArrowUp" && i >= 0) {
        e.preventDefault(); (i > 0 ? links[i - 1] : box).focus();
      } else if (e.key === "Escape") {
        if (document.activeElement === box) { box.value = ""; go(); } else box.focus();
      }
    });
    var q0 = new URLSearchParams(location.search).get("q");
    if (q0) { box.value = q0; go(); }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ui); else ui();
})();
