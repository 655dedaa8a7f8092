package ansible

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// TestPlaybookCollectsLocalhost runs collect.yml with Debian's ansible-core
// against inventory hosts on this machine: "good" is collected, "broken"
// runs kbcollect with a flag it rejects and must be listed, not fatal, and
// "other" is left out by --limit, so one run shows both that a failing host
// does not fail the run and that --limit narrows it (each run of the
// playbook costs some fifteen CPU-seconds of Python). CI installs
// ansible-core and sets ROCEKB_REQUIRE_ANSIBLE, so there the test cannot
// skip.
func TestPlaybookCollectsLocalhost(t *testing.T) {
	playbook, err := exec.LookPath("ansible-playbook")
	if err != nil {
		if os.Getenv("ROCEKB_REQUIRE_ANSIBLE") != "" {
			t.Fatal("ansible-playbook not found, and ROCEKB_REQUIRE_ANSIBLE is set")
		}
		t.Skip("ansible-playbook not installed (apt-get install --no-install-recommends ansible-core)")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "kbcollect")
	// Built as the other tests build it, so it reuses their compiled
	// packages: what is tested is the playbook, not static linking, and
	// CGO_ENABLED=0 (the README's fleet build) would compile the standard
	// library and every dependency again on a fresh machine. Linked without
	// symbols and DWARF, which nothing here reads.
	if out, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "../../cmd/kbcollect").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	inv := filepath.Join(dir, "inventory.ini")
	py := "ansible_python_interpreter='{{ ansible_playbook_python }}'"
	os.WriteFile(inv, []byte(strings.Join([]string{
		"good ansible_connection=local " + py + ` kbcollect_args='["--no-tools"]'`,
		"broken ansible_connection=local " + py + ` kbcollect_args='["--no-such-flag"]'`,
		// Collectable, were it in the run.
		"other ansible_connection=local " + py + ` kbcollect_args='["--no-tools"]'`,
		"",
	}, "\n")), 0o644)
	records := filepath.Join(dir, "records")
	// The host's temporary folder is the test's own: other runs of this
	// test on the machine (other checkouts, other sessions) make and
	// remove their kbcollect.* folders in the shared one meanwhile.
	hostTmp := filepath.Join(dir, "host-tmp")
	if err := os.Mkdir(hostTmp, 0o700); err != nil {
		t.Fatal(err)
	}
	made, err := os.Stat(hostTmp)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(playbook, "-i", inv, "collect.yml", "--limit", "good,broken",
		"-e", "kbcollect_binary="+bin, "-e", "kbcollect_records_dir="+records,
		"-e", "kbcollect_salt=fleet-s3cret")
	cmd.Env = append(os.Environ(), "ANSIBLE_NOCOLOR=1", "ANSIBLE_RETRY_FILES_ENABLED=0",
		"ANSIBLE_LOCAL_TEMP="+filepath.Join(dir, "ansible-tmp"), "ANSIBLE_HOST_KEY_CHECKING=0", "TMPDIR="+hostTmp)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		t.Fatalf("ansible-playbook: %v (a failing host must not fail the run)\n%s", err, buf.String())
	}
	out := buf.String()

	for _, want := range []string{"kbcollect: 1 of 2 hosts collected", "no record from broken", "no-such-flag"} {
		if !strings.Contains(out, want) {
			t.Errorf("playbook output lacks %q:\n%s", want, out)
		}
	}
	got, err := os.ReadFile(filepath.Join(records, "good.toml"))
	if err != nil {
		t.Fatalf("the record of host good was not fetched: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(records, "broken.toml")); err == nil {
		t.Error("host broken failed, yet a record was written for it")
	}
	h, problems := record.Decode("good.toml", got)
	if len(problems) > 0 || h == nil {
		t.Fatalf("fetched record does not decode: %v", problems)
	}
	if !h.Host.Redacted {
		t.Error("fetched record is not redacted")
	}
	// The fleet salt reached kbcollect: the host id is the token this salt
	// gives, the one a direct run with --salt gives.
	direct, err := exec.Command(bin, "--no-tools", "--quiet", "--salt", "fleet-s3cret").Output()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := record.Decode("direct.toml", direct)
	if want == nil || want.Host.ID != h.Host.ID {
		t.Errorf("host id %q, want the token of the fleet salt %q", h.Host.ID, want.Host.ID)
	}
	if strings.Contains(out, "fleet-s3cret") {
		t.Error("the salt appears in the playbook's output")
	}
	// Nothing is left behind on the host. The working folder was made
	// (and removed) in hostTmp, which changed its modification time.
	if st, err := os.Stat(hostTmp); err != nil || !st.ModTime().After(made.ModTime()) {
		t.Errorf("no working folder was made in the host's TMPDIR %s (%v)", hostTmp, err)
	}
	if left, _ := filepath.Glob(filepath.Join(hostTmp, "kbcollect.*")); len(left) > 0 {
		t.Errorf("working folders left on the host: %v", left)
	}

	// --limit narrows the run to the hosts named: other is neither
	// collected nor counted.
	if _, err := os.Stat(filepath.Join(records, "other.toml")); err == nil {
		t.Error("--limit good,broken wrote a record for host other")
	}
	if strings.Contains(out, "no record from other") {
		t.Errorf("--limit good,broken: host other is listed as missing:\n%s", out)
	}
}
