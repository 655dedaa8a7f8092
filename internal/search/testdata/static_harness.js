// Runs static/search.js under node against a static index folder, the way
// a browser would load it: every <script src> is read and run at once.
// Usage: node static_harness.js SITE_DIR SEARCH_JS [first|stem] < queries.json
// Prints {query: {terms: [term…], top: [doc…], urls: [url…]}} as JSON, the
// urls from the fragment files, as the page shows them. With "first", each
// query runs in a fresh page instead, and it prints {query: {files:
// [file…], top: [doc…]}}: the files that page loaded, in order. With
// "stem", the input is words and it prints {word: its stem}.
"use strict";
const fs = require("fs"), path = require("path"), vm = require("vm");
const [site, searchJS, mode] = process.argv.slice(2);
const head = {
  appendChild(el) {
    const file = path.join(site, el.src.replace(/^site\//, ""));
    vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
    setTimeout(() => el.onload && el.onload(), 0);
  },
};
global.window = global;
global.document = {
  currentScript: { src: "site/search.js" },
  readyState: "complete",
  head,
  createElement: () => ({ remove() {} }),
  getElementById: () => null,
  addEventListener() {},
};
vm.runInThisContext(fs.readFileSync(searchJS, "utf8"), { filename: searchJS });
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
// scripts holds each file compiled once: each fresh page runs the same
// compiled script, as a browser's code cache would.
const scripts = new Map();
function script(file) {
  let s = scripts.get(file);
  if (!s) {
    s = new vm.Script(fs.readFileSync(file, "utf8"), { filename: file });
    scripts.set(file, s);
  }
  return s;
}
// page is the context fresh pages run in: search.js keeps a page's state
// in its own closure, so running it again starts a page from nothing, as
// a new context would (whose making and collection cost node about 3 ms
// a page), as long as nothing else is left on the global object: pageKeys
// are the only names a page may leave there, and freshPage fails on any
// other.
const page = { setTimeout, console, URL, URLSearchParams };
page.window = page;
vm.createContext(page);
const pageKeys = new Set([...Object.keys(page), "document", "rocekbSearch"]);
// freshPage runs search.js in a fresh page, recording the files it loads.
function freshPage() {
  const left = Object.keys(page).filter((k) => !pageKeys.has(k));
  if (left.length) throw new Error("a page left " + left.join(", ") + " on the global object, which the next page would see");
  const files = [];
  delete page.rocekbSearch;
  page.document = {
    currentScript: { src: "site/search.js" },
    readyState: "complete",
    head: {
      appendChild(el) {
        const rel = el.src.replace(/^site\//, ""), file = path.join(site, rel);
        files.push(rel);
        script(file).runInContext(page);
        setTimeout(() => el.onload && el.onload(), 0);
      },
    },
    createElement: () => ({ remove() {} }),
    getElementById: () => null,
    addEventListener() {},
  };
  script(searchJS).runInContext(page);
  return { api: page.rocekbSearch, files };
}
if (mode === "stem") {
  const out = {};
  for (const w of queries) out[w] = window.rocekbSearch.stem(w);
  process.stdout.write(JSON.stringify(out));
}
else if (mode === "first") (async () => {
  const out = {};
  for (const q of queries) {
    const page = freshPage();
    const res = await page.api.run(q, {}, 10);
    await Promise.all(res.hits.map((h) => page.api.fragment(h.doc)));
    out[q] = { files: page.files, top: res.hits.map((h) => h.doc) };
  }
  process.stdout.write(JSON.stringify(out));
})();
else (async () => {
  const out = {};
  for (const q of queries) {
    const res = await window.rocekbSearch.run(q, {}, 10);
    const frags = await Promise.all(res.hits.map((h) => window.rocekbSearch.fragment(h.doc)));
    out[q] = { terms: res.terms.map((t) => t.term + "/" + t.weight), top: res.hits.map((h) => h.doc), urls: frags.map((f) => f.u),
      didYouMean: res.didYouMean, explains: res.explains.map((e) => e.template) };
  }
  process.stdout.write(JSON.stringify(out));
})();
