package main

import (
	"strings"
	"testing"
)

// TestBuiltWithProfile: the binary (here the test binary of this main
// package, which `go test` builds as `go build` builds solbehave) is
// optimised for cmd/solbehave/default.pgo, and `solbehave version` says so.
// It fails when the profile is missing or the build ignores it
// (`-pgo=off`), which would cost O1 and the replays a tenth of their CPU.
func TestBuiltWithProfile(t *testing.T) {
	v := readVersion()
	if v.PGO != "default.pgo" {
		t.Fatalf("built with profile %q, want default.pgo (cmd/solbehave/default.pgo, refreshed by tools/pgo.sh)", v.PGO)
	}
	if text := v.Text(); !strings.Contains(text, "pgo profile:  default.pgo\n") {
		t.Errorf("version text does not name the profile:\n%s", text)
	}
}
