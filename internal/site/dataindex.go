package site

import (
	"html/template"
	"strings"
)

// DataIndex is the index.html of a folder that holds data files rather
// than pages (search/, search/f/, search/s/, verdicts/), so that a static
// host lists none of them: a short page, not to be indexed, that sends a
// reader to the page the data serves. dir is the folder ("search/f"),
// holds says what its files are, and to is the site path of that page.
func DataIndex(dir, holds, to string) []byte {
	up := strings.Repeat("../", strings.Count(strings.Trim(dir, "/"), "/")+1)
	esc := template.HTMLEscapeString
	return []byte(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="0; url=` + esc(up+to) + `">
<title>Nothing to browse here</title>
<link rel="stylesheet" href="` + up + `style.css">
</head>
<body>
<main id="main">
<h1>Nothing to browse here</h1>
<p>This folder holds ` + esc(holds) + `. <a href="` + esc(up+to) + `">Go to the page that uses them</a>, or <a href="` + up + `index.html">the home page</a>.</p>
</main>
</body>
</html>
`)
}

// DataFolders are the folders that hold data files, whose index.html is a
// DataIndex rather than a page of a kind.
var DataFolders = []string{"search", "search/f", "search/s", "verdicts"}

// IsDataIndex reports whether a site path is the DataIndex of a data folder.
func IsDataIndex(p string) bool {
	for _, d := range DataFolders {
		if p == d+"/index.html" {
			return true
		}
	}
	return false
}
