package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

const secret = "ES+SECRET/abc=42&x"

func TestEveryFormIsMasked(t *testing.T) {
	t.Setenv("ETHERSCAN_API_KEY", secret)
	b := []byte(secret)
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret), "ES%2bSECRET%2fabc%3d42%26x", // lower-case escapes, as some servers echo them
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)}
	for _, f := range forms {
		got := String("GET /api?apikey=" + f + "&x=1")
		if strings.Contains(got, f) || !strings.Contains(got, Mask) {
			t.Errorf("form %q not masked: %s", f, got)
		}
	}
	if String("nothing to hide") != "nothing to hide" {
		t.Error("a string without a secret changed")
	}
}

func TestShortValuesAreNotSecrets(t *testing.T) {
	t.Setenv("SOLBEHAVE_LLM_API_KEY", "abc")
	if got := String("abcabc"); got != "abcabc" {
		t.Fatalf("a 3-character key masked text: %q", got)
	}
}

func TestAddedSecretAndRows(t *testing.T) {
	Add("sk-added-secret-1")
	type row struct {
		A    string
		B    []string
		N    int
		Blob []byte
		in   string
	}
	rows := []row{{A: "x sk-added-secret-1", B: []string{"sk-added-secret-1"}, N: 3, Blob: []byte("sk-added-secret-1"), in: "sk-added-secret-1"}}
	Value(&rows)
	if rows[0].A != "x "+Mask || rows[0].B[0] != Mask || string(rows[0].Blob) != Mask || rows[0].N != 3 {
		t.Fatalf("row not masked: %+v", rows[0])
	}
}

func TestHandlerMasksLogRecords(t *testing.T) {
	t.Setenv("SOLBEHAVE_LLM_API_KEY", secret)
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil))).With("url", "http://x/?k="+url.QueryEscape(secret))
	log.Info("asked "+secret, "err", errors.New("failed: "+base64.StdEncoding.EncodeToString([]byte(secret))),
		slog.Group("g", "k", secret))
	if leaked := FormsIn(buf.String(), secret); len(leaked) > 0 {
		t.Fatalf("log holds %q: %s", leaked, buf.String())
	}
	if strings.Count(buf.String(), Mask) != 4 {
		t.Fatalf("want 4 masks in %s", buf.String())
	}
}

// FormsIn finds each form that a text holds, and only those.
func TestFormsInFindsEachForm(t *testing.T) {
	forms := Forms(secret)
	for _, f := range forms {
		if got := FormsIn("a "+f+" b", secret); !slices.Contains(got, f) {
			t.Errorf("form %q in the text, FormsIn says %q", f, got)
		}
	}
	if got := FormsIn(Mask+" "+strings.ToLower(secret[:3]), secret); len(got) != 0 {
		t.Errorf("no form in the text, FormsIn says %q", got)
	}
}

// TestJSONEscapedFormsAreMasked: a key echoed JSON-escaped, by any encoder
// (\u002b or \u002B, '\/', Go's \u0026) and in any mix, is masked.
func TestJSONEscapedFormsAreMasked(t *testing.T) {
	t.Setenv("ETHERSCAN_API_KEY", secret)
	for _, f := range []string{`ES\u002bSECRET\/abc\u003d42\u0026x`, `ES\u002BSECRET\u002Fabc\u003D42\u0026x`,
		`ES+SECRET\/abc=42\u0026x`, `ES+SECRET/abc=42\u0026x`, `ES\u002bSECRET/abc=42&x`} {
		got := String(`{"result":"` + f + `"}`)
		if strings.Contains(got, "SECRET") || !strings.Contains(got, Mask) {
			t.Errorf("form %q not masked: %s", f, got)
		}
	}
	for _, f := range Forms(secret) {
		if got := string(Bytes([]byte("x " + f + " y"))); got != "x "+Mask+" y" {
			t.Errorf("form %q: got %q", f, got)
		}
	}
}

// TestURLCredentialsAreSecrets: the password (or a lone user name: a token)
// and the credential parameters of a registered URL are masked wherever they
// appear; a user name beside a password, short or plain parameters are not; the user information of any URL is masked,
// registered or not, JSON-escaped slashes included.
func TestURLCredentialsAreSecrets(t *testing.T) {
	AddURL("http://llm-user:pa55-w0rd-x@models.example/v1?apikey=K3yK3yK3y7&chainid=1&module=contract&sess=" + strings.Repeat("z", 30))
	AddURL("https://ghp-t0ken-only@git.example/x")
	got := String("pa55-w0rd-x ghp-t0ken-only K3yK3yK3y7 " + strings.Repeat("z", 30) + " llm-user chainid=1 module=contract")
	if got != strings.Repeat(Mask+" ", 4)+"llm-user chainid=1 module=contract" {
		t.Errorf("got %q", got)
	}
	for in, want := range map[string]string{
		"GET https://bob:hunter2@example.com/x failed":  "GET https://" + Mask + "@example.com/x failed",
		`{"u":"https:\/\/bob:hunter2@example.com\/x"}`:  `{"u":"https:\/\/` + Mask + `@example.com\/x"}`,
		"mail bob@example.com, see https://example.com": "mail bob@example.com, see https://example.com",
	} {
		if got := String(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// Rows get URL credentials masked as log lines do, whether or not any
// secret was registered (the user information is a secret by its place).
func TestValueMasksURLCredentialsWithoutRegisteredSecrets(t *testing.T) {
	row := struct{ Endpoint string }{"https://alice:never-registered-pw@llm.example/v1"}
	Value(&row)
	if strings.Contains(row.Endpoint, "never-registered-pw") || row.Endpoint != String("https://alice:never-registered-pw@llm.example/v1") {
		t.Fatalf("row %q, want it masked as String masks it", row.Endpoint)
	}
}

// TestAuthorizationHeadersAreMasked: the Authorization headers a server
// sees, echoed back in any form: the Basic header net/http builds from a
// registered URL's user:password (and from a lone token user name), and a
// key's Bearer header.
func TestAuthorizationHeadersAreMasked(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	t.Setenv("SOLBEHAVE_LLM_API_KEY", "sk-bearer/key+9")
	for _, userInfo := range []string{"basic-user:basic-pa55", "t0ken-as-user"} {
		u := strings.Replace(srv.URL, "http://", "http://"+userInfo+"@", 1)
		AddURL(u)
		if _, err := http.Get(u); err != nil {
			t.Fatal(err)
		}
	}
	seen = append(seen, "Bearer sk-bearer/key+9")
	for _, header := range seen {
		_, credentials, _ := strings.Cut(header, " ")
		core := strings.TrimRight(credentials, "=")
		decoded, _ := base64.StdEncoding.DecodeString(credentials)
		b, _ := json.Marshal(header)
		for _, echo := range []string{header, string(b), url.QueryEscape(header), string(decoded) + " "} {
			if got := String("echo: " + echo); strings.Contains(got, core) || len(decoded) > 0 && strings.Contains(got, string(decoded)) {
				t.Errorf("%q echoed as %q: got %q", header, echo, got)
			}
		}
	}
	if len(seen) != 3 || !strings.HasPrefix(seen[0], "Basic ") || !strings.HasPrefix(seen[1], "Basic ") {
		t.Fatalf("the server saw %q, want two Basic headers: the test covers nothing", seen)
	}
}

// TestEncodingsAtEveryAlignment: a server that echoes the whole
// `Authorization: Bearer sk-…` header as base64 puts the key at an offset
// the plain base64 forms do not cover, and hex was not masked at all; each
// encoding of the header, alone and inside a longer text, is masked now.
func TestEncodingsAtEveryAlignment(t *testing.T) {
	const key = "sk-proj-Ab3+/x9Q_zz"
	m := newMasker([]string{key, "Bearer " + key})
	for _, text := range []string{"Bearer " + key, "Authorization: Bearer " + key, "x" + key + "\r\n", "xy" + key + "y", "Bearer " + key + "!"} {
		for name, enc := range texts(text) {
			if got := m.mask(enc); strings.Contains(got, enc[len(enc)/2-4:len(enc)/2+4]) {
				t.Errorf("%s of %q: the middle survives masking: %s", name, text, got)
			}
		}
	}
}

// texts are the encodings a server may echo a text in.
func texts(s string) map[string]string {
	b := []byte(s)
	return map[string]string{
		"base64": base64.StdEncoding.EncodeToString(b), "base64url": base64.RawURLEncoding.EncodeToString(b),
		"hex": hex.EncodeToString(b), "HEX": strings.ToUpper(hex.EncodeToString(b)),
		"query": url.QueryEscape(s), "path": url.PathEscape(s),
	}
}

// FuzzSecretInAnyEncoding: whatever surrounds a secret, every encoding of
// the text keeps none of the secret's whole base64 groups or hex digits.
func FuzzSecretInAnyEncoding(f *testing.F) {
	f.Add("sk-0123456789abcdef", "Bearer ", "\n")
	f.Add("ES+SECRET/abc=42&x", "x", "")
	f.Add("p@ss:w0rd/é", "Authorization: Basic ", "yz")
	f.Fuzz(func(t *testing.T, secret, before, after string) {
		if len(secret) < 12 || len(before) > 64 || len(after) > 64 {
			return
		}
		m := newMasker([]string{secret})
		text := []byte(before + secret + after)
		shift := len(before) % 3
		core := base64Core(base64.StdEncoding, []byte(secret), shift)
		if got := m.mask(base64.StdEncoding.EncodeToString(text)); strings.Contains(got, core) {
			t.Errorf("base64 at offset %d: core %q survives in %q", len(before), core, got)
		}
		if got := m.mask(hex.EncodeToString(text)); strings.Contains(got, hex.EncodeToString([]byte(secret))) {
			t.Errorf("hex: the secret survives in %q", got)
		}
	})
}
