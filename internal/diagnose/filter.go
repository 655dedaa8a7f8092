package diagnose

// filteredBy says which filter a listing was pasted through, for evidence.
func filteredBy(filter string) string {
	if filter == "" {
		return ""
	}
	return " (listed through " + filter + ")"
}
