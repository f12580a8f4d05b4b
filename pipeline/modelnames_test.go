package pipeline

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClaimModelNamesAcrossRuns: the pairs issue 58 found overwriting each
// other's files across two runs are refused when the second claims its
// name, and the refusal records nothing; a repeat of a name, ordinary names
// and a name freed by forget are accepted.
func TestClaimModelNamesAcrossRuns(t *testing.T) {
	for _, pair := range [][2]string{
		{`openai:m"q`, "openai:m'q"}, {"import:a+b", "import:a_b"}, {"openai:org/m", "openai:org_m"}, {"openai:a..b", "openai:a__b"},
	} {
		data := t.TempDir()
		if err := ClaimModelNames(data, []string{pair[0], "mutant", "reference", "openai:gpt-4o"}); err != nil {
			t.Fatalf("first run %s: %v", pair[0], err)
		}
		if err := ClaimModelNames(data, []string{pair[0]}); err != nil {
			t.Errorf("%s again: %v", pair[0], err)
		}
		err := ClaimModelNames(data, []string{"mutant", pair[1]})
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(pair[0])) {
			t.Errorf("%s after %s: err %v, want a refusal naming the first", pair[1], pair[0], err)
		}
		if names, _ := readModelNames(data); len(names) != 4 {
			t.Errorf("a refused claim changed the record: %v", names)
		}
		if err := releaseModelName(data, pair[0]); err != nil {
			t.Fatal(err)
		}
		if err := ClaimModelNames(data, []string{pair[1]}); err != nil {
			t.Errorf("%s after %s was forgotten: %v", pair[1], pair[0], err)
		}
	}
}

// TestClaimSeesUnitsFromBeforeTheRecord: a data folder whose units were
// written before model-names.json existed (or whose record was lost) still
// protects its models' folders: their manifests name them.
func TestClaimSeesUnitsFromBeforeTheRecord(t *testing.T) {
	env := testEnv(t, 1)
	if _, err := (&Runner{Env: env}).Run(context.Background(), &modelStage{models: []string{"import:a+b"}}); err != nil {
		t.Fatal(err)
	}
	os.Remove(modelNamesPath(env.Data))
	if err := ClaimModelNames(env.Data, []string{"import:a_b"}); err == nil {
		t.Fatal("import:a_b claimed the folder of import:a+b's units")
	}
	rm, err := PlanForget(env.Data, "import:a+b")
	if err != nil {
		t.Fatal(err)
	}
	if err := Forget(env.Data, rm); err != nil {
		t.Fatal(err)
	}
	if err := ClaimModelNames(env.Data, []string{"import:a_b"}); err != nil {
		t.Errorf("after forget: %v", err)
	}
}

// TestForgetFreesAClaimedNameWithoutUnits: a run that claimed a name and
// failed before its first unit leaves no unit to forget; forget still frees
// the name, or no model of that folder name could ever run.
func TestForgetFreesAClaimedNameWithoutUnits(t *testing.T) {
	data := t.TempDir()
	if err := ClaimModelNames(data, []string{"openai:org/m"}); err != nil {
		t.Fatal(err)
	}
	rm, err := PlanForget(data, "openai:org/m")
	if err != nil || rm.Empty() {
		t.Fatalf("forget of a claimed name: %+v, %v", rm, err)
	}
	if err := Forget(data, rm); err != nil {
		t.Fatal(err)
	}
	if err := ClaimModelNames(data, []string{"openai:org_m"}); err != nil {
		t.Errorf("after forget: %v", err)
	}
}

// FuzzModelNameClaims: whatever two names a pair of runs gives, the second
// is refused exactly when it is another name with the first's folder name.
func FuzzModelNameClaims(f *testing.F) {
	for _, pair := range [][2]string{{`openai:m"q`, "openai:m'q"}, {"import:a+b", "import:a_b"}, {"openai:org/m", "openai:org_m"},
		{"mutant", "reference"}, {"openai:gpt-4o", "openai:gpt-4o"}, {"openai:é", "openai:__"}, {"a..b", "a__b"}} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, first, second string) {
		data := t.TempDir()
		if err := ClaimModelNames(data, []string{first}); (err != nil) != !utf8.ValidString(first) {
			t.Fatalf("%q: %v", first, err)
		} else if err != nil {
			return
		}
		err := ClaimModelNames(data, []string{second})
		collide := first != second && ModelFolder(first) == ModelFolder(second)
		if collide != (err != nil) && utf8.ValidString(second) {
			t.Errorf("%q then %q (folders %q, %q): err %v", first, second, ModelFolder(first), ModelFolder(second), err)
		}
	})
}
