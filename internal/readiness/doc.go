// Package readiness answers "what breaks if we move the fleet to this
// target?": it judges every host's adapters and firmware against a target
// plan (a distro or kernel, a stack and its release, a firmware) with the
// verdict engine, and sorts hosts into ready, needs action, unknown and
// blocked.
package readiness
