package diagnose

import "strings"

// SameOnCard groups findings, in their order, so that the same finding on
// every function of one card is one group: same check and severity, same
// message once the function's own address is taken out, functions of one
// PCI slot. A group keeps the position of its first finding. The terminal
// report and the host page both show a group once, "also on" the others.
func SameOnCard(fs []Finding) [][]Finding {
	var out [][]Finding
	at := map[string]int{}
	for _, f := range fs {
		k := cardKey(f)
		if k != "" {
			if i, ok := at[k]; ok {
				out[i] = append(out[i], f)
				continue
			}
			at[k] = len(out)
		}
		out = append(out, []Finding{f})
	}
	return out
}

// cardKey is what two findings on functions of one card share when they
// are the same finding; "" for findings not on a PCI function.
func cardKey(f Finding) string {
	a := f.Adapter
	if len(a) < 12 || a[len(a)-2] != '.' {
		return ""
	}
	slot := a[:len(a)-2]
	msg := strings.ReplaceAll(f.Message, a, "<fn>")
	subj := strings.ReplaceAll(f.Subject, a, "<fn>")
	if subj == f.Subject && f.Subject != "host" {
		// subjects that are not the function itself (devices, ports)
		// differ by name; the message minus the subject must agree
		msg = strings.ReplaceAll(msg, f.Subject, "<subject>")
		subj = "<subject>"
	}
	return f.Check + "|" + string(f.Severity) + "|" + slot + "|" + subj + "|" + msg
}
