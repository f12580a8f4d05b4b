package release

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"go.yaml.in/yaml/v3"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/schemas"
)

// checkRelease checks a release's structure as the hosts would: the card's
// front matter, CITATION.cff and the JSON files parse and hold their
// required keys, every path they name exists, every dataset is a resource
// with its fields, and SHA256SUMS verifies.
func Check(dir string) error {
	var errs []error
	front, err := CardFront(filepath.Join(dir, "README.md"))
	errs = append(errs, err)
	errs = append(errs, requireKeys("README.md front matter", front, "license", "configs", "task_categories"))
	if configs, ok := front["configs"].([]any); ok {
		for _, c := range configs {
			cm, _ := c.(map[string]any)
			files, _ := cm["data_files"].([]any)
			for _, f := range files {
				fm, _ := f.(map[string]any)
				errs = append(errs, mustExist(dir, fmt.Sprint(fm["path"])))
			}
		}
	}
	var cff map[string]any
	errs = append(errs, ReadYAML(filepath.Join(dir, "CITATION.cff"), &cff))
	errs = append(errs, requireKeys("CITATION.cff", cff, "cff-version", "message", "title", "authors"))
	var zen map[string]any
	errs = append(errs, ReadJSON(filepath.Join(dir, ".zenodo.json"), &zen))
	errs = append(errs, requireKeys(".zenodo.json", zen, "title", "upload_type", "description", "creators", "license"))
	errs = append(errs, checkDatapackage(dir))
	errs = append(errs, verifyChecksums(dir))
	return errors.Join(errs...)
}

func checkDatapackage(dir string) error {
	var pkg struct {
		Licenses  []map[string]any `json:"licenses"`
		Resources []struct {
			Name, Path string
			Schema     struct{ Fields []struct{ Name, Type string } }
		} `json:"resources"`
	}
	if err := ReadJSON(filepath.Join(dir, "datapackage.json"), &pkg); err != nil {
		return err
	}
	var errs []error
	if len(pkg.Licenses) == 0 {
		errs = append(errs, fmt.Errorf("datapackage.json: no licenses"))
	}
	listed := map[string]int{}
	for _, r := range pkg.Resources {
		listed[r.Name] = len(r.Schema.Fields)
		errs = append(errs, mustExist(dir, r.Path))
	}
	for _, d := range schemas.All() {
		cols, _ := d.Columns()
		if n, ok := listed[d.Name]; !ok || n < len(cols) {
			errs = append(errs, fmt.Errorf("datapackage.json: dataset %s is not a resource with its %d fields", d.Name, len(cols)))
		}
	}
	return errors.Join(errs...)
}

// CardFront parses the YAML between the README's leading --- lines.
func CardFront(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rest, ok := bytes.CutPrefix(b, []byte("---\n"))
	end := bytes.Index(rest, []byte("\n---\n"))
	if !ok || end < 0 {
		return nil, fmt.Errorf("%s: no YAML front matter", path)
	}
	var front map[string]any
	if err := yaml.Unmarshal(rest[:end], &front); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", path, err)
	}
	return front, nil
}

// ReadYAML reads a YAML file into v.
func ReadYAML(path string, v any) error { return readInto(path, v, yaml.Unmarshal) }

// ReadJSON reads a JSON file into v.
func ReadJSON(path string, v any) error { return readInto(path, v, json.Unmarshal) }

// readInto decodes the file at path into v with unmarshal; an error names
// the file.
func readInto(path string, v any, unmarshal func([]byte, any) error) error {
	b, err := os.ReadFile(path)
	if err == nil {
		err = unmarshal(b, v)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return nil
}

func requireKeys(what string, m map[string]any, keys ...string) error {
	var missing []string
	for _, k := range keys {
		if v, ok := m[k]; !ok || v == nil || v == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s: missing %s", what, strings.Join(missing, ", "))
	}
	return nil
}

func mustExist(dir, rel string) error {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return fmt.Errorf("path %q is not inside the release", rel)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
		return fmt.Errorf("path %q named by the metadata does not exist", rel)
	}
	return nil
}

// verifyChecksums does what `sha256sum -c SHA256SUMS` does, and checks that
// it covers every file.
func verifyChecksums(dir string) error {
	f, err := os.Open(filepath.Join(dir, releaseSums))
	if err != nil {
		return err
	}
	defer f.Close()
	covered := map[string]bool{releaseSums: true}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, rel, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			return fmt.Errorf("%s: bad line %q", releaseSums, sc.Text())
		}
		got, err := inputfile.Digest(filepath.Join(dir, filepath.FromSlash(rel)), inputfile.Whole)
		if err != nil || got != sum {
			return fmt.Errorf("%s: %s does not verify", releaseSums, rel)
		}
		covered[rel] = true
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if !covered[filepath.ToSlash(rel)] {
			return fmt.Errorf("%s does not cover %s", releaseSums, rel)
		}
		return nil
	})
}

// localPaths are the folders of this machine a release must not name.
func (p *Publisher) localPaths() []string {
	var out []string
	add := func(path string) {
		if abs, err := filepath.Abs(path); err == nil && len(abs) > 1 {
			out = append(out, abs)
		}
	}
	add(p.Data)
	add(p.Corpus)
	add(p.Out)
	if wd, err := os.Getwd(); err == nil {
		add(wd)
	}
	if home, err := os.UserHomeDir(); err == nil {
		add(home)
	}
	add(os.TempDir())
	add(solc.CacheDir())
	return out
}

// checkNoLocalPaths looks for any of paths in every file of the release:
// text files as text, Parquet files decoded through DuckDB (every column
// of every row, as text), the DuckDB file through its views' SQL.
func CheckNoLocalPaths(ctx context.Context, dir string, paths []string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	var found []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		hits, err := localPathHits(ctx, db, path, paths)
		for _, h := range hits {
			found = append(found, rel+": "+h)
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(found) > 0 {
		return fmt.Errorf("publish: the release names folders of this machine:\n  %s", strings.Join(found, "\n  "))
	}
	return nil
}

func localPathHits(ctx context.Context, db *sql.DB, path string, paths []string) ([]string, error) {
	var hits []string
	switch filepath.Ext(path) {
	case ".parquet":
		for _, lp := range paths {
			var n int64
			q := fmt.Sprintf("SELECT count(*) FROM read_parquet(%s) t WHERE contains(CAST(t AS VARCHAR), %s)", views.QuoteString(path), views.QuoteString(lp))
			if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
				return nil, fmt.Errorf("decoding %s: %w", path, err)
			}
			if n > 0 {
				hits = append(hits, fmt.Sprintf("%d row(s) name %s", n, lp))
			}
		}
	case ".duckdb":
		q := fmt.Sprintf("ATTACH %s AS rel (READ_ONLY)", views.QuoteString(path))
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, err
		}
		defer db.ExecContext(ctx, "DETACH rel")
		for _, lp := range paths {
			var n int64
			q := fmt.Sprintf("SELECT count(*) FROM duckdb_views() WHERE database_name = 'rel' AND contains(sql, %s)", views.QuoteString(lp))
			if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
				return nil, err
			}
			if n > 0 {
				hits = append(hits, fmt.Sprintf("%d view(s) name %s", n, lp))
			}
		}
	default:
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		for _, lp := range paths {
			if bytes.Contains(b, []byte(lp)) {
				hits = append(hits, "names "+lp)
			}
		}
	}
	return hits, nil
}

// ArchivePath is DIR.tar.zst beside the release folder.
func ArchivePath(dir string) string { return filepath.Clean(dir) + ".tar.zst" }

// writeArchive packs the release into one .tar.zst: entries sorted, under
// the folder's name, with a fixed time, so the same release packs the same.
func writeArchive(dir, out string) error {
	var files []string
	if err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	}); err != nil {
		return err
	}
	sort.Strings(files)
	return atomicfile.Write(out, 0o644, func(f io.Writer) error {
		zw, err := zstd.NewWriter(f)
		if err != nil {
			return err
		}
		tw := tar.NewWriter(zw)
		base := filepath.Base(filepath.Clean(dir))
		for _, path := range files {
			if err := addToTar(tw, dir, base, path); err != nil {
				return err
			}
		}
		if err := tw.Close(); err != nil {
			return err
		}
		return zw.Close()
	})
}

func addToTar(tw *tar.Writer, dir, base, path string) error {
	rel, _ := filepath.Rel(dir, path)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: filepath.ToSlash(filepath.Join(base, rel)), Mode: 0o644, Size: int64(len(b)),
		ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = tw.Write(b)
	return err
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
