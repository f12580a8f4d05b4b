package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/solc"
)

// versionInfo is what a binary knows of its own build.
type versionInfo struct {
	Module   string   `json:"module"`
	Version  string   `json:"version"`
	Revision string   `json:"vcs_revision"`
	Time     string   `json:"vcs_time"`
	Modified bool     `json:"vcs_modified"`
	Go       string   `json:"go"`
	Geth     string   `json:"go_ethereum"`
	Solc     []string `json:"solc_cached"`
}

// readVersion reads the build info (module version, VCS stamp, the
// go-ethereum dependency); the solc list is filled by withSolc.
func readVersion() versionInfo {
	v := versionInfo{Module: "github.com/solbehave/solbehave", Version: "unknown", Go: runtime.Version()}
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
func (v versionInfo) Short() string {
	s := "solbehave " + v.Version
	if v.Revision != "" {
		s += " (" + shortRev(v.Revision)
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

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

func (v versionInfo) withSolc() versionInfo {
	v.Solc, _ = solc.Installed()
	return v
}

// Text is the full version: one line per component.
func (v versionInfo) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", v.Short())
	fmt.Fprintf(&b, "module:       %s %s\n", v.Module, v.Version)
	fmt.Fprintf(&b, "vcs revision: %s\n", orUnknown(v.Revision))
	fmt.Fprintf(&b, "vcs time:     %s\n", orUnknown(v.Time))
	fmt.Fprintf(&b, "vcs modified: %t\n", v.Modified)
	fmt.Fprintf(&b, "go:           %s\n", v.Go)
	fmt.Fprintf(&b, "go-ethereum:  %s\n", orUnknown(v.Geth))
	solcs := "none yet (installed from npm on first use)"
	if len(v.Solc) > 0 {
		solcs = fmt.Sprintf("%d: %s", len(v.Solc), strings.Join(v.Solc, " "))
	}
	fmt.Fprintf(&b, "solc cached:  %s\n", solcs)
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// newVersionCmd is `solbehave version`: the full version (`--version` prints the same).
func newVersionCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the module version, VCS revision and date, Go and go-ethereum versions, and the solc versions in the cache",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := readVersion().withSolc()
			if format == "json" {
				b, err := json.MarshalIndent(v, "", "  ")
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), string(b))
				return err
			}
			_, err := fmt.Fprint(cmd.OutOrStdout(), v.Text())
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	return cmd
}
