// Package baseline provides the kernel-log classifier (dmesg.ParseLog) as
// it stood before its per-line literal gates were restructured for speed
// (issue 22, helper log14; copied from internal/dmesg at dfb2ee9), so that
// the tests of internal/dmesg can require the restructured ParseLog to
// give the same Log, byte for byte, on every capture and on fuzzed input.
//
// It is frozen: it is not the classifier, and nothing but those tests
// imports it. A change to internal/dmesg that is meant to change its
// answers makes the same change here, in the same commit, so the
// differential test keeps guarding the fast paths.
package baseline
