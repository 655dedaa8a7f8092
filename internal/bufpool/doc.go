// Package bufpool lends byte buffers to code that writes a text and then
// copies it out, and takes back only those that stayed small.
package bufpool
