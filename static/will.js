// rocekb "will it work?" form. No server, no framework. The verdicts were
// computed at build time by the engine `kbgen check` uses: verdicts.js
// registers the index and verdicts/<adapter>.js one adapter's verdicts,
// each through window.rocekbVerdicts, so <script src> works from file://.
// The only judging done here is firmware, against the exported firmware
// minimums, with a port of internal/version's comparison (a Go test runs
// this file against the engine).
(function () {
  "use strict";
  var base = (function () {
    var s = document.currentScript && document.currentScript.src;
    return s ? s.replace(/[^\/]*$/, "") : "";
  })();
  var index = null, tables = {}, waits = {};

  // ---- version comparison: internal/version.Parse and Compare ----
  var ofedPrefixes = ["MLNX_OFED_LINUX-", "MLNX_OFED-", "DOCA-OFED-", "OFED-"];
  var kernelShape = /^(v[0-9]|[0-9]+\.[0-9]+(\.[0-9]+){0,2}-(rc[0-9]|[0-9]+(\.[0-9]+)*[.-][A-Za-z]))/;
  var prerelease = { rc: true, pre: true, alpha: true, beta: true };
  function isD(c) { return c >= "0" && c <= "9"; }
  function isL(c) { return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z"); }
  function parse(s) {
    if (!s || s.length > 128 || /[^0-9A-Za-z.\-_+~()]/.test(s)) return null;
    var body = s, ofed = false;
    for (var k = 0; k < ofedPrefixes.length; k++) {
      if (s.indexOf(ofedPrefixes[k]) === 0) { body = s.slice(ofedPrefixes[k].length); ofed = true; break; }
    }
    var b = body.replace(/^v/, "");
    if (!b || !isD(b[0])) return null;
    var cisco = !ofed && body.indexOf("(") >= 0;
    if (!ofed && !cisco && kernelShape.test(body)) return null; // a kernel release: not a firmware
    var segs = [], depth = 0, groups = 0, prevSep = true, i = 0;
    while (i < body.length) {
      var c = body[i];
      if (isD(c) || isL(c)) {
        var j = i, d = isD(c);
        while (j < body.length && isD(body[j]) === d && (isD(body[j]) || isL(body[j]))) j++;
        var t = body.slice(i, j);
        if (d) segs.push({ n: true, t: t.replace(/^0+/, "") || "0", p: depth > 0 });
        else segs.push({ n: false, t: t.toLowerCase(), p: depth > 0 });
        i = j; prevSep = false; continue;
      }
      if (c === "(") {
        if (!cisco || depth > 0 || groups > 0 || prevSep) return null;
        depth++; groups++; prevSep = true;
      } else if (c === ")") {
        if (depth === 0 || prevSep) return null;
        depth--; i++; continue;
      } else {
        if (prevSep) return null;
        prevSep = true;
      }
      i++;
    }
    if (depth !== 0) return null;
    if (prevSep && body.length > 0 && body[body.length - 1] !== ")") return null;
    if (cisco) {
      // 5.1(1x) means any 5.1(1) build: the x is dropped.
      segs = segs.filter(function (g, i) {
        var last = i === segs.length - 1 || !segs[i + 1].p;
        return !(g.p && !g.n && g.t === "x" && last && i > 0 && segs[i - 1].n && segs[i - 1].p);
      });
    }
    return segs;
  }
  function cmpNum(a, b) {
    if (a.length !== b.length) return a.length < b.length ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function cmpSeg(x, y) {
    if (!x && !y) return 0;
    if (!x) return -cmpSeg(y, null);
    if (!y) {
      if (x.n) return cmpNum(x.t, "0");
      return prerelease[x.t] ? -1 : 1;
    }
    if (x.n && y.n) return cmpNum(x.t, y.t);
    if (x.n) return 1;
    if (y.n) return -1;
    var px = !!prerelease[x.t], py = !!prerelease[y.t];
    if (px && !py) return -1;
    if (py && !px) return 1;
    return x.t < y.t ? -1 : x.t > y.t ? 1 : 0;
  }
  // compare returns -1, 0 or 1, or null when either side is not a version.
  function compare(a, b) {
    var x = parse(a), y = parse(b);
    if (!x || !y) return null;
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      var c = cmpSeg(x[i] || null, y[i] || null);
      if (c !== 0) return c;
    }
    return 0;
  }

  // ---- kernel releases: internal/version.ParseKernel, rule.KernelBase ----
  var kernelUpstream = /^v?([0-9]+\.[0-9]+(?:\.[0-9]+){0,2})(?:-(rc[0-9]+))?/;
  var kernelDistroPart = /^-([0-9]+(?:\.[0-9]+)*)((?:\.[A-Za-z][A-Za-z0-9_]*)*)((?:-[A-Za-z][A-Za-z0-9_]*)*)((?:\.[A-Za-z][A-Za-z0-9_]*)*)(\+[A-Za-z0-9_]+)?$/;
  // Debian's backports' and Debian 13's ABI names (version.kernelDebianRe).
  var kernelDebianPart = /^(?:-([0-9]+|0\.(?:bpo|deb[0-9]+)\.[0-9]+)|\+((?:bpo|deb[0-9]+)(?:\.[0-9]+)?))-([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9][A-Za-z0-9_]*)*)$/;
  var arches = { x86_64: 1, aarch64: 1, ppc64le: 1, ppc64: 1, s390x: 1, i686: 1, i386: 1, armv7hl: 1, noarch: 1, riscv64: 1 };
  function parseKernel(s) {
    if (!s || s.length > 128 || /[^0-9A-Za-z.\-_+~()]/.test(s)) return null;
    var b = s.replace(/^v/, "");
    if (!b || !isD(b[0])) return null;
    var m = kernelUpstream.exec(s);
    if (!m) return null;
    var rest = s.slice(m[0].length);
    if (rest === "") return { base: m[1], rel: "", tag: "" };
    var d = kernelDistroPart.exec(rest);
    if (!d) {
      var g = kernelDebianPart.exec(rest);
      return g ? { base: m[1], rel: (g[1] || "") + (g[2] || ""), tag: "" } : null;
    }
    var tags = d[2] ? d[2].replace(/^\./, "").split(".") : [];
    var post = d[4] ? d[4].replace(/^\./, "").split(".") : [];
    var all = tags.concat(post);
    if (all.length && arches[all[all.length - 1]]) all.pop();
    for (var i = 0; i < all.length; i++) if (arches[all[i]]) return null;
    if (post.length && d[3] && all.length > tags.length) return null;
    return { base: m[1], rel: d[1], tag: all.join(".") };
  }
  // kernelBase returns a release's upstream base, distro release and RPM
  // tag, or null when it is not a kernel release: releases the grammar
  // does not read are judged by their leading x.y[.z], and are a distro's
  // when a release number follows it (4.19.0-25-686-pae), upstream when
  // they are a linux-next build (5.1.0-rc7-next-20190430+), and a custom
  // build, judged as a vendor kernel, with any other local version
  // (5.10.17-v8+, 4.4.302+): rule.KernelBase.
  function kernelBase(s) {
    var k = parseKernel(s);
    if (k) return k;
    var m = /^[0-9]+\.[0-9]+(\.[0-9]+)?/.exec(s);
    if (!m) return null;
    var rest = s.slice(m[0].length), r = /^-([0-9]+)(?:[-.+_]|$)/.exec(rest);
    if (r) return { base: m[0], rel: r[1], tag: "" };
    if (rest === "" || /^(?:-rc[0-9]+)?-next-[0-9]{8}\+?$/.test(rest)) return { base: m[0], rel: "", tag: "" };
    return { base: m[0], rel: rest.replace(/^-/, ""), tag: "" };
  }
  // kernelTarget finds the exported cells of a kernel release (the
  // engine's verdict is the same from one bound up to the next; see
  // KernelIndex in internal/site/verdicts.go): { t: target } or { err }.
  // trimKernel ports rule.TrimKernel: the release in a uname -a or
  // uname -sr line, before its build in a uname -rv line, after
  // hostnamectl's "Kernel:", or in a package or file name (kernel-5.14.0-427.el9).
  function trimKernel(s) {
    s = String(s || "").trim();
    if (s.indexOf("Kernel:") === 0) s = s.slice(7).trim();
    var f = s.split(/\s+/);
    if (f.length > 1 && f[1].charAt(0) === "#" && kernelBase(f[0])) return f[0];
    if (f.length > 1 && f[0] === "Linux") {
      for (var i = 1; i < Math.min(f.length, 3); i++) if (kernelBase(f[i])) return f[i];
    }
    var ps = ["kernel-core-", "kernel-", "linux-image-", "linux-", "vmlinuz-"];
    for (var j = 0; j < ps.length; j++) {
      if (s.indexOf(ps[j]) === 0 && /^[0-9]/.test(s.slice(ps[j].length))) return s.slice(ps[j].length);
    }
    return s;
  }
  // debianKeys ports rule.DebianKeys: the keys a Debian kernel release
  // names a release by in index.kernels.g, nearer first (its ABI name, then
  // its series), none for a backport's.
  var debianKernel = /^([0-9]+\.[0-9]+)(?:\.0-([0-9]+)|\.0-0\.(?:bpo|deb[0-9]+)\.[0-9]+|\.[0-9]+\+(deb[0-9]+|bpo)(?:\.[0-9]+)?)-([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9][A-Za-z0-9_]*)*)$/;
  function debianKeys(raw) {
    var g = debianKernel.exec(raw);
    if (!g) return [];
    var abi = raw.slice(0, raw.length - g[4].length - 1);
    if (g[2]) return [abi + "-" + g[4], g[1] + ".0-*-" + g[4]];
    if (g[3] && g[3] !== "bpo") return [abi + "-" + g[4], g[1] + ".*+" + g[3] + "-" + g[4]];
    return [];
  }
  function kernelTarget(raw) {
    var k = kernelBase(raw), ki = index.kernels;
    if (!k) return { err: "\"" + raw + "\" is not a kernel release: want an upstream release (6.8) or a kernel release as uname -r prints it (5.14.0-427.13.1.el9_4.x86_64)" };
    if (k.rel) {
      // ports rule.UEKLine: a UEK kernel is judged as every release of its line.
      var series = k.base.split(".").slice(0, 2).join(".");
      if (ki.u && Object.prototype.hasOwnProperty.call(ki.u, k.tag) && ki.u[k.tag].indexOf(series) >= 0) return { t: "u:" + k.tag + ":" + series, k: k };
      var dk = debianKeys(raw);
      for (var i = 0; i < dk.length; i++) {
        if (Object.prototype.hasOwnProperty.call(ki.g, dk[i])) return { t: "t:" + ki.g[dk[i]], k: k };
      }
      var id = Object.prototype.hasOwnProperty.call(ki.g, k.tag) && ki.g[k.tag];
      if (!id && Object.prototype.hasOwnProperty.call(ki.s, k.tag)) {
        // ports rule.KernelDistro's stream rule: one release's stream starts it.
        var hits = ki.s[k.tag].filter(function (s) { return raw.indexOf(s[0]) === 0 && (raw.length === s[0].length || raw.charAt(s[0].length) === "."); });
        if (hits.length === 1) id = hits[0][1];
      }
      if (id) {
        if (ki.t[id] === k.base) return { t: "t:" + id, k: k };
        return { err: raw + " is a " + label(index.distros, id) + " kernel on upstream " + k.base + (ki.t[id] ? ", not on " + ki.t[id] + " as that release's kernels are" : ", and the matrix gives no kernel base for that release") +
          ": the form holds no verdict for it; kbgen check --kernel " + raw + " judges it" };
      }
    }
    var b = "";
    ki.b.forEach(function (x) { var c = compare(k.base, x); if (c !== null && c >= 0) b = x; });
    return { t: (k.rel ? "v:" : "k:") + b, k: k };
  }
  function unmark(s, k) {
    return s == null || !k ? s : s.split(index.kernels.mk).join(k.raw).split(index.kernels.mb).join(k.base);
  }

  // ---- verdicts ----
  var rank = { "supported": 0, "supported-with-conditions": 1, "unknown": 2, "unsupported": 3 };
  function featureWords(f) {
    if (/-ipv6$/.test(f)) return "IPv6";
    if (/-ipv4$/.test(f)) return "IPv4";
    return f;
  }
  // judge returns the verdict of a cell, with the firmware judged as the
  // engine's judgeFirmware does when fw is given.
  // reasonsOf resolves a cell's reason numbers (shared ones first, then
  // the adapter's own) and their matrix entries; levels become words.
  function reasonsOf(t, cell) {
    var n = index.reasons.length;
    return cell.r.map(function (i) {
      var r = i < n ? index.reasons[i] : t.r[i - n];
      return { l: index.levels[r.l], t: unmark(r.t, cell.k), x: unmark(r.x, cell.k), f: r.f, y: r.y ? index.levels[r.y - 1] : "", i: !!r.i, m: (r.m || []).map(function (k) { return index.refs[k]; }) };
    });
  }
  // likelyOf ports verdict.LikelyOf: an unknown verdict's hint, when every
  // unknown step has one; never the verdict.
  function likelyOf(level, rs) {
    if (level !== "unknown") return "";
    var likely = "supported";
    for (var i = 0; i < rs.length; i++) {
      var r = rs[i], l = r.l;
      if (r.i) continue;
      if (l === "unknown") { if (!r.y) return ""; l = r.y; }
      if (rank[l] > rank[likely]) likely = l;
    }
    return likely;
  }
  function derivedNearest(rs) {
    var out = [];
    rs.forEach(function (r) {
      if (r.x && r.l !== "supported" && out.indexOf(r.x) < 0) out.push(r.x);
    });
    return out;
  }
  // trimFirmware ports version.TrimFirmware: a firmware without the
  // tool's label (firmware-version:, mlxfwmanager's FW row, what a dmesg
  // line puts before it), mlx5_core's PSID, " (MT_...)", and as the first
  // of several numbers (ice's NVM version, bnxt_en's before /pkg).
  function trimFirmware(s) {
    s = String(s || "").trim();
    var low = s.replace(/[A-Z]/g, function (c) { return c.toLowerCase(); }), ls = ["firmware-version", "fw.version", "fw_ver", "firmware version", "fw version", "firmware", "fw", "pkg"];
    // ports version.labelWord: the label as a word, then blanks and a number.
    function word(l) {
      for (var from = 0; ;) {
        var i = low.indexOf(l, from);
        if (i < 0) return -1;
        from = i + 1;
        if (i > 0 && low.charAt(i - 1) !== " " && low.charAt(i - 1) !== "\t") continue;
        if (/^[ \t]\s*[0-9]/.test(low.slice(i + l.length))) return i;
      }
    }
    for (var k = 0; k < ls.length; k++) {
      var l = ls[k], at = low.lastIndexOf(l + ":");
      if (at >= 0 && (at === 0 || !/[a-z_\-]/.test(low.charAt(at - 1)))) { s = s.slice(at + l.length + 1).trim(); break; }
      var w = word(l);
      if (w >= 0) { s = s.slice(w + l.length).trim(); break; }
    }
    var i = s.indexOf(" (");
    if (i > 0 && s.charAt(s.length - 1) === ")") s = s.slice(0, i).trim();
    var f = s.split(/\s+/).filter(Boolean);
    if (f.length > 1 && /^[0-9]/.test(f[0])) s = f[0];
    var p = s.indexOf("/pkg");
    if (p > 0) s = s.slice(0, p);
    return s;
  }
  function judge(name, t, cell, fw) {
    fw = trimFirmware(fw);
    var reasons = reasonsOf(t, cell);
    if (!fw) return { l: cell.l, r: reasons, x: cell.x ? cell.x.map(function (n) { return unmark(n, cell.k); }) : derivedNearest(reasons) };
    // As the engine's otherLine (internal/verdict/firmware.go): a firmware
    // whose leading number is another device line's is not this adapter's.
    var ln = t.ln, mm = ln && /^([0-9]+)\.(.+)$/.exec(fw.trim());
    if (mm && (mm[1].replace(/^0+/, "") || "0") !== ln.v) {
      var maj = mm[1].replace(/^0+/, "") || "0", o = (ln.o || {})[maj];
      var kept = reasons.filter(function (r) { return !r.f; });
      kept.push({
        l: "unsupported",
        t: o ? "firmware " + fw + " is " + o.n + " firmware (line " + maj + "), not " + name + "'s: " + name + " runs line " + ln.v + "; the adapter is not the one planned, or the version is mistyped"
             : "firmware " + fw + " is not " + name + " firmware: " + name + " runs firmware line " + ln.v + " (" + ln.v + ".x.x)",
        x: name + " firmware (" + ln.v + ".x.x)",
        m: o ? [ln.m, o.m] : [ln.m]
      });
      return { l: "unsupported", r: kept, x: derivedNearest(kept) };
    }
    var stackMins = t.fw[cell.stack] || [];
    var out = reasons.filter(function (r) { return !r.f; });
    var level = "supported";
    out.forEach(function (r) { if (rank[r.l] > rank[level]) level = r.l; });
    function add(r) { out.push(r); if (rank[r.l] > rank[level]) level = r.l; }
    if (stackMins.length === 0) {
      out.push({ l: "unknown", t: "firmware " + fw + " not judged: the matrix states no minimum firmware for " + name });
    }
    // As the engine's judgeFirmware (internal/verdict/firmware.go).
    stackMins.forEach(function (f) {
      var m = [{ e: "firmware_min " + cell.adapter + " " + f.f, c: f.c, s: f.s, rule: f.t }];
      var kind = f.rule || "minimum";
      var what = f.st && f.sv ? f.st + " " + f.sv : featureWords(f.f);
      var near = (kind === "exact" ? "firmware " : "firmware ≥ ") + f.v + " for " + what;
      var c = compare(fw, f.v);
      if (c === null) add({ l: "unknown", t: "firmware " + fw + " cannot be compared with " + f.v, m: m });
      else if (kind === "exact" && c !== 0) add({ l: "unsupported", t: "firmware " + fw + " is not " + f.v + ", the exact firmware " + what + " needs", x: near, m: m });
      else if (c >= 0) add({ l: "supported", t: "firmware " + fw + " meets the " + what + " " + kind + " " + f.v, m: m });
      else if (kind === "recommended") add({ l: "supported-with-conditions", t: "firmware " + fw + " is older than " + f.v + ", the firmware " + what + " was tested with; update it", x: near, m: m });
      else add({ l: f.o ? "supported-with-conditions" : "unsupported", t: "firmware " + fw + " is below " + f.v + ", needed for " + what, x: near, m: m });
    });
    return { l: level, r: out, x: derivedNearest(out) };
  }

  function fold(s) { return String(s).toLowerCase().replace(/[^a-z0-9\u00c0-\uffff]+/g, ""); }
  // findAdapter ports matrix.ResolveAdapter: the one adapter s names, or
  // null when it names none or several (kbgen check then lists them).
  function findAdapter(s) {
    if (!index) return null;
    s = String(s).trim();
    var hits = pciAdapters(windowsPCI(s));
    if (hits === undefined) {
      var f = fold(s);
      if (!f) return null;
      hits = adaptersNamed(f, null);
      // ports matrix.HCAType: ibstat's "MT4115", MT and the decimal device id.
      var hca = !hits.length && /^[Mm][Tt]([0-9]{4,5})$/.exec(s);
      if (hca && +hca[1] <= 0xffff) {
        var ph = pciAdapters("15b3:" + ("000" + (+hca[1]).toString(16)).slice(-4));
        if (ph && ph.length) hits = ph;
      }
      // A part number with an ordering suffix (MCX516A-CCAT_C01).
      if (!hits.length && f.length >= 6) {
        var best = 0;
        index.adapters.forEach(function (a) {
          (a.p || []).forEach(function (n) {
            var pf = fold(n);
            if (f.indexOf(pf) === 0 && pf.length > best) { best = pf.length; hits = [a]; }
          });
        });
      }
      // An NVIDIA board name (MCX631102AN-ADA_Ax): the part numbers one
      // letter longer, all one adapter's.
      var b = !hits.length && new RegExp(index.noise.b).exec(s);
      if (b) {
        var bf = fold(b[1]);
        index.adapters.forEach(function (a) {
          (a.p || []).forEach(function (n) {
            var pf = fold(n);
            if (pf.length === bf.length + 1 && pf.indexOf(bf) === 0 && hits.indexOf(a) < 0) hits.push(a);
          });
        });
      }
      // A Broadcom part number the matrix does not list (BCM957608-P2200G):
      // the Broadcom adapter its chip (BCM57608) names.
      var c = !hits.length && new RegExp(index.noise.c).exec(s);
      if (c) hits = adaptersNamed(fold("BCM" + c[1]), "broadcom");
      // "Mellanox ConnectX-6 Dx": a vendor's id, name or alias (the
      // longest) before one of its adapters' names.
      if (!hits.length) {
        var v = vendorPrefix(f);
        if (v) hits = adaptersNamed(v.rest, v.id);
      }
      if (!hits.length) {
        var t = inText(s);
        if (t !== undefined) hits = t;
      }
    }
    return hits.length === 1 ? hits[0] : null;
  }
  // windowsPCI ports matrix.WindowsPCI: PCI\VEN_1077&DEV_8070&SUBSYS_10027053
  // as 1077:8070/7053:1002.
  function windowsPCI(s) {
    var g = new RegExp(index.noise.h).exec(s);
    if (!g) return s;
    var id = (g[1] + ":" + g[2]).toLowerCase();
    if (g[3]) id += "/" + (g[4] + ":" + g[3]).toLowerCase();
    return id;
  }
  function names(a) { return [a.id, a.n].concat(a.a || [], a.p || []); }
  function adaptersNamed(f, vendor) {
    return index.adapters.filter(function (a) {
      return (vendor === null || a.v === vendor) && names(a).some(function (n) { return fold(n) === f; });
    });
  }
  function vendorPrefix(f) {
    var best = null, rest = f;
    Object.keys(index.vendors || {}).forEach(function (id) {
      index.vendors[id].forEach(function (n) {
        var p = fold(n);
        if (p && p.length < f.length && f.indexOf(p) === 0 && f.length - p.length < rest.length) { best = id; rest = f.slice(p.length); }
      });
    });
    return best ? { id: best, rest: rest } : null;
  }
  // pciAdapters ports matrix.resolvePCI: the adapters a PCI id
  // (vvvv:dddd[/ssss:ssss], or a device id one vendor uses) names, or
  // undefined when s is not one.
  function pciAdapters(s) {
    s = s.toLowerCase();
    var cut = s.indexOf("/"), id = cut < 0 ? s : s.slice(0, cut), sub = cut < 0 ? "" : s.slice(cut + 1);
    var pci = /^[0-9a-f]{4}:[0-9a-f]{4}$/;
    if (!pci.test(id)) {
      if (!/^[0-9a-f]{4}$/.test(s) || !/[0-9]/.test(s)) return undefined;
      var ids = [];
      index.adapters.forEach(function (a) {
        (a.i || []).forEach(function (p) {
          p = p.split("/")[0];
          if (p.slice(4) === ":" + s && ids.indexOf(p) < 0) ids.push(p);
        });
      });
      if (ids.length !== 1) return undefined;
      id = ids[0];
    }
    if (sub && !pci.test(sub)) return undefined;
    var plain = [], withSub = [];
    for (var i = 0; i < index.adapters.length; i++) {
      var a = index.adapters[i], ps = a.i || [];
      for (var j = 0; j < ps.length; j++) {
        var k = ps[j].indexOf("/"), pid = k < 0 ? ps[j] : ps[j].slice(0, k), psub = k < 0 ? "" : ps[j].slice(k + 1);
        if (pid !== id) continue;
        if (psub === "") { if (plain.indexOf(a) < 0) plain.push(a); }
        else if (psub === sub) return [a];
        else if (withSub.indexOf(a) < 0) withSub.push(a);
      }
    }
    plain.forEach(function (a) { if (withSub.indexOf(a) < 0) withSub.push(a); });
    return withSub;
  }
  // inText ports matrix.resolveInText: an lspci line, a pci.ids name, a
  // product name with its speed and form factor. undefined when it
  // decides nothing.
  function inText(s) {
    var low = s.toLowerCase(), ids = [], m, re = new RegExp(index.noise.i, "g");
    while ((m = re.exec(low)) !== null) {
      var id = m[1] + ":" + m[2];
      if (ids.indexOf(id) < 0) ids.push(id);
    }
    if (ids.length === 1) {
      var r = pciAdapters(ids[0]);
      if (r && r.length) return r;
    }
    var words = low.replace(/[\[\](),;]/g, " ").split(/\s+/).filter(Boolean).map(function (w) {
      return w.replace(/^[:."']+|[:."']+$/g, "");
    });
    if (words.length < 2 || words.length > index.noise.n) return undefined;
    var noise = new RegExp(index.noise.r), found = null, vendors = [];
    for (var i = 0; i < words.length;) {
      var j = Math.min(words.length, i + index.noise.m);
      for (; j > i; j--) {
        var hit = adaptersNamed(fold(words.slice(i, j).join(" ")), null);
        if (hit.length === 1) {
          if (found && found !== hit[0]) return undefined;
          found = hit[0];
          break;
        }
      }
      if (j > i) { i = j; continue; }
      var w = words[i], f = fold(w);
      if (!(noise.test(w) || f === "" || index.noise.w.indexOf(f) >= 0)) {
        var vs = Object.keys(index.vendors).filter(function (id) {
          return index.vendors[id].some(function (n) { return n.split(/\s+/).some(function (x) { return fold(x) === f; }); });
        });
        if (!vs.length) return undefined;
        vendors.push(vs);
      }
      i++;
    }
    if (!found || vendors.some(function (vs) { return vs.indexOf(found.v) < 0; })) return undefined;
    return [found];
  }

  // ports matrix.familyMembers: the members of the family s names, with or
  // without a vendor's name before it, or null.
  function familyMembers(s) {
    var fams = (index && index.families) || {}, f = fold(s), has = Object.prototype.hasOwnProperty;
    if (has.call(fams, f)) return fams[f];
    var v = f && vendorPrefix(f);
    return v && v.rest && has.call(fams, v.rest) ? fams[v.rest] : null;
  }
  // suggestAdapters ports matrix.closestIDs and suggest.Closest: a
  // family's members, or the ids of up to three adapters whose folded names
  // are nearest to s, within max(2, len/3) edits, a prefix either way
  // counting as one.
  function suggestAdapters(s) {
    var f = fold(s), cands = [], idOf = {};
    if (!f || !index) return [];
    var fam = familyMembers(s);
    if (fam) return fam;
    // As matrix.ResolveAdapter: after a vendor's name, by the model's.
    var v = vendorPrefix(f);
    if (v) f = v.rest;
    index.adapters.forEach(function (a) {
      names(a).forEach(function (n) {
        var k = fold(n);
        // matrix.PartPrefix: a part number is suggested only for one of
        // its own prefix (MCX456A is a ConnectX-4, MCX556A a ConnectX-5).
        if ((a.p || []).indexOf(n) >= 0 && partPrefix(f) !== partPrefix(k)) return;
        if (k && !Object.prototype.hasOwnProperty.call(idOf, k)) { idOf[k] = a.id; cands.push(k); }
      });
    });
    var near = [], limit = Math.max(2, Math.floor(f.length / 3));
    cands.forEach(function (c) {
      var prefix = c.indexOf(f) === 0 || f.indexOf(c) === 0;
      if (!prefix && Math.abs(c.length - f.length) > limit) return; // the distance is at least the difference in length
      var d = editDistance(f, c);
      if (prefix) d = Math.min(d, 1);
      if (d <= limit) near.push([c, d]);
    });
    near.sort(function (x, y) { return x[1] - y[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0); });
    var out = [];
    near.forEach(function (n) { if (out.length < 3 && out.indexOf(idOf[n[0]]) < 0) out.push(idOf[n[0]]); });
    return out;
  }
  // ports matrix.ModuleDrives: the adapters a kernel module drives, or
  // those of every module the name starts ("mlx5" for mlx5_core, mlx5_ib).
  function moduleDrives(s) {
    var mods = (index && index.drivers) || {}, m = String(s).trim().toLowerCase().replace(/-/g, "_");
    if (!m) return [];
    if (Object.prototype.hasOwnProperty.call(mods, m)) return mods[m];
    var out = [];
    Object.keys(mods).sort().forEach(function (k) {
      if (k.indexOf(m + "_") === 0) mods[k].forEach(function (id) { if (out.indexOf(id) < 0) out.push(id); });
    });
    return out;
  }
  function partPrefix(f) {
    var m = /^[^0-9]+[0-9]/.exec(f);
    return m ? m[0] : "";
  }
  function editDistance(a, b) {
    var prev = [], cur = [], i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur[0] = i;
      for (j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      var t = prev; prev = cur; cur = t;
    }
    return prev[b.length];
  }

  function load(id, done) {
    if (tables[id]) return done(tables[id]);
    if (waits[id]) return waits[id].push(done);
    waits[id] = [done];
    var el = document.createElement("script");
    el.src = base + "verdicts/" + encodeURIComponent(id) + ".js";
    el.onerror = function () { el.remove(); var w = waits[id]; delete waits[id]; w.forEach(function (f) { f(null); }); };
    document.head.appendChild(el);
  }

  var api = {
    index: function (d) { index = d; ready(); },
    adapter: function (id, d) {
      tables[id] = d;
      (waits[id] || []).forEach(function (f) { f(d); });
      delete waits[id];
    },
    compare: compare, judge: judge, find: function (s) { var a = findAdapter(s); return a && a.id; }, suggest: suggestAdapters, drives: moduleDrives,
    // cell is the verdict of adapter id on target (a distro id, or ""
    // for none) with stack; kernel, when given, is a kernel release and
    // target is ignored. null when none was exported; { err } for a
    // kernel the form cannot look up.
    cell: function (id, target, stack, kernel) {
      var k = null;
      kernel = trimKernel(kernel);
      if (kernel) {
        var kt = kernelTarget(kernel);
        if (kt.err) return { err: kt.err };
        target = kt.t;
        k = { raw: kernel, base: kt.k.base };
      }
      var t = tables[id], ti = index.targets.indexOf(target), si = -1;
      index.stacks.forEach(function (s, i) { if (s.k === stack) si = i; });
      // A file lists each distinct cell once (u) and each distinct row of
      // a target's cells, one per stack, once (w); t numbers a target's
      // row, and a reason -1-k in a cell is the target's shared p[ti][k].
      var c = t && ti >= 0 && si >= 0 && t.u[t.w[t.t[ti]][si]];
      if (!c) return null;
      var shared = t.p[ti];
      var r = c[1].map(function (i) { return i < 0 ? shared[-1 - i] : i; });
      return { l: index.levels[c[0]], r: r, x: c[2] || null, stack: stack, adapter: id, k: k };
    },
    kernelBase: kernelBase, trimKernel: trimKernel, trimFirmware: trimFirmware,
    load: load
  };
  window.rocekbVerdicts = api;

  // ---- the form ----
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) if (attrs[k] != null) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  var words = { "supported": "Supported", "supported-with-conditions": "Supported, with conditions", "unsupported": "Unsupported", "unknown": "Unknown: the matrix does not say" };
  var cls = { "supported": "ok", "supported-with-conditions": "cond", "unsupported": "no", "unknown": "unk" };
  var marks = { "supported": "✓", "supported-with-conditions": "✓*", "unsupported": "✗", "unknown": "?" };

  function ready() {
    var form = $("will-form");
    if (!form || !index) return;
    var ts = $("will-t"), ks = $("will-k"), ss = $("will-s"), dl = $("will-adapters");
    index.distros.forEach(function (t) { ts.appendChild(el("option", { value: t.k }, t.n)); });
    // A kernel release replaces the distro, as the form judges one or the other.
    function kernelGiven() { ts.disabled = ks.value.trim() !== ""; }
    ks.addEventListener("input", kernelGiven);
    ss.textContent = "";
    index.stacks.forEach(function (t) { ss.appendChild(el("option", { value: t.k }, t.n)); });
    index.adapters.forEach(function (a) {
      [].concat(a.a || [], a.i || [], a.p || []).forEach(function (n) { dl.appendChild(el("option", { value: n }, a.n)); });
    });
    var q = new URLSearchParams(location.search);
    $("will-a").value = q.get("a") || "";
    var qt = q.get("t") || "";
    // Links from before the kernel field: t=k:6.8.
    if (qt.indexOf("k:") === 0) ks.value = qt.slice(2);
    else ts.value = qt;
    if (q.get("k")) ks.value = q.get("k");
    kernelGiven();
    if (q.get("s")) ss.value = q.get("s");
    $("will-fw").value = q.get("fw") || "";
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var p = new URLSearchParams();
      p.set("a", $("will-a").value.trim());
      if (ks.value.trim()) p.set("k", ks.value.trim());
      else p.set("t", ts.value);
      p.set("s", ss.value);
      if ($("will-fw").value.trim()) p.set("fw", $("will-fw").value.trim());
      history.replaceState(null, "", "?" + p.toString() + "#will");
      run();
    });
    if (q.get("a")) run();
  }

  function run() {
    var out = $("will-result"), name = $("will-a").value.trim(), t = $("will-t").value, s = $("will-s").value;
    var fw = $("will-fw").value.trim(), k = $("will-k").value.trim();
    if (k) t = "";
    out.textContent = "";
    var a = findAdapter(name);
    if (!a) {
      // As kbgen check words it: a family, a driver, or a name it lacks.
      var near = suggestAdapters(name), fam = familyMembers(name), drives = moduleDrives(name);
      show(out, null, { l: "unknown", r: [{ l: "unknown", t: fam ?
        "\"" + name + "\" names a family of " + fam.length + " adapters the matrix judges apart, so there is no verdict; name one: " + fam.join(", ") :
        drives.length ?
        "\"" + name + "\" names a driver, not an adapter, so there is no verdict; the adapters it drives: " + drives.join(", ") :
        "adapter \"" + name + "\" is not in the matrix, so there is no verdict" +
        (near.length ? " (did you mean " + near.join(", ") + "?)" : "") }], x: [] }, t, s, k);
      return;
    }
    out.textContent = "Loading the verdicts for " + a.n + "…";
    load(a.id, function (tab) {
      out.textContent = "";
      var c = tab && api.cell(a.id, t, s, k);
      if (!c) { out.textContent = "No verdict was exported for this choice."; return; }
      if (c.err) { out.appendChild(el("p", { "class": "verdict-big unk" }, c.err)); return; }
      show(out, a, judge(a.n, tab, c, fw), t, s, k);
    });
  }

  function label(list, k) {
    for (var i = 0; i < (list || []).length; i++) if (list[i].k === k) return list[i].n;
    return k;
  }

  function show(out, a, v, t, s, k) {
    var tl = k ? "kernel " + k : t ? label(index.distros, t) : "no distro or kernel given";
    var h = el("p", { "class": "verdict-big " + cls[v.l] });
    h.appendChild(el("strong", null, marks[v.l] + " " + words[v.l]));
    h.appendChild(document.createTextNode(" — " + (a ? a.n : $("will-a").value) + " · " + tl + " · " + label(index.stacks, s) + (trimFirmware($("will-fw").value) ? " · firmware " + trimFirmware($("will-fw").value) : "")));
    out.appendChild(h);
    var likely = likelyOf(v.l, v.r || []);
    if (likely) out.appendChild(el("p", { "class": "meta" }, "Likely " + words[likely] + ": a hint from the unconfirmed steps below, not a verdict."));
    if (v.x && v.x.length) {
      out.appendChild(el("p", null, "Nearest change that would be supported:"));
      var ul = el("ul", { "class": "nearest" });
      v.x.forEach(function (n) { ul.appendChild(el("li", null, n)); });
      out.appendChild(ul);
    }
    out.appendChild(el("p", null, "Reasons, each with the matrix entry it rests on:"));
    var ol = el("ol", { "class": "reasons" });
    v.r.forEach(function (r) {
      var li = el("li", { "class": "r " + cls[r.l] });
      li.appendChild(el("span", { "class": "v " + cls[r.l] }, marks[r.l]));
      li.appendChild(document.createTextNode(" "));
      // `code` in the engine's text (quoted from the matrix) as <code>, as the pages render it.
      r.t.split("`").forEach(function (part, i) {
        li.appendChild(i % 2 ? el("code", null, part) : document.createTextNode(part));
      });
      (r.m || []).forEach(function (m) {
        var sp = el("span", { "class": "meta" }, " — " + m.e + (m.c ? " · " + m.c : ""));
        li.appendChild(sp);
        (m.s || []).forEach(function (id) {
          var src = index.sources[id];
          var link = src && src.u ? el("a", { href: src.u, "class": "cite", title: src.t }, "[" + id + "]") : el("span", { "class": "cite", title: src ? src.t : id }, "[" + id + "]");
          li.appendChild(document.createTextNode(" "));
          li.appendChild(link);
        });
      });
      ol.appendChild(li);
    });
    out.appendChild(ol);
    if (a) {
      var p = el("p");
      var href = base + "adapter/" + encodeURIComponent(a.id) + ".html" + (t && !k ? "#d-" + encodeURIComponent(t) : "");
      p.appendChild(el("a", { href: href }, a.n + ": the full distro × stack grid"));
      out.appendChild(p);
    }
  }
})();
