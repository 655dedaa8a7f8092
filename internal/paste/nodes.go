package paste

import (
	"bytes"
	"sort"
	"strings"
)

// Nodes returns the nodes a parallel shell (pdsh, clush, xCAT's xdsh)
// named before the lines of a paste ("node1: hca_id:	mlx5_0"): a first
// word that is a name and a colon, on two lines or more, whose lines
// without it are the output of a tool the source table reads. A key of a
// tool's own output ("driver: mlx5_core" of ethtool -i) is no node: its
// lines without it say nothing a tool prints. The nodes are sorted.
func Nodes(text []byte) []string {
	byNode := map[string][]string{}
	for _, line := range strings.Split(string(text), "\n") {
		if node, rest, ok := nodeLine(line); ok {
			byNode[node] = append(byNode[node], rest)
		}
	}
	var nodes []string
	for node, rest := range byNode {
		if len(rest) >= 2 && sniffRule(strings.Join(rest, "\n")) >= 0 {
			nodes = append(nodes, node)
		}
	}
	sort.Strings(nodes)
	return nodes
}

// StripNode removes node's prefix from the lines it begins.
func StripNode(text []byte, node string) []byte {
	lines := bytes.Split(text, []byte("\n"))
	for i, l := range lines {
		if n, rest, ok := nodeLine(string(l)); ok && n == node {
			lines[i] = []byte(rest)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// nodeLine splits "node1: text" into the node and the text. The name is
// letters, digits, '-', '_' and '.', with a letter; "kernel:" (a journal
// without its stamps) and a command of the table ("lsmod:", as the Debian
// installer's report-hw labels its lines) are no node.
func nodeLine(line string) (node, rest string, ok bool) {
	i := strings.Index(line, ": ")
	if i <= 0 {
		return "", "", false
	}
	node, rest = line[:i], line[i+2:]
	letter := false
	for _, r := range node {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.':
		default:
			return "", "", false
		}
	}
	if !letter || node == "kernel" || binaries[node] {
		return "", "", false
	}
	return node, rest, true
}
