package diagnose

import (
	"fmt"
	"strings"
)

// checkDevlinkHealth reads each adapter's devlink health reporters
// (`devlink health show`): the kernel's devlink health counts, for each
// reporter, the errors its driver reported and the recoveries that
// succeeded, and puts a reporter whose last error was not recovered in the
// "error" state (net/devlink/health.c, devlink_health_report).
//
// Severity: warning for a reporter in the error state (mlx5's fw_fatal: the
// firmware stopped and was not brought back; tx, rx: a queue was not
// recovered); info for errors a reporter recovered from.
func checkDevlinkHealth(v view) Result {
	var r Result
	seen := false
	for a := range v.adapters() {
		if len(a.HealthReporters) == 0 {
			continue
		}
		seen = true
		var bad, recovered []Evidence
		var badNames, recNames []string
		for _, rep := range a.HealthReporters {
			name := rep.Name
			if rep.Port != nil {
				name = fmt.Sprintf("%s (port %d)", rep.Name, *rep.Port)
			}
			errs, recs := count(rep.Errors), count(rep.Recovers)
			fact := adapterFact(a, "health_reporter", fmt.Sprintf("%s state %s error %d recover %d", name, rep.State, errs, recs))
			switch {
			case rep.State == "error":
				bad, badNames = append(bad, fact), append(badNames, name)
			case errs > 0:
				recovered, recNames = append(recovered, fact), append(recNames, name)
			}
		}
		if len(bad) > 0 {
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     "devlink health reporter " + strings.Join(badNames, ", ") + " is in the error state",
				Explanation: "The driver reported an error to devlink health and it was not recovered (no recovery ran, it failed, or it was held back by the reporter's grace period). What the reporter watches (the firmware, a send or receive queue, the link module) is still in that state.",
				Fix:         "Read the reporter's diagnosis (devlink health diagnose <handle> reporter <name>) and the kernel log at the time of the error; run the recovery (devlink health recover <handle> reporter <name>) or reload the driver, and send the diagnosis and a dump (devlink health dump show) to the adapter vendor if it recurs.",
				Evidence:    bad,
			})
		}
		if len(recovered) > 0 {
			r.Findings = append(r.Findings, Finding{
				Severity: Info, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     "devlink health reporter " + strings.Join(recNames, ", ") + " recovered from errors",
				Explanation: "The reporter is healthy now, but its driver reported errors since it loaded and devlink health recovered them: a fault that came and went.",
				Fix:         "Compare the counts over time; read the kernel log around the errors if they grow.",
				Evidence:    recovered,
			})
		}
		if len(bad) == 0 && len(recovered) == 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("%d devlink health reporters, all healthy with no errors", len(a.HealthReporters))})
		}
	}
	if !seen {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record has no devlink health reporter (devlink health show lists them)"})
	}
	return r
}

// count is a counter's value, 0 when absent.
func count(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
