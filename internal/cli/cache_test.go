package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestProgramID: the test binary's id is its Go build ID, as go tool
// buildid reads it.
func TestProgramID(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to read the build ID with")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goCmd, "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	if got, want := ProgramID(), "go build id "+strings.TrimSpace(string(out)); got != want {
		t.Errorf("ProgramID() = %q, want %q", got, want)
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	if d := CacheDir(); d != "" {
		t.Errorf("%s=off: CacheDir() = %q, want none", CacheEnv, d)
	}
	t.Setenv(CacheEnv, "/some/where")
	if d := CacheDir(); d != "/some/where" {
		t.Errorf("CacheDir() = %q, want /some/where", d)
	}
	os.Unsetenv(CacheEnv)
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if d, want := CacheDir(), filepath.Join("/xdg", "rocekb"); runtime.GOOS == "linux" && d != want {
		t.Errorf("CacheDir() = %q, want %q", d, want)
	}
}
