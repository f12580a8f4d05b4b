package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/schemas"
)

// writeMetadata writes what dataset hosts read: CITATION.cff, .zenodo.json,
// datapackage.json (Frictionless, fields from schemas/) and LICENSE.
func (p *publisher) writeMetadata() error {
	v := readVersion()
	today := time.Now().UTC().Format("2006-01-02")
	var paperCFF []map[string]string
	for _, a := range paperAuthors {
		i := strings.LastIndex(a, " ")
		paperCFF = append(paperCFF, map[string]string{"given-names": a[:i], "family-names": a[i+1:]})
	}
	cff := map[string]any{
		"cff-version": "1.2.0", "message": "If you use this dataset, please cite it and the paper whose protocol it ran.",
		"type": "dataset", "title": releaseTitle, "version": v.Version, "date-released": today, "license": p.license,
		"authors":  []map[string]string{{"name": "solbehave contributors"}},
		"keywords": []string{"solidity", "smart contracts", "LLM code generation", "differential testing", "DCR graphs"},
		"references": []map[string]any{
			{"type": "software", "title": "solbehave", "version": v.Version, "commit": v.Revision, "url": toolURL,
				"authors": []map[string]string{{"name": "solbehave contributors"}}},
			{"type": "article", "title": paperTitle, "year": 2026, "url": paperURL, "authors": paperCFF},
		},
		"preferred-citation": map[string]any{"type": "article", "title": paperTitle, "year": 2026, "url": paperURL, "authors": paperCFF},
	}
	cffText, err := yaml.Marshal(cff)
	if err != nil {
		return err
	}
	var creators []map[string]string
	for _, a := range paperAuthors {
		creators = append(creators, map[string]string{"name": a})
	}
	zenodo := map[string]any{
		"title": releaseTitle, "upload_type": "dataset", "version": v.Version, "license": strings.ToLower(p.license),
		"description": "Outcomes of the SolBehave benchmark pipeline (solbehave " + v.Version + "): Parquet datasets, " +
			"the DuckDB views computing the tables of \"" + paperTitle + "\", provenance of every row. See README.md.",
		"creators": creators, "keywords": []string{"solidity", "smart contracts", "LLM", "benchmark", "differential testing"},
		"related_identifiers": []map[string]string{{"identifier": paperURL, "relation": "isSupplementTo", "scheme": "url"}},
		"publication_date":    today,
	}
	files := map[string]any{"CITATION.cff": string(cffText), ".zenodo.json": zenodo, "datapackage.json": p.datapackage(v.Version)}
	files["LICENSE"] = "Data: " + p.license + " (https://spdx.org/licenses/" + p.license + ".html), every dataset and the DCR graphs.\n\n" +
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
		if err := os.WriteFile(filepath.Join(p.out, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// datapackage is the Frictionless descriptor: one resource per dataset,
// fields from its schema doc (plus run_id, which a release adds).
func (p *publisher) datapackage(version string) map[string]any {
	var resources []map[string]any
	for _, d := range schemas.All() {
		fields := docFields(d.Doc)
		if !releaseOwn[d.Name] {
			fields = append(fields, map[string]string{"name": "run_id", "type": "string", "description": "the run that made the row (runs.run_id)"})
		}
		resources = append(resources, map[string]any{
			"name": d.Name, "path": filepathSlash(releaseFile(d.Name)), "format": "parquet",
			"mediatype": "application/vnd.apache.parquet", "description": views.DocSummary(d.Doc),
			"schema": map[string]any{"fields": fields},
		})
	}
	return map[string]any{
		"profile": "data-package", "name": "solbehave-release", "title": releaseTitle, "version": version,
		"licenses":  []map[string]string{{"name": p.license, "path": "https://spdx.org/licenses/" + p.license + ".html"}},
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
