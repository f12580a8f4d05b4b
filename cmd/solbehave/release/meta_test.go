package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile release metadata is refused before anything is written, each
// with a message naming the field and what is wrong; ordinary metadata
// passes.
func TestMetaRefusesHostileValues(t *testing.T) {
	good := func() Meta {
		return Meta{title: releaseTitle, creators: []string{"Lovelace, Ada"}, license: "CC-BY-4.0", version: "1.2.0"}
	}
	for _, tc := range []struct {
		name string
		edit func(*Meta)
		want string // "" = accepted
	}{
		{"plain", func(*Meta) {}, ""},
		{"expression", func(m *Meta) {
			m.license = "(MIT OR Apache-2.0) AND LicenseRef-lab-1 OR GPL-2.0+ WITH Classpath-exception-2.0"
		}, ""},
		{"path in an expression", func(m *Meta) { m.license = "MIT OR ../../evil" }, "not an SPDX licence expression"},
		{"absolute path", func(m *Meta) { m.license = "/home/me/bench" }, "not an SPDX licence expression"},
		{"dangling operator", func(m *Meta) { m.license = "MIT OR" }, "not an SPDX licence expression"},
		{"unbalanced", func(m *Meta) { m.license = "(MIT" }, "not an SPDX licence expression"},
		{"empty licence", func(m *Meta) { m.license = " " }, "not an SPDX licence expression"},
		{"markup", func(m *Meta) { m.license = "MIT<script>" }, "not an SPDX licence expression"},
		{"version with a slash", func(m *Meta) { m.version = "../1.0" }, "--release-version \"../1.0\" holds a path separator"},
		{"version with a backslash", func(m *Meta) { m.version = `1\0` }, "path separator"},
		{"creator with a newline", func(m *Meta) { m.creators = []string{"Ada\n# Injected heading"} }, "creator \"Ada\\n# Injected heading\" holds the invisible character U+000A"},
		{"creator with a bidi override", func(m *Meta) { m.creators = []string{"Ada \u202eevil"} }, "U+202E"},
		{"creator with an isolate", func(m *Meta) { m.creators = []string{"Ada \u2066x\u2069"} }, "U+2066"},
		{"creator with an escape", func(m *Meta) { m.creators = []string{"Ada\x1b[31m"} }, "U+001B"},
		{"title with a carriage return", func(m *Meta) { m.title = "T\rU" }, "--title"},
	} {
		m := good()
		tc.edit(&m)
		err := m.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: want an error with %q, got %v", tc.name, tc.want, err)
		}
	}
}

// An accepted licence names no path and holds nothing a URL or file name
// would need escaped.
func FuzzLicense(f *testing.F) {
	for _, s := range []string{"CC-BY-4.0", "MIT OR ../../evil", "(MIT AND CC0-1.0)", "GPL-2.0+ WITH X", "DocumentRef-a:LicenseRef-b", "MIT\nOR X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, license string) {
		if checkSPDX(license) != nil {
			return
		}
		if strings.Contains(license, "..") && strings.ContainsAny(license, `/\`) || strings.ContainsAny(license, "/\\<>\"'&%?#\x00\n") {
			t.Fatalf("accepted %q", license)
		}
	})
}

// TestEachLicenceOfAnExpressionIsLinked: `--license 'MIT OR Apache-2.0'`
// wrote one link, to a page that does not exist; each licence and exception
// of an expression has its own page, a LicenseRef none.
func TestEachLicenceOfAnExpressionIsLinked(t *testing.T) {
	for expr, want := range map[string]string{
		"CC-BY-4.0":         "https://spdx.org/licenses/CC-BY-4.0.html",
		"MIT OR Apache-2.0": "https://spdx.org/licenses/MIT.html https://spdx.org/licenses/Apache-2.0.html",
		"(MIT OR Apache-2.0) AND LicenseRef-lab-1 OR GPL-2.0+ WITH Classpath-exception-2.0 OR MIT": "https://spdx.org/licenses/MIT.html " +
			"https://spdx.org/licenses/Apache-2.0.html https://spdx.org/licenses/GPL-2.0.html https://spdx.org/licenses/Classpath-exception-2.0.html",
		"LicenseRef-lab-1": "",
	} {
		if got := strings.Join(spdxPages(expr), " "); got != want {
			t.Errorf("%s: pages %q, want %q", expr, got, want)
		}
	}
}

// TestPublishRefusesALinkedOut: `publish --out link` said "read link: is a
// directory"; it says links are not accepted, before anything is written.
func TestPublishRefusesALinkedOut(t *testing.T) {
	tmp := t.TempDir()
	target, link := filepath.Join(tmp, "target"), filepath.Join(tmp, "link")
	os.Mkdir(target, 0o755)
	os.Symlink(target, link)
	err := (&Publisher{Out: link}).Publish(t.Context())
	if err == nil || !strings.Contains(err.Error(), "links are not accepted") {
		t.Fatalf("--out a link: %v", err)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("the refused publish wrote %v", entries)
	}
}
