package site

import "testing"

// TestSharedTmplsAreRowTemplate: the shared reasons' keys and row forms a
// site makes once for its grids (sharedTmpls) are those each grid made of
// them (tmplKey, rowTemplate), for every shared reason and distro row.
func TestSharedTmplsAreRowTemplate(t *testing.T) {
	t.Parallel()
	s, _ := bundledSite(t)
	v := s.verdicts
	v.all()
	named := 0
	for r := range v.shared {
		x := &v.shared[r]
		if got, want := v.sharedTmpls().shown[r], tmplKey(x, x.Text, ""); got != want {
			t.Errorf("shared reason %d %q: key %q, want %q", r, x.Text, got, want)
		}
		for i, d := range v.distros {
			text, key := v.sharedTmpl(r, i)
			wantText, wantKey := rowTemplate(x, d.Label)
			if text != wantText || key != wantKey {
				t.Errorf("shared reason %d %q on the %s row: %q, %q; want %q, %q", r, x.Text, d.Label, text, key, wantText, wantKey)
			}
			if key != "" {
				named++
			}
		}
	}
	if named == 0 {
		t.Fatal("no shared reason names a distro row's distro: nothing was compared")
	}
	t.Logf("%d shared reasons, %d of them on a row naming its distro", len(v.shared), named)
}
