// Package lines provides bounded line reading for the text parsers: a line
// longer than Max is cut, never buffered whole, so hostile input cannot make
// a parser allocate without limit. DropNote removes the "# note" a poster
// leaves after a value, and UTF8 reads text Windows saved as UTF-16 as
// UTF-8.
package lines
