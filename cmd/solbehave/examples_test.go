package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
)

// example is one command line of a help text's examples.
type example struct {
	from   string   // the command whose help shows it
	args   []string // after "solbehave"
	saveTo string   // "> FILE": stdout goes there
}

// helpExamples collects every example line of every command's help.
func helpExamples(t *testing.T) []example {
	t.Helper()
	var out []example
	walk(newRoot(), func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			words, err := shellWords(line)
			if err != nil {
				t.Errorf("%s: example %q: %v", c.CommandPath(), line, err)
				continue
			}
			if len(words) == 0 {
				continue
			}
			if words[0] != "solbehave" {
				t.Errorf("%s: example %q does not start with solbehave", c.CommandPath(), line)
				continue
			}
			ex := example{from: c.CommandPath(), args: words[1:]}
			if n := len(ex.args); n >= 2 && ex.args[n-2] == ">" {
				ex.saveTo, ex.args = ex.args[n-1], ex.args[:n-2]
			}
			out = append(out, ex)
		}
	})
	return out
}

// shellWords splits a line as sh would for the examples' needs: blanks
// separate words, quotes group them, # starts a comment.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words, nil
		case unicode.IsSpace(r):
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, strconv.ErrSyntax
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestHelpExamplesParse: every example of every help names a command, flags
// it has and the arguments it takes.
func TestHelpExamplesParse(t *testing.T) {
	for _, ex := range helpExamples(t) {
		c, rest, err := newRoot().Find(ex.args)
		if err != nil {
			t.Errorf("%s: example %q: %v", ex.from, ex.args, err)
			continue
		}
		if err := c.ParseFlags(rest); err != nil {
			t.Errorf("%s: example %q: %v", ex.from, ex.args, err)
			continue
		}
		if c.Args != nil {
			if err := c.Args(c, c.Flags().Args()); err != nil {
				t.Errorf("%s: example %q: %v", ex.from, ex.args, err)
			}
		}
	}
}

// TestSQLAndExportExamplesReturnRows runs every sql and export example of
// every help, as written, in a folder whose ./data is a demo warehouse: each
// must succeed and yield rows (an example that writes an empty file teaches
// nothing).
func TestSQLAndExportExamplesReturnRows(t *testing.T) {
	data := synthData(t, 3)
	t.Chdir(filepath.Dir(data))
	ran := 0
	for _, ex := range helpExamples(t) {
		if len(ex.args) == 0 || (ex.args[0] != "sql" && ex.args[0] != "export") {
			continue
		}
		ran++
		out, err := solbehave(t, ex.args...)
		if err != nil {
			t.Errorf("%s: example %q: %v\n%s", ex.from, ex.args, err, out)
			continue
		}
		if ex.saveTo != "" {
			if err := os.WriteFile(ex.saveTo, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			out = "wrote " + ex.saveTo
		}
		if n := exampleRows(t, ex, out); n == 0 {
			t.Errorf("%s: example %q returns no rows:\n%s", ex.from, ex.args, out)
		}
	}
	if ran == 0 {
		t.Fatal("no sql or export example found")
	}
}

var wroteRe = regexp.MustCompile(`(?m)^wrote (\S+)$`)

// exampleRows counts the rows an example produced: in the file it wrote
// (read back through DuckDB, or arrow-go), else in what it printed.
func exampleRows(t *testing.T, ex example, out string) int {
	t.Helper()
	format := flagValue(ex.args, "--format")
	if m := wroteRe.FindStringSubmatch(out); m != nil {
		path := m[1]
		switch {
		case strings.HasSuffix(path, ".arrow"):
			_, rows := readArrow(t, path)
			return len(rows)
		case strings.HasSuffix(path, ".parquet"):
			return countRows(t, "SELECT count(*) FROM read_parquet('"+path+"')")
		default:
			return countRows(t, "SELECT count(*) FROM read_csv('"+path+"')")
		}
	}
	switch format {
	case "", "table":
		m := regexp.MustCompile(`\((\d+) rows?\)\s*$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("example %q: no row count in its table:\n%s", ex.args, out)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	case "csv":
		return len(strings.Split(strings.TrimSpace(out), "\n")) - 1
	default:
		return len(strings.Split(strings.TrimSpace(out), "\n"))
	}
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func countRows(t *testing.T, query string) int {
	t.Helper()
	out, err := solbehave(t, "sql", "--data", "data", "--format", "csv", query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	n, err := strconv.Atoi(lines[len(lines)-1])
	if err != nil {
		t.Fatalf("%s: %q", query, out)
	}
	return n
}

// TestRunSummaryReadsAsTables: every table of the run summary has a title
// line, and shares print as percentages, no float with a dozen digits.
func TestRunSummaryReadsAsTables(t *testing.T) {
	data := synthData(t, 3)
	root, g := newRootWithGlobals()
	var out strings.Builder
	root.SetOut(&out)
	root.SetContext(context.Background())
	g.data = data
	if err := printSummary(root, g, []string{"verify", "compile", "o1", "o2", "vuln"}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	blocks := strings.Split(strings.TrimSpace(text), "\n\n")
	if len(blocks) < 3 {
		t.Fatalf("want several tables:\n%s", text)
	}
	for _, b := range blocks {
		lines := strings.Split(b, "\n")
		if len(lines) < 4 || strings.Trim(lines[2], "- ") != "" {
			t.Errorf("table without a title line (its second line must be the header, its third the rule):\n%s", b)
		}
	}
	if m := regexp.MustCompile(`\d\.\d{5,}`).FindString(text); m != "" {
		t.Errorf("a float printed with all its digits (%s):\n%s", m, text)
	}
	for _, want := range []string{"mean_reproduced_rate", "compile_repaired_rate"} {
		line := grepLine(text, want)
		if line == "" {
			t.Errorf("summary lacks %s:\n%s", want, text)
		}
	}
	if !regexp.MustCompile(`\d+\.\d%`).MatchString(text) {
		t.Errorf("no share shown as a percentage:\n%s", text)
	}
}
