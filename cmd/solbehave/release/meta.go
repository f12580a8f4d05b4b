package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/solbehave/solbehave/internal/buildinfo"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/schemas"
)

// Meta is what a release says of itself: its title, its creators
// (whoever publishes the run, never assumed), its version and the data's
// licence. Each is a publish flag and a key of solbehave.toml.
type Meta struct {
	title, version, license string
	creators                []string // "Family, Given" or a name, each
}

// bind defines the flags (publish's, and the configuration's key space).
func (m *Meta) Bind(f *pflag.FlagSet) {
	f.StringVar(&m.title, "title", releaseTitle, "the release's title")
	f.StringArrayVar(&m.creators, "creators", nil, `the release's creators, "Family, Given" (or an organisation's name), `+
		"one per flag or a list in solbehave.toml; required: whoever publishes the data is its creator")
	f.StringVar(&m.version, "release-version", "", "the release's version (default: the solbehave version that publishes)")
	f.StringVar(&m.license, "license", "CC-BY-4.0", "SPDX licence of the data (code derived from verified sources keeps its own; see the files dataset)")
}

// check refuses a release whose creators are not given: the paper's
// authors did not make this run, and a placeholder is no one.
func (m *Meta) Check() error {
	var given []string
	for _, c := range m.creators {
		if c = strings.TrimSpace(c); c != "" {
			given = append(given, c)
		}
	}
	if len(given) == 0 {
		return fmt.Errorf("publish: no creators given: whoever publishes a dataset is its creator, and publish writes no " +
			"creator it was not told (the paper's authors stay the preferred citation); give --creators \"Family, Given\" " +
			"(once per creator) or creators = [\"Family, Given\"] in solbehave.toml")
	}
	m.creators = given
	if strings.TrimSpace(m.title) == "" {
		return fmt.Errorf("publish: --title is empty")
	}
	// The README prints title and creators raw, and a licence and version
	// name files and URLs: each is checked before anything is written.
	for _, c := range m.creators {
		if err := printable("creator", c); err != nil {
			return err
		}
	}
	if err := printable("--title", m.title); err != nil {
		return err
	}
	if err := printable("--release-version", m.version); err != nil {
		return err
	}
	if strings.ContainsAny(m.version, `/\`) {
		return fmt.Errorf("publish: --release-version %q holds a path separator; give a version such as 1.2.0", m.version)
	}
	return checkSPDX(m.license)
}

// printable refuses control characters (newlines included) and the
// bidirectional marks that make a text read otherwise than it is stored.
func printable(what, s string) error {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return fmt.Errorf("publish: %s %q holds the invisible character %U (a control character, newline or "+
				"bidirectional mark); give the text without it", what, s, r)
		}
	}
	return nil
}

// spdxToken splits an SPDX licence expression; spdxID is one licence
// identifier (or LicenseRef, optionally with a DocumentRef), "+" allowed.
var (
	spdxToken = regexp.MustCompile(`[()]|[^\s()]+`)
	spdxID    = regexp.MustCompile(`^(?:DocumentRef-[A-Za-z0-9.-]+:)?[A-Za-z0-9][A-Za-z0-9.-]*\+?$`)
)

// checkSPDX refuses a --license that is no SPDX licence expression:
// identifiers joined by AND, OR and WITH, with parentheses.
func checkSPDX(expr string) error {
	if err := printable("--license", expr); err != nil {
		return err
	}
	depth, wantID := 0, true
	ok := strings.TrimSpace(expr) != ""
	for _, tok := range spdxToken.FindAllString(expr, -1) {
		isOp := tok == "AND" || tok == "OR" || tok == "WITH"
		switch {
		case !ok:
		case tok == "(" && wantID:
			depth++
		case tok == ")" && !wantID && depth > 0:
			depth--
		case isOp && !wantID:
			wantID = true
		case wantID && !isOp && spdxID.MatchString(tok):
			wantID = false
		default:
			ok = false
		}
	}
	if !ok || wantID || depth != 0 {
		return fmt.Errorf("publish: --license %q is not an SPDX licence expression: give identifiers such as "+
			"CC-BY-4.0 or MIT (https://spdx.org/licenses/), joined by AND, OR or WITH", expr)
	}
	return nil
}

// spdxPages are the SPDX list's pages of the licences and exceptions of
// expr (checked by checkSPDX), each once: `MIT OR Apache-2.0` has no page
// of its own. A LicenseRef (the publisher's own licence) is on none; `+`
// (or later) reads the page of the version it follows.
func spdxPages(expr string) []string {
	var pages []string
	for _, tok := range spdxToken.FindAllString(expr, -1) {
		if tok == "(" || tok == ")" || tok == "AND" || tok == "OR" || tok == "WITH" || strings.Contains(tok, "LicenseRef-") {
			continue
		}
		page := "https://spdx.org/licenses/" + strings.TrimSuffix(tok, "+") + ".html"
		if !slices.Contains(pages, page) {
			pages = append(pages, page)
		}
	}
	return pages
}

// licenses is datapackage.json's list: each licence of the expression with
// its page (Frictionless takes a list, not an expression).
func (p *Publisher) licenses() []map[string]string {
	var out []map[string]string
	for _, page := range spdxPages(p.Meta.license) {
		l := map[string]string{"name": strings.TrimSuffix(path.Base(page), ".html"), "path": page}
		if l["name"] != p.Meta.license {
			l["title"] = p.Meta.license // the expression it is one licence of
		}
		out = append(out, l)
	}
	if len(out) == 0 { // LicenseRefs alone: named, with no page to link
		out = append(out, map[string]string{"name": p.Meta.license})
	}
	return out
}

// cffPerson is a creator as CITATION.cff writes a person (family and given
// names) or an entity (a name).
func cffPerson(c string) map[string]string {
	if family, given, ok := strings.Cut(c, ","); ok && strings.TrimSpace(given) != "" {
		return map[string]string{"family-names": strings.TrimSpace(family), "given-names": strings.TrimSpace(given)}
	}
	return map[string]string{"name": c}
}

// writeMetadata writes what dataset hosts read: CITATION.cff, .zenodo.json,
// datapackage.json (Frictionless, fields from schemas/) and LICENSE. The
// creators are the Publisher's; the paper is the preferred citation.
func (p *Publisher) writeMetadata() error {
	v := buildinfo.Read()
	version := p.Meta.version
	if version == "" {
		version = v.Version
	}
	today := time.Now().UTC().Format("2006-01-02")
	var paperCFF []map[string]string
	for _, a := range PaperAuthors {
		i := strings.LastIndex(a, " ")
		paperCFF = append(paperCFF, map[string]string{"given-names": a[:i], "family-names": a[i+1:]})
	}
	var authors []map[string]string
	var creators []map[string]string
	for _, c := range p.Meta.creators {
		authors = append(authors, cffPerson(c))
		creators = append(creators, map[string]string{"name": c})
	}
	cff := map[string]any{
		"cff-version": "1.2.0", "message": "If you use this dataset, please cite the paper whose protocol it ran (preferred) and the dataset.",
		"type": "dataset", "title": p.Meta.title, "version": version, "date-released": today, "license": p.Meta.license,
		"authors":  authors,
		"keywords": []string{"solidity", "smart contracts", "LLM code generation", "differential testing", "DCR graphs"},
		"references": []map[string]any{
			{"type": "software", "title": "solbehave", "version": v.Version, "commit": v.Revision, "url": toolURL,
				"authors": []map[string]string{{"name": "solbehave contributors"}}},
			{"type": "article", "title": PaperTitle, "year": 2026, "url": paperURL, "authors": paperCFF},
		},
		"preferred-citation": map[string]any{"type": "article", "title": PaperTitle, "year": 2026, "url": paperURL, "authors": paperCFF},
	}
	cffText, err := yaml.Marshal(cff)
	if err != nil {
		return err
	}
	zenodo := map[string]any{
		"title": p.Meta.title, "upload_type": "dataset", "version": version, "license": strings.ToLower(p.Meta.license),
		"description": "Outcomes of the SolBehave benchmark pipeline (solbehave " + v.Version + "): Parquet datasets, " +
			"the DuckDB views computing the tables of \"" + PaperTitle + "\", provenance of every row. See README.md.",
		"creators": creators, "keywords": []string{"solidity", "smart contracts", "LLM", "benchmark", "differential testing"},
		"related_identifiers": []map[string]string{{"identifier": paperURL, "relation": "isSupplementTo", "scheme": "url"}},
		"publication_date":    today,
	}
	files := map[string]any{"CITATION.cff": string(cffText), ".zenodo.json": zenodo, "datapackage.json": p.datapackage(version)}
	files["LICENSE"] = "Data: " + p.Meta.license + " (" + strings.Join(spdxPages(p.Meta.license), ", ") + "), every dataset and the DCR graphs.\n\n" +
		"Samples and skeletons in the files dataset are derived from verified Ethereum contract sources and keep\n" +
		"their own licence: the files.license column gives the SPDX identifier of the source's header, or\n" +
		"\"unknown\" where it has none. README.md lists them per contract.\n"
	for name, content := range files {
		var b []byte
		switch c := content.(type) {
		case string:
			b = []byte(c)
		default:
			if b, err = json.MarshalIndent(c, "", "  "); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(p.Out, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// datapackage is the Frictionless descriptor: one resource per dataset,
// fields from its schema doc (plus run_id, which a release adds).
func (p *Publisher) datapackage(version string) map[string]any {
	var resources []map[string]any
	for _, d := range schemas.All() {
		fields := docFields(d.Doc)
		if !releaseOwn[d.Name] {
			fields = append(fields, map[string]string{"name": "run_id", "type": "string", "description": "the run that made the row (runs.run_id)"})
		}
		resources = append(resources, map[string]any{
			"name": d.Name, "path": filepathSlash(File(d.Name)), "format": "parquet",
			"mediatype": "application/vnd.apache.parquet", "description": views.DocSummary(d.Doc),
			"schema": map[string]any{"fields": fields},
		})
	}
	return map[string]any{
		"profile": "data-package", "name": "solbehave-release", "title": p.Meta.title, "version": version,
		"licenses":  p.licenses(),
		"homepage":  toolURL,
		"resources": resources,
	}
}

var docFieldRe = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+) \\| (.*) \\|$")

// docFields reads a schema doc's column table as Frictionless fields.
func docFields(doc string) []map[string]string {
	var out []map[string]string
	for _, m := range docFieldRe.FindAllStringSubmatch(doc, -1) {
		out = append(out, map[string]string{"name": m[1], "type": frictionlessType(strings.TrimSpace(m[2])), "description": strings.TrimSpace(m[3])})
	}
	return out
}

func frictionlessType(duck string) string {
	switch {
	case strings.HasSuffix(duck, "[]"):
		return "array"
	case strings.HasPrefix(duck, "STRUCT"), strings.HasPrefix(duck, "MAP"):
		return "object"
	case duck == "BOOLEAN":
		return "boolean"
	case strings.Contains(duck, "INT"):
		return "integer"
	case duck == "DOUBLE", duck == "FLOAT", strings.HasPrefix(duck, "DECIMAL"):
		return "number"
	case strings.HasPrefix(duck, "TIMESTAMP"):
		return "datetime"
	}
	return "string"
}

func filepathSlash(p string) string { return filepath.ToSlash(p) }
