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
