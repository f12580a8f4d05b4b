package vuln

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	src := fixtureSource(tb, file)
	release, err := solc.PragmaRelease(src)
	if err != nil {
		tb.Fatal(err)
	}
	name := filepath.Base(file)
	out := deploytest.Compile(tb, solc.Input{Compiler: release, Sources: map[string]string{name: src}})
	c, err := out.Contract(contract)
	if err != nil {
		tb.Fatal(err)
	}
	return out, c
}

// fixtureSource is testdata/<file>, or, for a fixed twin listed in
// testdata/twins.json, its vulnerable contract with the fix's edits applied
// in order: a twin differs from its contract only by the fix, so the fix is
// all it records. Each edit's old text must stand exactly once.
func fixtureSource(tb testing.TB, file string) string {
	tb.Helper()
	twins, err := readTwins()
	if err != nil {
		tb.Fatalf("testdata/twins.json: %v", err)
	}
	twin, ok := twins[file]
	if !ok {
		src, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			tb.Fatal(err)
		}
		return string(src)
	}
	src := fixtureSource(tb, twin.Of)
	for _, e := range twin.Edits {
		if n := strings.Count(src, e[0]); n != 1 {
			tb.Fatalf("%s: the edit of %q finds it %d times in %s, want once", file, e[0], n, twin.Of)
		}
		src = strings.Replace(src, e[0], e[1], 1)
	}
	return src
}

// twin is a fixed twin's vulnerable contract and the fix's edits.
type twin struct {
	Of    string      `json:"of"`
	Edits [][2]string `json:"edits"`
}

// readTwins reads testdata/twins.json once for the whole test binary.
var readTwins = sync.OnceValues(func() (map[string]twin, error) {
	raw, err := os.ReadFile("testdata/twins.json")
	if err != nil {
		return nil, err
	}
	var twins map[string]twin
	return twins, json.Unmarshal(raw, &twins)
})

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
