// Package dirtest copies and reads folder trees for tests: a knowledge base
// copied to edit, a built site read to compare.
package dirtest
