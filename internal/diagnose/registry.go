package diagnose

import (
	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// Func is a check: it reads a host record and the matrix and never guesses.
type Func func(h *record.Host, m *matrix.Matrix) Result

// Check is one registered check: an id and question from internal/checkid,
// and the function that answers it.
type Check struct {
	ID    string
	Title string // the question the check answers
	Run   Func
	run   func(view) Result // Run, on a view the checks of a host share
}

// funcs binds each id of the check registry (internal/checkid) to its
// check, one file per check; TestRegistryComplete keeps the two in step.
var funcs = func() map[string]func(view) Result {
	m := map[string]func(view) Result{
		checkid.AdapterUnknown:          checkAdapterUnknown,
		checkid.DriverProbeFailed:       checkProbeFailed,
		checkid.DevlinkHealthError:      checkDevlinkHealth,
		checkid.EnicRDMAUnmatched:       checkEnicRDMA,
		checkid.FWBelowMin:              checkFirmwareMin,
		checkid.FWDriverMismatch:        checkFirmwareDriver,
		checkid.FWUpdatePending:         checkFirmwarePending,
		checkid.GIDLinkLocalOnly:        checkGIDLinkLocal,
		checkid.GIDNoRoCEv2:             checkGIDv2,
		checkid.GIDTableEmpty:           checkGIDEmpty,
		checkid.KernelTooOld:            checkKernel,
		checkid.LinkTypeInfiniBand:      checkLinkTypeIB,
		checkid.ModuleNotLoaded:         checkModules,
		checkid.ModuleBlocked:           checkModuleBlocked,
		checkid.ModuleNotBuilt:          checkModuleNotBuilt,
		checkid.MSIXDisabled:            checkMSIXDisabled,
		checkid.MSIXTooFew:              checkMSIXFew,
		checkid.NoActivePort:            checkActivePort,
		checkid.RoCEModeV1:              checkRoCEMode,
		checkid.RXEWithHardware:         checkRXE,
		checkid.StackMixed:              checkStackMixed,
		checkid.StackRelease:            checkStackRelease,
		checkid.BoundToVFIO:             checkBoundToVFIO,
		checkid.FWFlashFailed:           checkFlashFailed,
		checkid.FWMismatch:              checkFirmwareMismatch,
		checkid.NoRDMADevice:            checkNoRDMADevice,
		checkid.PCIeDegraded:            checkPCIeDegraded,
		checkid.PortDown:                checkPortDown,
		checkid.ProviderMissing:         checkProviderMissing,
		checkid.UserspaceNoDevice:       checkUserspaceNoDevice,
		checkid.RoCEModeNotSet:          checkRoCEModeNotSet,
		checkid.RDMADeviceNotAccessible: checkDeviceAccess,
		checkid.RXEInUse:                checkRXEInUse,
	}
	// The kernel log checks are rows of one table (logChecks).
	for id := range logChecks {
		m[id] = logCheck(id)
	}
	return m
}()

// CheckIDs lists every registered check id, sorted.
func CheckIDs() []string { return checkid.IDs() }

// Checks returns the registered checks, sorted by id.
func Checks() []Check { return append([]Check(nil), checks...) }

// checks is the registry in checkid order, built once: Lookup runs for
// every finding of every host.
var checks = func() []Check {
	var out []Check
	for _, c := range checkid.All() {
		if run, ok := funcs[c.ID]; ok {
			out = append(out, Check{ID: c.ID, Title: c.Title, run: run,
				Run: func(h *record.Host, m *matrix.Matrix) Result { return run(newView(h, m)) }})
		}
	}
	return out
}()

// Lookup returns the check with the given id.
func Lookup(id string) (Check, bool) {
	for _, c := range checks {
		if c.ID == id {
			return c, true
		}
	}
	return Check{}, false
}
