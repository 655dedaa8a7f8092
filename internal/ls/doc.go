// Package ls parses the listings coreutils' ls prints of the RDMA folders a
// snapshot can hold only as a listing: `ls -l /dev/infiniband` (its
// character devices: uverbsN, rdma_cm, umadN, issmN) and `ls
// /sys/class/infiniband` (the RDMA devices this network namespace sees).
// It reads the short forms (`ls`, `ls -1`, `ls -F`), the long ones (`ls
// -l`, `-la`, `-alh`, `-n`; any --time-style, any locale's dates), several
// folders in one listing ("<path>:" headers) and ls's own errors ("ls:
// cannot access '<path>': No such file or directory").
package ls
