// Package buildinfo is what a solbehave binary knows of its own build
// (module version, VCS stamp, Go and go-ethereum versions): the version
// command, run records and release datasheets read it.
package buildinfo

import (
	"path/filepath"
	"runtime"
	"runtime/debug"
)

// Info is what a binary knows of its own build.
type Info struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"vcs_revision"`
	Time     string `json:"vcs_time"`
	Modified bool   `json:"vcs_modified"`
	Go       string `json:"go"`
	Geth     string `json:"go_ethereum"`
	// PGO is the CPU profile the compiler optimised the binary for (its file
	// name: cmd/solbehave/default.pgo, refreshed by tools/pgo.sh), empty
	// when it was built without one.
	PGO string `json:"pgo"`
}

// Read reads the build info: module version, VCS stamp, the go-ethereum
// dependency, the optimisation profile.
func Read() Info {
	v := Info{Module: "github.com/solbehave/solbehave", Version: "unknown", Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if info.Main.Path != "" {
		v.Module, v.Version = info.Main.Path, info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "-pgo":
			v.PGO = filepath.Base(s.Value)
		}
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/ethereum/go-ethereum" {
			v.Geth = d.Version
			if d.Replace != nil {
				v.Geth = d.Replace.Version
			}
		}
	}
	return v
}

// Short is the one-line version: module version, revision, date.
func (v Info) Short() string {
	s := "solbehave " + v.Version
	if v.Revision != "" {
		s += " (" + ShortRev(v.Revision)
		if v.Modified {
			s += ", modified"
		}
		if v.Time != "" {
			s += ", " + v.Time
		}
		s += ")"
	}
	return s
}

// ShortRev is a VCS revision's first 12 characters.
func ShortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}
