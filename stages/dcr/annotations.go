package dcr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/schemas"
)

// AnnotationFile is the format of data/annotations/dcr/<contract_id>.json:
// one human judgement per relation of a contract, named by relation type and
// event keys (`<function>.<branch>`, `fallback` / `receive` for the unnamed
// entry points), so it judges the graphs of every extractor.
//
//	{"contract_id": "GiftToken_0x…", "contract": "GiftToken", "annotator": "…",
//	 "protocol": "how the judgements were made",
//	 "relations": [{"type": "include", "source": "enableSale.success",
//	   "target": "buy.success", "verdict": "correct", "phase": "source",
//	   "note": "why"}]}
//
// verdict is `correct` (the relation holds in the contract: ground truth) or
// `incorrect` (an extracted relation the annotator rejects); phase is
// `source` (written from the source before any extractor ran) or `review`
// (added while reviewing an extractor's output).
type AnnotationFile struct {
	ContractID string              `json:"contract_id"`
	Contract   string              `json:"contract"`
	Annotator  string              `json:"annotator"`
	Protocol   string              `json:"protocol"`
	Relations  []AnnotatedRelation `json:"relations"`
}

// AnnotatedRelation is one judged relation.
type AnnotatedRelation struct {
	Type    string `json:"type"`
	Source  string `json:"source"`
	Target  string `json:"target"`
	Verdict string `json:"verdict"`
	Phase   string `json:"phase"`
	Note    string `json:"note"`
}

var eventKeyRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*\.[A-Za-z0-9_]+$`)

// maxAnnotations bounds an annotation file (the largest is a few KiB).
const maxAnnotations = 8 << 20

// ReadAnnotations reads and checks one annotation file; every problem is
// listed in the error.
func ReadAnnotations(path string) (*AnnotationFile, error) {
	raw, err := inputfile.Read(path, maxAnnotations)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var f AnnotationFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var probs []string
	if want := strings.TrimSuffix(filepath.Base(path), ".json"); f.ContractID != want {
		probs = append(probs, fmt.Sprintf("contract_id %q does not match the file name %q", f.ContractID, want))
	}
	if strings.TrimSpace(f.Annotator) == "" {
		probs = append(probs, "annotator is empty")
	}
	seen := map[string]bool{}
	for i, r := range f.Relations {
		probs = append(probs, relationProblems(i, r, seen)...)
	}
	if len(probs) > 0 {
		return nil, fmt.Errorf("%s: %s", path, strings.Join(probs, "; "))
	}
	return &f, nil
}

func relationProblems(i int, r AnnotatedRelation, seen map[string]bool) []string {
	var probs []string
	add := func(format string, args ...any) {
		probs = append(probs, fmt.Sprintf("relation %d: ", i)+fmt.Sprintf(format, args...))
	}
	switch r.Type {
	case "condition", "response", "include", "exclude":
	default:
		add("unknown type %q", r.Type)
	}
	for _, k := range []string{r.Source, r.Target} {
		if !eventKeyRe.MatchString(k) {
			add("event %q is not <function>.<branch>", k)
		}
	}
	if r.Verdict != "correct" && r.Verdict != "incorrect" {
		add("verdict %q is neither correct nor incorrect", r.Verdict)
	}
	if r.Phase != "source" && r.Phase != "review" {
		add("phase %q is neither source nor review", r.Phase)
	}
	key := r.Type + " " + r.Source + " " + r.Target
	if seen[key] {
		add("%s judged twice", key)
	}
	seen[key] = true
	return probs
}

// annotationRows turns a file into dataset rows.
func annotationRows(f *AnnotationFile, file string) []schemas.DCRAnnotation {
	rows := make([]schemas.DCRAnnotation, 0, len(f.Relations))
	for _, r := range f.Relations {
		rows = append(rows, schemas.DCRAnnotation{ContractID: f.ContractID, Annotator: f.Annotator, Type: r.Type,
			SourceKey: r.Source, TargetKey: r.Target, Verdict: r.Verdict, Phase: r.Phase, Note: r.Note, File: file})
	}
	return rows
}

// annotationPath is where a contract's annotations live ("" when none).
func annotationPath(dir, contractID string) (string, error) {
	if dir == "" {
		return "", nil
	}
	p := filepath.Join(dir, contractID+".json")
	switch _, err := os.Stat(p); {
	case err == nil:
		return p, nil
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	default:
		return "", err
	}
}
