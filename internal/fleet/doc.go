// Package fleet summarises host diagnoses across a fleet: counts per
// adapter model, firmware, driver, stack and finding, and drift (one model
// on several firmware, driver or stack versions; mixed RDMA_CM RoCE modes).
package fleet
