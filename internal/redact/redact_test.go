package redact

import (
	"bytes"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/url"
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
	for _, f := range Forms(secret) {
		if strings.Contains(buf.String(), f) {
			t.Fatalf("log holds %q: %s", f, buf.String())
		}
	}
	if strings.Count(buf.String(), Mask) != 4 {
		t.Fatalf("want 4 masks in %s", buf.String())
	}
}
