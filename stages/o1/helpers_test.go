package o1

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
)

// engines is shared by every test of the package: one set of compiler workers.
var engines = &pipeline.Engines{}

func TestMain(m *testing.M) { stagetest.Main(m, engines) }

const demoCorpus = "../../data/corpus/demo"

// figure1Withdraw is the regenerated withdraw of the paper's Figure 1.
const figure1Withdraw = `function withdraw(uint256 amount) public {
        if (!initialized) return;
        balance -= amount;
    }`

// loadDemo reads a demo contract by name.
func loadDemo(t testing.TB, name string) *deploy.Record {
	t.Helper()
	return stagetest.LoadRecords(t, demoCorpus, historyLimit, name)[0]
}

// compile compiles the record's source edited by edit (nil: unchanged) and
// stores the output, returning the artifact id.
func compile(t testing.TB, env *pipeline.Env, rec *deploy.Record, edit func(string) string) string {
	t.Helper()
	var files map[string]string
	if edit != nil {
		files = map[string]string{}
		for name, src := range rec.Files.Files {
			files[name] = edit(src)
			if files[name] == src {
				t.Fatal("the edit changed nothing")
			}
		}
	}
	id, _ := stagetest.Compile(t, env, rec, files)
	return id
}

// equivalentVariant compiles the original with one more public function at
// the end of the target contract (the file's last): the original's functions
// behave as before, but the code differs, so O1 fuzzes it (the original's own
// code is equivalent without a call).
func equivalentVariant(t testing.TB, env *pipeline.Env, rec *deploy.Record) string {
	t.Helper()
	return compile(t, env, rec, func(src string) string {
		i := strings.LastIndex(src, "}")
		return src[:i] + "    function solbehaveVariant() public pure returns (uint256) { return 7; }\n" + src[i:]
	})
}

// replaceFunction swaps the function whose header starts with header for body.
func replaceFunction(t testing.TB, src, header, body string) string {
	t.Helper()
	start := strings.Index(src, header)
	if start < 0 {
		t.Fatalf("no %q in the source", header)
	}
	depth := 0
	for i := strings.Index(src[start:], "{") + start; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[:start] + body + src[i+1:]
			}
		}
	}
	t.Fatalf("unbalanced braces after %q", header)
	return ""
}
