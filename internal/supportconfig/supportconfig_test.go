package supportconfig

import (
	"os"
	"strings"
	"testing"
)

// Real sections (a label right after the header, no blank line) and the
// layouts bin/supportconfig writes: log_entry's blank line, a file that
// was not found, a log's "- Last N Lines", a command not found, headers
// other than Command, Configuration File and Log File.
func TestParse(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../testdata/captures/supportconfig/ps-command-section-no-blank-after-label-truncated.txt")
	if err != nil {
		t.Fatal(err)
	}
	secs, _ := Parse(strings.NewReader(string(b)))
	if len(secs) != 1 || secs[0].Kind != Command || CommandLine(secs[0].Label) != "ps axwwo user,pid,ppid,%cpu,%mem,vsz,rss,stat,time,cmd" ||
		!strings.HasPrefix(secs[0].Body, "USER ") || secs[0].Line != 3 {
		t.Errorf("%+v", secs)
	}
	in := "header\n#==[ Note ]=========================================#\n# /etc/supportconfig.conf\nnote\n" +
		"#==[ Command ]======================================#\n# /sbin/lsmod | sort\nmlx5_core 1 0\n\n" +
		"#==[ Configuration File ]===========================#\n# /etc/os-release\nID=sles\n\n" +
		"#==[ Configuration File ]===========================#\n# /etc/SuSE-release - File not found\n\n" +
		"#==[ Log File ]=====================================#\n# /var/log/messages - Last 5000 Lines\nkernel: x\n" +
		"#==[ Command ]======================================#\n# /usr/bin/ibstat\nERROR: Command not found or not executable\n" +
		"#==[ Command ]======================================#\n# /usr/bin/sort /proc/modules\nmlx5_core 1 0 - Live\n" +
		"#==[ Command ]======================================#\n# /usr/bin/dmesg -T | grep taint\n"
	secs, _ = Parse(strings.NewReader(in))
	var got []string
	for _, s := range secs {
		p := s.FilePath()
		if p == "" && s.Kind == Command {
			p = "cmd:" + CommandLine(s.Label)
		}
		if s.Missing {
			p += " (missing)"
		}
		got = append(got, s.Kind+" "+p)
	}
	want := []string{"other ", "command cmd:lsmod", "conf etc/os-release", "conf etc/SuSE-release (missing)", "log var/log/messages",
		"command cmd:ibstat (missing)", "command proc/modules", "command cmd:dmesg -T | grep taint"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if secs[1].Body != "mlx5_core 1 0\n\n" {
		t.Errorf("body %q", secs[1].Body)
	}
}
