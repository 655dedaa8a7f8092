package site

import "testing"

// TestAdapterPageCitesByNumber: an adapter page cites a source as [n], the
// nth entry of its Sources list; a source the list lacks keeps its id.
// (Matrix text is rendered with brackets escaped, so it holds no markup
// citations.)
func TestAdapterPageCitesByNumber(t *testing.T) {
	p := &AdapterPage{srcN: map[string]int{"pciids": 3, "linux-mlx5-kconfig": 1}}
	if got, want := string(p.Cites([]string{"linux-mlx5-kconfig", "pciids"})), ` <a href="#s1">[1]</a> <a href="#s3">[3]</a>`; got != want {
		t.Errorf("Cites: %s, want %s", got, want)
	}
	if got := string(p.Cites([]string{"other"})); got != ` <a class="cite" href="#src-other">[other]</a>` {
		t.Errorf("Cites of a source not listed: %s", got)
	}
}
