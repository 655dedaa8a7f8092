// Package escape finds and escapes, eight bytes at a time, the bytes
// that encoding/json and encoding/csv escape or quote, for the writers
// that append JSON and CSV by hand (the exports and the static search
// index's shards), byte for byte as those packages write them. The
// exports' TestScansFindEveryByte holds the scans and JSONString to
// encoding/csv and encoding/json for a byte of every value at every place
// of a word, and search's TestShardIsEncodingJSON holds the shards.
package escape
