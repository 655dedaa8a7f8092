package ibverbs

import (
	"strings"
)

// Port states by number (include/rdma/ib_verbs.h enum ib_port_state), in the
// names sysfs prints after "N: ".
var portStates = map[string]string{
	"0": "NOP", "1": "DOWN", "2": "INIT", "3": "ARMED", "4": "ACTIVE", "5": "ACTIVE_DEFER",
}

// Physical states by number, in the names sysfs prints after "N: "
// (drivers/infiniband/core/sysfs.c phys_state_show).
var physStates = map[string]string{
	"1": "Sleep", "2": "Polling", "3": "Disabled", "4": "PortConfigurationTraining",
	"5": "LinkUp", "6": "LinkErrorRecovery", "7": "Phy Test",
}

// State normalises a port state as any tool prints it ("4: ACTIVE",
// "PORT_ACTIVE (4)", "Active", "ACTIVE", "Initializing") to the sysfs name:
// ACTIVE, DOWN, INIT, ARMED …. Unknown forms are returned trimmed.
//
// The name wins over the number; a number is used alone only when no name
// was printed, and a value whose name is not a port state is returned as
// written, so odd input stays visible.
func State(s string) string {
	s = strings.TrimSpace(s)
	w := strings.ToUpper(word(s))
	w = strings.TrimPrefix(w, "PORT_")
	switch w {
	case "INITIALIZING", "INITIALIZE":
		return "INIT"
	case "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER":
		return w
	}
	if n, ok := number(s); ok && isDigits(word(s)) {
		if v, ok := portStates[n]; ok {
			return v
		}
	}
	return s
}

// PhysState normalises a physical port state ("5: LinkUp", "LINK_UP (5)",
// "LinkUp", "DISABLED") to the sysfs name: LinkUp, Disabled, Polling ….
// As for State, the name wins and an unknown name is returned as written.
func PhysState(s string) string {
	s = strings.TrimSpace(s)
	key := strings.ToLower(strings.NewReplacer("_", "", " ", "").Replace(word(s)))
	for _, v := range physStates {
		if strings.ToLower(strings.ReplaceAll(v, " ", "")) == key {
			return v
		}
	}
	if n, ok := number(s); ok && isDigits(word(s)) {
		if v, ok := physStates[n]; ok {
			return v
		}
	}
	return s
}

// number finds the state number in "4: ACTIVE" or "PORT_ACTIVE (4)".
func number(s string) (string, bool) {
	if isDigits(s) {
		return s, true
	}
	if n, _, ok := strings.Cut(s, ": "); ok && isDigits(n) {
		return n, true
	}
	if i := strings.LastIndex(s, "("); i >= 0 && strings.HasSuffix(s, ")") {
		if n := s[i+1 : len(s)-1]; isDigits(n) {
			return n, true
		}
	}
	return "", false
}

// word strips a "N: " prefix and a " (N)" suffix.
func word(s string) string {
	if _, w, ok := strings.Cut(s, ": "); ok {
		s = w
	}
	if i := strings.LastIndex(s, " ("); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
