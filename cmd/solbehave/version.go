package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/buildinfo"
	"github.com/solbehave/solbehave/internal/solc"
)

// versionInfo is the build info and the compilers in the cache.
type versionInfo struct {
	buildinfo.Info
	Solc []string `json:"solc_cached"`
}

func readVersion() versionInfo { return versionInfo{Info: buildinfo.Read()} }

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
	fmt.Fprintf(&b, "pgo profile:  %s\n", cmp.Or(v.PGO, "none"))
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
		Short: "Print the module version, VCS revision and date, Go and go-ethereum versions, the optimisation profile, and the solc versions in the cache",
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
