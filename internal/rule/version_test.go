package rule

import "testing"

func TestTrimKernel(t *testing.T) {
	for in, want := range map[string]string{
		"5.14.0-427.13.1.el9_4.x86_64": "5.14.0-427.13.1.el9_4.x86_64",
		"Linux node1 5.14.0-427.13.1.el9_4.x86_64 #1 SMP PREEMPT_DYNAMIC Wed Apr 10 10:29:16 EDT 2024 x86_64 x86_64 x86_64 GNU/Linux": "5.14.0-427.13.1.el9_4.x86_64",
		"Linux 6.8.0-45-generic x86_64":        "6.8.0-45-generic",
		"kernel-core-4.18.0-553.el8_10.x86_64": "4.18.0-553.el8_10.x86_64",
		"linux-image-6.1.0-18-amd64":           "6.1.0-18-amd64",
		"Linux host banana":                    "Linux host banana",
		"kernel-":                              "kernel-",
		// hostnamectl: https://github.com/xcat2/xcat-core/pull/7144
		"            Kernel: Linux 5.14.0-70.6.1.el9_0.ppc64le": "5.14.0-70.6.1.el9_0.ppc64le",
		// uname -rv: https://github.com/amzn/amzn-drivers/issues/308
		"5.15.0-2000-aws #2000 SMP Thu May 23 13:16:55 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux": "5.15.0-2000-aws",
		"banana #1": "banana #1",
	} {
		if got := TrimKernel(in); got != want {
			t.Errorf("TrimKernel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKernelBase: a release the distro grammar does not read is judged by
// its leading x.y[.z], as a distro's kernel when a release number follows
// it, and as a custom build (its local version the distro part) unless it
// is a linux-next build. 686-pae is Debian's default i386 flavour ("[i386] default to
// 686-pae", https://salsa.debian.org/kernel-team/linux/-/merge_requests/264/commits).
func TestKernelBase(t *testing.T) {
	for _, c := range []struct{ in, base, rel string }{
		{"6.8", "6.8", ""},
		{"5.14.0-427.13.1.el9_4.x86_64", "5.14.0", "427.13.1"},
		{"5.1.0-rc7-next-20190430+", "5.1.0", ""},
		{"4.19.0-25-686-pae", "4.19.0", "25"},
		{"6.1.0-18-686", "6.1.0", "18"},
		// Custom builds: the local version is their distro part.
		{"5.10.17-v8+", "5.10.17", "v8+"},
		{"4.4.302+", "4.4.302", "+"},
		{"6.1.55-fastswap", "6.1.55", "fastswap"},
		{"6.2.0-rc6-next-20230202", "6.2.0", ""},
	} {
		base, rel, ok := KernelBase(c.in)
		if !ok || base != c.base || rel != c.rel {
			t.Errorf("KernelBase(%q) = %q, %q, %v; want %q, %q", c.in, base, rel, ok, c.base, c.rel)
		}
	}
}
