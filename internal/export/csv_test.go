package export

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestCellsGuardEveryFormulaLead writes each lead OWASP lists through a
// CSV writer and requires the cell read back to start with the quote.
func TestCellsGuardEveryFormulaLead(t *testing.T) {
	t.Parallel()
	attacks := []string{
		"=1+1", "+1+1", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0",
		"\t=1+1", "\r=1+1", "\n=1+1", " =1+1", "＝1+1", "－1",
	}
	plain := []string{"", "mlx5_core", "5.14.0-362.8.1.el9_3.x86_64", "ConnectX-6 Dx", "0x1017"}
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.Write(cells(append(append([]string{}, attacks...), plain...)...)); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	got, err := csv.NewReader(strings.NewReader(b.String())).Read()
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range attacks {
		if got[i] != "'"+a {
			t.Errorf("cell %q written as %q, want it quoted", a, got[i])
		}
	}
	for i, p := range plain {
		if got[len(attacks)+i] != p {
			t.Errorf("cell %q written as %q, want it unchanged", p, got[len(attacks)+i])
		}
	}
}
