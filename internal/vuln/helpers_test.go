package vuln

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
)

func TestMain(m *testing.M) { deploytest.Main(m) }

// deployTestdata compiles testdata/<file> with the newest release its
// pragma admits and deploys its last contract as the stage deploys a
// standalone file.
func deployTestdata(tb testing.TB, file, contract string) Target {
	tb.Helper()
	out, c := compileFixture(tb, file, contract)
	t, err := DeployStandalone(out, c, BlockFor(out.Release.Version))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// compileFixture compiles testdata/<file> with the newest release its
// pragma admits and returns the output and the named contract.
func compileFixture(tb testing.TB, file, contract string) (*solc.Output, *solc.Contract) {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		tb.Fatal(err)
	}
	release, err := solc.PragmaRelease(string(src))
	if err != nil {
		tb.Fatal(err)
	}
	name := filepath.Base(file)
	out := deploytest.Compile(tb, solc.Input{Compiler: release, Sources: map[string]string{name: string(src)}})
	c, err := out.Contract(contract)
	if err != nil {
		tb.Fatal(err)
	}
	return out, c
}

// testConfig is the stage's default budget (a few hundred milliseconds on
// the test contracts) with a fixed seed, under the extended profile (the
// tests of cross-function reentrancy, guard waits and campaigns need it;
// profile_test.go tests the saefuzz profile).
func testConfig(seed int64) Config {
	c := DefaultConfig()
	c.Seed, c.Profile = seed, ProfileExtended
	return c
}

func findingOf(r *Report, class Class) *Finding {
	for i := range r.Findings {
		if r.Findings[i].Class == class {
			return &r.Findings[i]
		}
	}
	return nil
}
