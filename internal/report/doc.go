// Package report builds what kbgen check found as one typed Output (host
// diagnoses with a fleet summary, explained findings, tree walks or a
// planned-configuration verdict) and writes it with one text renderer and
// one JSON encoder, both reading the same Output.
package report
