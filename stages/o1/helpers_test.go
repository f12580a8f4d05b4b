package o1

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
)

func TestMain(m *testing.M) { stagetest.Main(m) }

// loadDemo reads a demo contract by name.
func loadDemo(t testing.TB, name string) *deploy.Record {
	t.Helper()
	return stagetest.LoadRecords(t, stagetest.DemoCorpus, historyLimit, name)[0]
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
