// rocekb site search: no server, no framework. It loads search/manifest.js,
// then only the term-range shards for the query's tokens and terms, then
// the fragment files (a few docs each) of the results it shows. Every file registers itself
// through window.rocekbSearch, so <script src> works over HTTP and from
// file:// (where fetch and XHR are blocked). The query analysis uses the
// tables and patterns the Go analyzer exported; this file only stems a
// word no page has (a port of the Go analyzer's stemmer), and does not
// alias or classify words itself.
(function () {
  "use strict";
  var base = (function () {
    var s = document.currentScript && document.currentScript.src;
    return s ? s.replace(/[^\/]*$/, "") : "";
  })();
  var man = null, manWait = [], shards = {}, shardWait = {}, frags = {}, fragWait = {}, fuzzy = null, fuzzyWait = [];
  var re = {}, digit = {}, decoded = {}, stop = {}, cjkw = {}, cjkMax = 0, zhs = {}, zhMax = 0;
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
      (m.cjkw || []).forEach(function (p) { cjkw[p[0]] = p[1]; cjkMax = Math.max(cjkMax, Array.from(p[0]).length); });
      (m.zhs || []).forEach(function (p) { zhs[p[0]] = p[1]; zhMax = Math.max(zhMax, Array.from(p[0]).length); });
      re.alpha = new RegExp(m.alpha);
      re.number = new RegExp(m.number);
      re.head = new RegExp(m.head, "gm");
      re.part = new RegExp(m.part, "gi");
      re.pci = new RegExp(m.pci);
      re.vendor = new RegExp(m.vendor, "i");
      re.mst = new RegExp(m.mst, "gi");
      re.win = new RegExp(m.win, "gi");
      re.ver = new RegExp(m.ver);
      re.fwv = new RegExp(m.fwv);
      re.glue = new RegExp(m.glue);
      m.stop.forEach(function (w) { stop[w] = true; });
      re.tpl = m.tpl.map(function (t) { return { re: new RegExp(t[0], "i"), doc: t[1], means: t[2], id: t[3], url: t[4], loc: t[5] }; });
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
    fuzzy: function (list) {
      fuzzy = list;
      fuzzyWait.forEach(function (f) { f(list); });
      fuzzyWait = [];
    },
    terms: terms, run: run, fragment: fragment, stem: function (w) { return stem(w); }
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
  // tokens mirrors Static.tokensOf in Go: [term, kind, position] of
  // each token, before qualifiers are dropped, with the names only a query
  // reads unless noNames; the shards for raw tokens and their parts must be
  // loaded.
  function tokens(rs, noNames) {
    var toks = [], pos = 0;
    function add(t, k) { toks.push([t, k, pos]); }
    function knownParts(t) {
      var parts = t.split(re.split);
      if (parts.length > 1) parts.forEach(function (p) {
        var pe = entry("s", p);
        if (pe) for (var j = 0; j < pe.length; j += 2) if (pe[j + 1] !== 6) add(pe[j], 2);
      });
    }
    rs.forEach(function (r, i) {
      pos = i + 1;
      var e = entry("s", r);
      if (e) {
        for (var j = 0; j < e.length; j += 2) add(e[j], e[j + 1]);
      } else if (re.cjk.test(r)) {
        var cs = Array.from(r);
        if (cs.length === 1) add(r, 7);
        for (var c = 0; c + 1 < cs.length; c++) add(cs[c] + cs[c + 1], 7);
        zhSynonymsIn(cs, function (w) { pairs(w).forEach(function (p) { add(p, 7); }); });
      } else if (!re.noise.test(r)) {
        var lead = re.alpha.test(r) || re.number.test(r) ? null : re.ver.exec(r);
        if (lead) {
          // A version no page has: as the analyzer reads it (versionTerms).
          add(r, 3);
          r.split("-").forEach(function (seg) {
            var l = re.ver.exec(seg);
            if (!l) { knownParts(seg); return; }
            if (seg !== r) add(seg, 2);
            if (l[0] !== seg) { add(l[0], 2); knownParts(seg.slice(l[0].length)); }
          });
        } else if (re.alpha.test(r)) {
          // A word no page has: stemmed, unless a stop word (word in Go).
          if (utf8Len(r) >= 2 && !stop[r]) add(stem(r), 0);
        } else {
          add(r, re.number.test(r) ? 5 : 1);
          knownParts(r);
        }
        var ce = compact(r) !== r && entry("s", compact(r));
        if (ce) for (var k = 0; k < ce.length; k += 2) if (ce[k + 1] === 6) add(ce[k], 6);
      }
      (entry("c", r) || []).forEach(function (ph) {
        if (i + ph.length - 1 >= rs.length) return;
        for (var j = 1; j < ph.length; j++) if (rs[i + j] !== ph[j]) return;
        add(ph[0], 6);
      });
      if (!noNames) queryNames(rs, i, add);
    });
    return toks;
  }

  // --- stemming an unknown word ---------------------------------------------
  // stem is the Porter stemmer the Go analyzer uses (blevesearch's
  // go-porterstemmer, StemWithoutLowerCasing) for a word no page has, so a
  // word only the query uses (porting, bugs) reads as the server reads it
  // (port, bug); TestStemMatchesGo holds the two to the same stems.
  var stem = (function () {
    function cons(s, i) {
      var c = s[i];
      if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
      if (c === "y") return i === 0 ? true : !cons(s, i - 1);
      return true;
    }
    function measure(s) {
      var n = s.length, m = 0, i = 0;
      if (!n) return 0;
      while (cons(s, i)) { i++; if (i >= n) return m; }
      outer: while (i < n) {
        while (!cons(s, i)) { i++; if (i >= n) break outer; }
        while (cons(s, i)) { i++; if (i >= n) { m++; break outer; } }
        m++;
      }
      return m;
    }
    function ends(s, suf) { // longer than suf, ending with it
      if (s.length <= suf.length) return false;
      for (var i = 0; i < suf.length; i++) if (s[s.length - suf.length + i] !== suf[i]) return false;
      return true;
    }
    function vowel(s) { for (var i = 0; i < s.length; i++) if (!cons(s, i)) return true; return false; }
    function dbl(s) { var n = s.length; return n >= 2 && s[n - 1] === s[n - 2] && cons(s, n - 1); }
    function cvc(s) { var n = s.length; return n >= 3 && cons(s, n - 3) && !cons(s, n - 2) && cons(s, n - 1); }
    function step1a(s) {
      if (ends(s, "sses") || ends(s, "ies")) return s.slice(0, -2);
      if (ends(s, "ss")) return s;
      if (ends(s, "s")) return s.slice(0, -1);
      return s;
    }
    function step1b(s) {
      if (ends(s, "eed")) return measure(s.slice(0, -3)) > 0 ? s.slice(0, -1) : s;
      var suf = ends(s, "ed") ? 2 : ends(s, "ing") ? 3 : 0;
      if (!suf) return s;
      var sub = s.slice(0, -suf);
      if (!vowel(sub)) return s;
      var c = sub[sub.length - 1], r;
      if (ends(sub, "at") || ends(sub, "bl") || ends(sub, "iz")) {
        r = s.slice(0, s.length - suf + 1);
        r[r.length - 1] = "e";
        return r;
      }
      if (c !== "l" && c !== "s" && c !== "z" && dbl(sub)) return sub.slice(0, -1);
      if (measure(sub) === 1 && cvc(sub) && c !== "w" && c !== "x" && c !== "y") {
        r = s.slice(0, s.length - suf + 1);
        r[r.length - 1] = "e";
        return r;
      }
      return sub;
    }
    function step1c(s) {
      var n = s.length;
      if (n >= 2 && s[n - 1] === "y" && vowel(s.slice(0, -1))) { s = s.slice(); s[n - 1] = "i"; }
      return s;
    }
    // Rules of steps 2 and 3: suffix, then what it becomes (the Go code's
    // slicing and letter changes, written as a replacement).
    var rules2 = [["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"],
      ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"], ["ator", "ate"],
      ["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"],
      ["biliti", "ble"], ["logi", "log"]];
    var rules3 = [["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""]];
    function replace(s, rules) {
      for (var i = 0; i < rules.length; i++) {
        var suf = rules[i][0];
        if (!ends(s, suf)) continue;
        var stemPart = s.slice(0, s.length - suf.length);
        return measure(stemPart) > 0 ? stemPart.concat(Array.from(rules[i][1])) : s;
      }
      return s;
    }
    var rules4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];
    function step4(s) {
      for (var i = 0; i < rules4.length; i++) {
        var suf = rules4[i];
        if (!ends(s, suf)) continue;
        var sub = s.slice(0, s.length - suf.length), c = sub[sub.length - 1];
        if (measure(sub) > 1 && (suf !== "ion" || c === "s" || c === "t")) return sub;
        return s;
      }
      return s;
    }
    function step5a(s) {
      if (s[s.length - 1] !== "e") return s;
      var sub = s.slice(0, -1), m = measure(sub), c = sub[sub.length - 1];
      if (m > 1 || (m === 1 && !(cvc(sub) && c !== "w" && c !== "x" && c !== "y"))) return sub;
      return s;
    }
    function step5b(s) {
      var n = s.length;
      return n > 2 && s[n - 2] === "l" && s[n - 1] === "l" && measure(s.slice(0, -1)) > 1 ? s.slice(0, -1) : s;
    }
    return function (w) {
      var s = Array.from(w);
      if (s.length <= 2) return w;
      s = step5b(step5a(step4(replace(replace(step1c(step1b(step1a(s))), rules2), rules3))));
      return s.join("");
    };
  })();
  // utf8Len is a string's length in UTF-8 bytes (Go's len).
  function utf8Len(s) { return unescape(encodeURIComponent(s)).length; }

  // --- names only a query reads (names.go) ---------------------------------
  // runKeys returns the compact keys of the runs of raw token t's parts:
  // two to man.run consecutive parts, not all, with a letter; with singles,
  // before a part's runs, the part alone when it is model-like (modelLike
  // in Go).
  function runKeys(t, singles) {
    var out = [];
    if (re.cjk.test(t) || re.noise.test(t)) return out;
    var parts = t.split(re.split).filter(function (p) { return p !== ""; }), k = parts.length;
    if (k < 2) return out;
    for (var a = 0; a < k; a++) {
      var one = compact(parts[a]);
      if (singles && utf8Len(one) >= 3 && /[0-9]/.test(one) && /[^0-9]/.test(one)) out.push(one);
      for (var e = a + 2; e <= Math.min(k, a + man.run); e++) {
        if (a === 0 && e === k) continue;
        var key = compact(parts.slice(a, e).join(""));
        if (/[^0-9]/.test(key)) out.push(key);
      }
    }
    return out;
  }
  // pairKey is the compact key of raw tokens a and b written as one, or "".
  function pairKey(a, b) {
    if (re.cjk.test(a) || re.cjk.test(b) || re.noise.test(a) || re.noise.test(b)) return "";
    var ca = compact(a), cb = compact(b);
    return ca && cb ? ca + cb : "";
  }
  // nameKeys are the keys whose shards the names need (nameKeys in Go).
  function nameKeys(rs) {
    var out = [];
    rs.forEach(function (r, i) {
      out.push.apply(out, runKeys(r, true));
      var g = gluedKey(r);
      if (g) out.push(g);
      if (i + 1 < rs.length) { var k = pairKey(r, rs[i + 1]); if (k) out.push(k); }
    });
    return out;
  }
  // gluedKey is the compact key of the model a link speed is written
  // against in raw token t, or "".
  function gluedKey(t) {
    var m = re.glue.exec(t);
    return m ? compact(m[1]) : "";
  }
  // keyNames are the alias-kind terms of key's surface entry.
  function keyNames(key) {
    var e = entry("s", key), out = [];
    if (e) for (var j = 0; j < e.length; j += 2) if (e[j + 1] === 6) out.push(e[j]);
    return out;
  }
  // queryNames adds the names read at raw token i (queryNames in Go): its
  // runs', the model's after a glued link speed, its firmware line's
  // adapters, its and the next token's as one.
  function queryNames(rs, i, add) {
    var r = rs[i];
    // A part alone only when the whole token names nothing.
    var whole = keyNames(compact(r)).length > 0;
    runKeys(r, !whole).forEach(function (k) { keyNames(k).forEach(function (n) { add(n, 6); }); });
    var g = gluedKey(r);
    if (g) keyNames(g).forEach(function (n) { add(n, 6); });
    var fw = re.fwv.exec(r);
    if (fw && man.fwl) (man.fwl[fw[1]] || []).forEach(function (n) { add(n, 6); });
    if (i + 1 < rs.length) {
      var k = pairKey(r, rs[i + 1]);
      if (k) keyNames(k).forEach(function (n) { add(n, 6); });
    }
  }
  // dropQualifiers mirrors dropQualifiers in Go: a vendor named beside
  // its own adapter only qualifies it, and its positions are dropped. An
  // adapter term's vendor is in the o table of the term's shard, which
  // must be loaded.
  function dropQualifiers(toks) {
    var owners = {}, adapterAt = {}, drop = {};
    toks.forEach(function (t) {
      var v = entry("o", t[0]);
      if (v !== null) { owners[v] = true; adapterAt[t[2]] = true; }
    });
    toks.forEach(function (t) {
      if (owners[t[0]] === true && !adapterAt[t[2]]) drop[t[2]] = true;
    });
    return toks.filter(function (t) { return !drop[t[2]]; });
  }
  // merge mirrors queryTerms in Go: the tokens' terms, each once with its
  // highest weight.
  function merge(toks) {
    var out = [], at = {};
    toks.forEach(function (t) {
      var w = man.kw[t[1]];
      if (!w) return;
      if (Object.prototype.hasOwnProperty.call(at, t[0])) {
        var o = out[at[t[0]]];
        if (w > o.weight) { o.weight = w; o.kind = t[1]; }
        return;
      }
      at[t[0]] = out.length;
      out.push({ term: t[0], weight: w, kind: t[1] });
    });
    return out;
  }

  // --- pasted lines and typos (lines.go, fuzzy.go) ------------------------
  // normalize drops syslog and journal headers and adds the PCI id after
  // a device id printed in decimal: vendor_part_id, an MST node, and after
  // one written the Windows way, VEN_…&DEV_… (Normalize in Go).
  function normalize(text) {
    if (text.indexOf(":") >= 0 || text.indexOf("]") >= 0) {
      re.head.lastIndex = 0;
      text = text.replace(re.head, "");
    }
    var low = text.toLowerCase();
    if (low.indexOf("ven_") >= 0) {
      text = text.replace(re.win, function (m, v, d, sd, sv) {
        return m + " " + (v + ":" + d).toLowerCase() + (sd ? " " + (sv + ":" + sd).toLowerCase() : "");
      });
    }
    if (low.indexOf("vendor_part_id") < 0 && low.indexOf("_pci") < 0) return text;
    var v = re.vendor.exec(text), pv = v && man.pv[v[1].toLowerCase()], vendor = pv ? pv + ":" : "";
    function hex(d) { var n = +d; return n && n <= 0xffff ? ("000" + n.toString(16)).slice(-4) : ""; }
    text = text.replace(re.part, function (m, d) { return hex(d) ? m + " " + vendor + hex(d) : m; });
    return text.replace(re.mst, function (m, d) { return hex(d) ? m + " " + man.mstv + ":" + hex(d) : m; });
  }
  // explain returns, for each line of text, the first template in table
  // order that matches it and whose page passes the filter; one per page
  // (explain in Go).
  function explain(text, filter, cjk) {
    var out = [], seen = {};
    text.split("\n").forEach(function (line) {
      if (!line.trim()) return;
      for (var i = 0; i < re.tpl.length; i++) {
        var t = re.tpl[i];
        if (!t.re.test(line)) continue;
        var doc = t.doc, url = t.url, ok = passes(doc, filter);
        if (cjk) {
          for (var j = 0; j < man.cjkl.length; j++) {
            var l = t.loc[man.cjkl[j]];
            if (l && passes(l[0], filter)) { doc = l[0]; url = l[1]; ok = true; break; }
          }
        }
        if (!ok) continue;
        if (!seen[url]) { seen[url] = true; out.push({ doc: doc, url: url, means: t.means, id: t.id }); }
        break;
      }
    });
    return out;
  }

  function isASCII(s) { return /^[\x00-\x7f]*$/.test(s); }
  function compact(s) { return s.toLowerCase().replace(/[^0-9a-z\u0080-\uffff]+/g, ""); }
  function mainKind(k) { return k !== 2 && k !== 5 && k !== 4; } // not a part, number or prefix
  // known: a raw token has a main term with postings (the term shards of
  // its analysis must be loaded), not counting the names only a query
  // reads (Static.known in Go).
  function known(r) {
    // One raw token: no position is dropped as a qualifier.
    return merge(tokens([r], true)).some(function (t) { return mainKind(t.kind) && postings(t.term).length > 0; });
  }
  // unknownTokens returns [start, end) of the tokens a correction may
  // replace (unknownTokens in Go): in a long query, only those with a
  // letter and a digit.
  function unknownTokens(text) {
    var spans = [], m;
    re.tok.lastIndex = 0;
    while ((m = re.tok.exec(text)) !== null) spans.push([m.index, m.index + m[0].length]);
    var long = spans.length > man.fz[0];
    return spans.filter(function (l) {
      var r = text.slice(l[0], l[1]).toLowerCase(), c = compact(r);
      if (c.length < man.fz[1] || !isASCII(r) || re.number.test(r) || re.pci.test(r) || re.noise.test(r)) return false;
      if (long && !(/[0-9]/.test(c) && /[a-z]/.test(c))) return false;
      return !known(r);
    });
  }
  function digitsOf(s) { return s.replace(/[^0-9]/g, ""); }
  // isSubsequence reports whether a's characters are in b, in order.
  function isSubsequence(a, b) {
    var i = 0;
    for (var j = 0; i < a.length && j < b.length; j++) if (a[i] === b[j]) i++;
    return i === a.length;
  }
  // distance is suggest.Transposed: Levenshtein with the swap of two
  // neighbours as one edit.
  function distance(a, b) {
    var rows = [], i, j;
    for (i = 0; i <= a.length; i++) { rows.push([i]); }
    for (j = 1; j <= b.length; j++) rows[0][j] = j;
    for (i = 1; i <= a.length; i++) {
      for (j = 1; j <= b.length; j++) {
        var d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
        rows[i][j] = d;
      }
    }
    return rows[a.length][b.length];
  }
  // correct returns text with each unknown token replaced by the closest
  // fuzzy name with its digits, or "" (correct in Go).
  function correct(text, spans) {
    var out = "", at = 0, changed = false;
    spans.forEach(function (l) {
      var key = compact(text.slice(l[0], l[1])), digits = digitsOf(key), maxD = key.length >= man.fz[2] ? 2 : 1, best = null, bestD = 3;
      var dropped = digits.length >= man.fz[3];
      fuzzy.forEach(function (n) {
        if (n.length < 3) n.push(digitsOf(n[0])); // the name's digits, once
        if (n[2] !== digits) return;
        var lim = dropped && n[0].length > key.length && isSubsequence(key, n[0]) ? 2 : maxD;
        var dl = n[0].length - key.length;
        if (dl > lim || -dl > lim) return;
        var d = distance(key, n[0]);
        if (d <= lim && d < bestD) { best = n; bestD = d; }
      });
      if (!best || bestD === 0) return; // a name spelt as the token is no typo
      out += text.slice(at, l[0]) + best[1];
      at = l[1];
      changed = true;
    });
    return changed ? out + text.slice(at) : "";
  }
  function loadFuzzy() {
    return new Promise(function (resolve) {
      if (fuzzy) return resolve(fuzzy);
      fuzzyWait.push(resolve);
      if (fuzzyWait.length === 1) load("search/fuzzy.js");
    });
  }
  // cjkExpand is text with the English words of the manifest's CJK words
  // (cjkw) found in its CJK runs appended (cjkExpand in Go).
  function cjkExpand(text) {
    var add = [], m;
    re.tok.lastIndex = 0;
    while ((m = re.tok.exec(text)) !== null) {
      if (!re.cjk.test(m[0])) continue;
      var cs = Array.from(m[0]);
      for (var i = 0; i < cs.length;) {
        var n = 0;
        for (var l = Math.min(cjkMax, cs.length - i); l >= 2; l--) {
          var en = cjkw[cs.slice(i, i + l).join("")];
          if (typeof en === "string") { add.push(en); n = l; break; }
        }
        i += n || 1;
      }
    }
    return add.length ? text + " " + add.join(" ") : text;
  }
  // zhSynonymsIn calls f with the group's first word of each word of the
  // manifest's Chinese synonyms (zhs) in the run's characters cs
  // (zhSynonymsIn in Go); pairs cuts a word into its character pairs.
  function zhSynonymsIn(cs, f) {
    for (var i = 0; i < cs.length;) {
      var n = 1;
      for (var l = Math.min(zhMax, cs.length - i); l >= 2; l--) {
        var c = zhs[cs.slice(i, i + l).join("")];
        if (typeof c === "string") { f(c); n = l; break; }
      }
      i += n;
    }
  }
  function pairs(w) {
    var cs = Array.from(w), out = [];
    if (cs.length === 1) return [w];
    for (var i = 0; i + 1 < cs.length; i++) out.push(cs[i] + cs[i + 1]);
    return out;
  }
  // terms resolves to the query's analyzed terms, with the shards of the
  // terms loaded.
  function terms(text) {
    return manifest().then(function () {
      var rs = raws(cjkExpand(text)), keys = rs.slice();
      rs.forEach(function (r) { keys.push(compact(r)); r.split(re.split).forEach(function (p) { if (p) keys.push(p); }); });
      keys.push.apply(keys, nameKeys(rs));
      return shardsFor(keys).then(function () {
        var toks = tokens(rs);
        return shardsFor(toks.map(function (t) { return t[0]; })).then(function () { return merge(dropQualifiers(toks)); });
      });
    });
  }
  // prepare resolves to {text, terms, didYouMean}: the query normalized,
  // and corrected when it is short and has a token no page has.
  function prepare(text) {
    return manifest().then(function () {
      text = normalize(text);
      return terms(text).then(function (qts) {
        var spans = unknownTokens(text);
        if (!spans.length) return { text: text, terms: qts, didYouMean: "" };
        return loadFuzzy().then(function () {
          var c = correct(text, spans);
          if (!c) return { text: text, terms: qts, didYouMean: "" };
          return terms(c).then(function (cq) { return { text: c, terms: cq, didYouMean: c }; });
        });
      });
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
  function passes(doc, filter) {
    var g = groupOf(doc);
    return !((filter.kind && man.kinds[g[1]] !== filter.kind) || (filter.vendor && man.vendors[g[2]] !== filter.vendor) ||
      (filter.lang && man.langs[g[3]] !== filter.lang));
  }
  // run resolves to {terms, total, hits: [{doc, score}], facets, marks,
  // didYouMean, explains}, the hits from offset on. Ranking mirrors
  // Static.Search in Go: explained pages, then knowledge pages by score ×
  // kind boost, then host reports unless the query names a host.
  function run(text, filter, limit, offset) {
    filter = filter || {};
    limit = limit || 10;
    offset = offset || 0;
    return prepare(text).then(function (pq) {
      var qts = pq.terms;
      var score = {}, count = {}, marks = {}, explained = {};
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
      // A Japanese query (kana) on a site without Japanese pages reads
      // the English ones first (queryCJK in the Go engines).
      var cjk = raws(pq.text).some(function (r) { return re.cjk.test(r); }) &&
        (man.langs.indexOf("ja") >= 0 || !/[\u3040-\u30ff]/.test(pq.text));
      var explains = explain(pq.text, filter, cjk);
      explains.forEach(function (t) {
        explained[t.doc] = true;
        if (!(t.doc in score)) score[t.doc] = 0;
      });
      var hostNamed = qts.some(function (t) { return entry("h", t.term) !== null; });
      // The page of a thing the query names by its id counts man.eb× of
      // its kind (EntityBoost in Go), from the e tables of the terms' shards.
      var named = {};
      qts.forEach(function (t) {
        if (mainKind(t.kind)) (entry("e", t.term) || []).forEach(function (d) { named[d] = true; });
      });
      var hits = [], facets = { kind: {}, vendor: {}, lang: {} };
      Object.keys(score).forEach(function (k) {
        var d = +k, g = groupOf(d);
        var kind = man.kinds[g[1]], vendor = man.vendors[g[2]], lang = man.langs[g[3]];
        if (!passes(d, filter)) return;
        var v = count[d] > 0 ? score[d] * count[d] / qts.length * man.kb[g[1]] * (man.cjkl.indexOf(lang) >= 0 === cjk ? 1 : man.ol[g[1]]) * (named[d] ? man.eb[g[1]] : 1) : 0;
        var tier = explained[d] ? 0 : kind === "host" && !hostNamed ? 2 : 1;
        hits.push({ doc: d, score: v, tier: tier });
        facets.kind[kind] = (facets.kind[kind] || 0) + 1;
        if (vendor) facets.vendor[vendor] = (facets.vendor[vendor] || 0) + 1;
        facets.lang[lang] = (facets.lang[lang] || 0) + 1;
      });
      hits.sort(function (a, b) { return a.tier - b.tier || b.score - a.score || a.doc - b.doc; });
      return {
        terms: qts, total: hits.length, offset: offset, hits: hits.slice(offset, offset + limit), facets: facets, marks: marks,
        didYouMean: pq.didYouMean, explains: explains.map(function (t) { return { template: t.id, url: t.url, means: t.means }; })
      };
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
    var explainEl = document.getElementById("search-explain");
    var pager = document.getElementById("search-pager");
    var filter = {}, seq = 0, timer = 0, page = 0, perPage = 10;
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
    function pagerHTML(res) {
      if (res.total <= perPage) return "";
      var last = Math.ceil(res.total / perPage) - 1, h = "";
      if (page > 0) h += '<button type="button" data-page="' + (page - 1) + '">← Previous</button> ';
      for (var p = 0; p <= last; p++) {
        if (p === page) h += '<span aria-current="page">' + (p + 1) + "</span> ";
        else if (p === 0 || p === last || Math.abs(p - page) <= 2) h += '<button type="button" data-page="' + p + '">' + (p + 1) + "</button> ";
        else if (Math.abs(p - page) === 3) h += "… ";
      }
      if (page < last) h += '<button type="button" data-page="' + (page + 1) + '">Next →</button>';
      return h;
    }
    function render(q, res, mySeq) {
      Promise.all(res.hits.map(function (h) { return fragment(h.doc); })).then(function (fs) {
        if (mySeq !== seq) return;
        var shown = res.didYouMean || q, from = res.offset + 1, to = res.offset + res.hits.length;
        status.textContent = (res.total ? res.total + " result" + (res.total === 1 ? "" : "s") + " for “" + shown + "”" +
          (res.total > perPage ? ", " + from + "–" + to + " shown" : "") : "No results for “" + shown + "”");
        var ex = "";
        if (res.didYouMean) {
          ex += '<p class="note">Did you mean <a href="?q=' + encodeURIComponent(res.didYouMean) + '" data-q="' + esc(res.didYouMean) + '">' +
            esc(res.didYouMean) + "</a>? No page has “" + esc(q) + "”, so these are its results.</p>";
        }
        res.explains.forEach(function (e) {
          ex += '<p class="note"><strong>This line:</strong> ' + esc(e.means) + ' Explained in <a href="' + esc(root + e.url) + '">' + esc(e.url) + "</a>.</p>";
        });
        if (!res.total) {
          ex += '<p class="note">Search for an adapter, part number, PCI id, driver, distro or a pasted error line. Whether a configuration works: the <a href="' +
            esc(root + "index.html#will") + '">Will it work?</a> form.</p>';
        }
        explainEl.innerHTML = ex;
        facetsEl.innerHTML = facetHTML("kind", res.facets.kind) + facetHTML("vendor", res.facets.vendor);
        list.start = from;
        list.innerHTML = fs.map(function (f) {
          return '<li><a href="' + esc(root + f.u) + '">' + esc(f.t) + '</a> <span class="kind">' + esc(f.k) +
            (f.v ? " · " + esc(f.v) : "") + '</span><p class="snippet">' + snippet(f.x, res.marks) + "</p></li>";
        }).join("");
        pager.innerHTML = pagerHTML(res);
      });
    }
    function go(keepPage) {
      var q = box.value.trim(), mySeq = ++seq;
      if (!keepPage) page = 0;
      try {
        var u = new URL(location.href);
        if (q) u.searchParams.set("q", q); else u.searchParams.delete("q");
        if (page) u.searchParams.set("p", page + 1); else u.searchParams.delete("p");
        history.replaceState(null, "", u.toString());
      } catch (e) { /* file:// may refuse; the query still runs */ }
      if (!q) { list.innerHTML = ""; facetsEl.innerHTML = ""; explainEl.innerHTML = ""; pager.innerHTML = ""; status.textContent = ""; return; }
      run(q, filter, perPage, page * perPage).then(function (res) { if (mySeq === seq) render(q, res, mySeq); });
    }
    pager.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-page]");
      if (!b) return;
      page = +b.getAttribute("data-page");
      go(true);
      box.scrollIntoView && box.scrollIntoView();
    });
    explainEl.addEventListener("click", function (e) {
      var a = e.target.closest("a[data-q]");
      if (!a) return;
      e.preventDefault();
      box.value = a.getAttribute("data-q");
      go();
    });
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
    var params = new URLSearchParams(location.search), q0 = params.get("q");
    page = Math.max(0, (+params.get("p") || 1) - 1);
    if (q0) { box.value = q0; go(true); }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ui); else ui();
})();
