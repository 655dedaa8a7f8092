// Package treewalk answers a troubleshooting tree's questions from a host's
// diagnosis: nodes that name a check take their answer from the check's
// result, and the walk stops at the likely cause or at the first question
// the record cannot answer.
package treewalk
