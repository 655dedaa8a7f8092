package matrix

import (
	"regexp"
	"strings"
)

// repoRef matches the owner/repo:path@commit form used for repository files.
var repoRef = regexp.MustCompile(`^([\w.-]+/[\w.-]+):([^@\s]+)@([0-9a-f]{7,40})$`)

// Href returns a link for the source: URLs as written, and owner/repo:path@commit
// as the file at that commit on GitHub. Anything else (a document title, a
// "kernel source: function" reference) has no link and returns "".
func (s *Source) Href() string {
	u := strings.TrimSpace(s.URL)
	switch {
	case strings.HasPrefix(u, "https://"), strings.HasPrefix(u, "http://"):
		return u
	}
	if m := repoRef.FindStringSubmatch(u); m != nil {
		return "https://github.com/" + m[1] + "/blob/" + m[3] + "/" + m[2]
	}
	return ""
}
