// Package need gives the literals a regular expression cannot match
// without, so that a line holding none of them is passed over without
// running the expression: most lines of a log or a paste match none of
// the patterns a classifier tries. A Dict finds all of a classifier's
// literals in one pass over a line, and Regexp.MatchHits reads that pass.
package need
