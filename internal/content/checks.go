package content

import "github.com/rocekb/rocekb/internal/checkid"

// KnownChecks are the check ids that trees (node `check`) and pages
// (`checks`) may name, read from the one registry (internal/checkid); lint
// validates against them when LintOptions.Checks is nil.
var KnownChecks = checkid.IDs()

// knownCheck reports whether id is a registered check id.
func knownCheck(id string) bool { return checkid.Known(id) }
