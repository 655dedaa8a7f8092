package paste_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/collect"
	"github.com/rocekb/rocekb/internal/paste"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// Real shell sessions that show the host's OS: "cat /etc/os-release" and
// "cat /etc/redhat-release" label their output with the file they read,
// and "uname -a" gives the kernel, so the record names the distribution
// and release whatever the prompt looks like.
func TestPastedOSReleases(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"rhel79-os-release-cloud-user-prompt-truncated.txt": "rhel 7.9 \"Red Hat Enterprise Linux Server 7.9 (Maipo)\" from etc/os-release; kernel \"\"",
		"ubuntu1204-uname-a-os-release-dollar-prompt.txt":   "ubuntu 12.04 \"Ubuntu precise (12.04.5 LTS)\" from etc/os-release; kernel \"3.13.0-32-generic\"",
		"centos74-uname-a-redhat-release-root-prompt.txt":   "centos 7.4.1708 \"CentOS Linux release 7.4.1708 (Core)\" from etc/redhat-release; kernel \"3.10.0-693.el7.x86_64\"",
		"centos63-redhat-release-then-uname-a.txt":          "centos 6.3 \"CentOS release 6.3 (Final)\" from etc/redhat-release; kernel \"2.6.32-279.el6.x86_64\"",
		"rhel70-redhat-release-server.txt":                  "rhel 7.0 \"Red Hat Enterprise Linux Server release 7.0 (Maipo)\" from etc/redhat-release; kernel \"\"",
	} {
		secs, _, err := paste.Split(bytes.NewReader(capturetest.Read(t, "paste", name)))
		if err != nil {
			t.Fatal(err)
		}
		h, err := collect.Collect(snapshot.FromFS(paste.FS(secs), snapshot.KindCapture, name))
		if err != nil {
			t.Fatal(err)
		}
		from := ""
		for _, s := range h.Sources {
			if (s.ID == "etc/os-release" || s.ID == "etc/redhat-release") && s.Status == "ok" {
				from = s.ID
			}
		}
		got := fmt.Sprintf("%s %s %q from %s; kernel %q", h.Host.OS.ID, h.Host.OS.VersionID, h.Host.OS.PrettyName, from, h.Host.KernelRelease)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
}
