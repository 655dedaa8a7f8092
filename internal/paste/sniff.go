package paste

import (
	"regexp"
	"strings"
)

// A rule recognises the output of one command by what it says, for text a
// paste gives without its command line. The first rule that matches wins,
// so the specific ones come first.
type rule struct {
	line string // the table command it is filed as
	test func(text string) bool
}

var (
	reKernelLine = regexp.MustCompile(`(?m)^\s*(?:\d+[:\s]\s*)?\[\s*\d+\.\d+\]\s`)
	reJournal    = regexp.MustCompile(`(?m)^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ kernel: `)
	reLspci      = regexp.MustCompile(`(?m)^(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] \S`)
	// rdma link heads: "link dev/port", or "idx/port: dev/port:" before iproute2 v5.5.0.
	reRdmaLink = regexp.MustCompile(`(?m)^(?:link \S+/\d+|\d+/\d+: \S+/\d+:) (?:subnet_prefix|state) `)
	// show_gids' header; a cut paste may lack its n_gids_found= tail.
	reShowGIDs    = regexp.MustCompile(`(?m)^\s*DEV\s+PORT\s+INDEX\s+GID\s`)
	reMstTable    = regexp.MustCompile(`(?m)^DEVICE_TYPE\s+MST\s+PCI\s`)
	reProcVersion = regexp.MustCompile(`(?m)^Linux version \d+\.\d+\S* \(`)
	reDevlink     = regexp.MustCompile(`(?m)^(?:pci|auxiliary)/\S+:\s*$`)
	reOSRelease   = regexp.MustCompile(`(?m)^ID="?[\w.-]+"?\s*$`)
	reRedHat      = regexp.MustCompile(`(?m)^(?:Red Hat Enterprise Linux|CentOS|Rocky Linux|AlmaLinux|Oracle Linux|Scientific Linux)\b.* release \d`)
	reUnameA      = regexp.MustCompile(`(?m)^Linux \S+ \d+\.\d+\S* #\S+ .*(?:GNU/Linux|x86_64|aarch64|ppc64le|s390x)\s*$`)
)

var rules = []rule{
	{"mlxfwmanager --query", func(s string) bool {
		return strings.Contains(s, "Querying Mellanox devices firmware") || strings.Contains(s, "PSID:") && strings.Contains(s, "Device Type:")
	}},
	// flint's and mstflint's query; the device is not in the output.
	{"flint -d {device} q", func(s string) bool {
		return strings.Contains(s, "Image type:") && strings.Contains(s, "FW Version:")
	}},
	{"mst status -v", func(s string) bool {
		return strings.Contains(s, "MST modules:") || strings.Contains(s, "MST devices:") || reMstTable.MatchString(s)
	}},
	{"ibv_devinfo -v", func(s string) bool { return strings.Contains(s, "hca_id:") && strings.Contains(s, "max_qp:") }},
	{"ibv_devinfo", func(s string) bool {
		return strings.Contains(s, "hca_id:") || strings.Contains(s, "No IB devices found")
	}},
	{"ibv_devices", func(s string) bool { return strings.Contains(s, "node GUID") && strings.Contains(s, "device") }},
	{"ibstat", func(s string) bool { return strings.Contains(s, "CA '") && strings.Contains(s, "CA type:") }},
	{"ibstatus", func(s string) bool { return strings.Contains(s, "Infiniband device '") }},
	{"show_gids", func(s string) bool { return reShowGIDs.MatchString(s) }},
	{"ibdev2netdev", func(s string) bool { return strings.Contains(s, " ==> ") && strings.Contains(s, " port ") }},
	{"rdma link show", func(s string) bool { return reRdmaLink.MatchString(s) }},
	{"devlink dev info", func(s string) bool { return reDevlink.MatchString(s) && strings.Contains(s, "driver ") }},
	{"modinfo {module}", func(s string) bool {
		return strings.Contains(s, "filename:") && (strings.Contains(s, "srcversion:") || strings.Contains(s, "vermagic:"))
	}},
	{"lspci -nnvv", func(s string) bool { return reLspci.MatchString(s) }},
	{"ethtool -i {netdev}", func(s string) bool {
		return strings.Contains(s, "driver: ") && strings.Contains(s, "bus-info:")
	}},
	{"lsmod", func(s string) bool { return strings.Contains(s, "Module") && strings.Contains(s, "Used by") }},
	{"ofed_info -s", func(s string) bool {
		return strings.Contains(s, "MLNX_OFED_LINUX-") || strings.Contains(s, "OFED-internal-")
	}},
	{"journalctl -k --no-pager", func(s string) bool { return reJournal.MatchString(s) }},
	{"cat /etc/os-release", func(s string) bool { return reOSRelease.MatchString(s) && strings.Contains(s, "VERSION_ID=") }},
	{"cat /etc/redhat-release", func(s string) bool { return reRedHat.MatchString(s) }},
	{"cat /proc/version", func(s string) bool { return reProcVersion.MatchString(s) }},
	{"uname -a", func(s string) bool { return reUnameA.MatchString(s) }},
	{"dmesg", func(s string) bool { return reKernelLine.MatchString(s) }},
}

// sniff files loose lines by what they say, or returns nil.
func sniff(lines []string) *Section {
	text := strings.Join(lines, "\n")
	if strings.TrimSpace(text) == "" {
		return nil
	}
	for _, r := range rules {
		if r.test(text) {
			if f, ok := strings.CutPrefix(r.line, "cat /"); ok {
				return &Section{Command: r.line, Path: f}
			}
			words := strings.Fields(r.line)
			for i, w := range words {
				if strings.HasPrefix(w, "{") {
					words[i] = "pasted" // ethtool -i: the output does not name its netdev
				}
			}
			c, _, ok := match(words)
			if !ok {
				c, _ = globbed(words)
			}
			return &Section{Command: c.line, Path: c.path}
		}
	}
	return nil
}
