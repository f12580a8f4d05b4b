// Package redact is the one point every outgoing string passes before it is
// written: Parquet rows (internal/warehouse), log records (the slog handler),
// caches, sample files and error messages. It replaces each configured secret
// in the forms it travels in: raw, URL-encoded (query and path escaping, with
// upper- or lower-case hex), hex (both cases) and base64 (standard and URL
// alphabets, padded and raw, and at each of the three byte alignments inside
// a longer text), each also JSON-escaped. A URL's user:password is a secret of its
// own, for the Basic authorization built from it.
//
// Secrets are the values of [EnvVars] (read at each call, so a key set later
// is still covered) and whatever [Add] registered (a key given as an option).
// Values shorter than [MinLen] are not treated as secrets: masking every "a"
// would corrupt outputs and protect nothing.
package redact

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Mask replaces a secret.
const Mask = "[REDACTED]"

// MinLen is the shortest value treated as a secret.
const MinLen = 6

// EnvVars hold the project's secrets.
var EnvVars = []string{"ETHERSCAN_API_KEY", "SOLBEHAVE_LLM_API_KEY", "SOLBEHAVE_TEMPORAL_API_KEY"}

var state struct {
	sync.Mutex
	added  []string
	key    string // the secrets the masker was built for
	masker *masker
}

// masker masks a fixed set of secrets: the replacer takes every listed form,
// the pattern the JSON-escaped mixes the list cannot enumerate.
type masker struct {
	replacer *strings.Replacer
	escaped  *regexp.Regexp
}

func (m *masker) mask(s string) string {
	if m != nil {
		s = m.replacer.Replace(s)
		if strings.IndexByte(s, '\\') >= 0 {
			s = m.escaped.ReplaceAllString(s, Mask)
		}
	}
	return maskUserInfo(s)
}

// userInfo is the user information of a URL, JSON-escaped slashes included.
var userInfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*:(?://|\\/\\/))([^/\\\s@"'<>]+)@`)

// maskUserInfo masks the user:password@ of every URL in s, registered or not.
func maskUserInfo(s string) string {
	if !strings.Contains(s, "@") || !strings.Contains(s, ":") {
		return s
	}
	return userInfo.ReplaceAllString(s, "${1}"+Mask+"@")
}

// AddURL registers the credentials a URL carries: the password of its user
// information (the user name when it comes alone: a token), and the values of its query parameters
// that name a credential (key, token, secret, password, auth, signature,
// session) or are long enough to be one. A text that is not a URL adds none.
func AddURL(raw string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return
	}
	if u.User != nil {
		p, ok := u.User.Password()
		if ok {
			Add(p)
		} else {
			Add(u.User.Username()) // a token given as the user name
		}
		// net/http sends them as Authorization: Basic base64(user:password),
		// whose base64 holds no base64 of the password alone.
		Add(u.User.Username() + ":" + p)
	}
	for name, values := range u.Query() {
		for _, v := range values {
			if credentialParam.MatchString(name) || len(v) >= longParam {
				Add(v)
			}
		}
	}
}

// credentialParam matches query parameter names that carry credentials;
// longParam is the length from which any parameter's value is taken for one
// (API keys and tokens are 32 characters and more; ids and flags are short).
var credentialParam = regexp.MustCompile(`(?i)key|token|secret|pass|pwd|auth|sig|session|cred`)

const longParam = 24

// Add registers a secret.
func Add(secret string) {
	if len(secret) < MinLen {
		return
	}
	state.Lock()
	defer state.Unlock()
	for _, s := range state.added {
		if s == secret {
			return
		}
	}
	state.added = append(state.added, secret)
}

// current returns the masker for the secrets configured now, or nil.
func current() *masker {
	var secrets []string
	for _, v := range EnvVars {
		if s := os.Getenv(v); len(s) >= MinLen {
			// Temporal and the LLM client send it as a bearer token: the
			// header value's base64 and hex hold the key at no fixed alignment.
			secrets = append(secrets, s, "Bearer "+s)
		}
	}
	state.Lock()
	defer state.Unlock()
	secrets = append(secrets, state.added...)
	if len(secrets) == 0 {
		return nil
	}
	key := strings.Join(secrets, "\x00")
	if key != state.key || state.masker == nil {
		state.key, state.masker = key, newMasker(secrets)
	}
	return state.masker
}

// FormsIn returns the forms of secret (Forms) that text holds: what a leak
// check reports.
func FormsIn(text, secret string) []string {
	var found []string
	for _, f := range Forms(secret) {
		if strings.Contains(text, f) {
			found = append(found, f)
		}
	}
	return found
}

// Forms are the encodings of secret that are masked: each of encodings,
// and each of those JSON-escaped.
func Forms(secret string) []string {
	var forms []string
	seen := map[string]bool{}
	for _, e := range encodings(secret) {
		for _, f := range append([]string{e}, jsonForms(e)...) {
			if !seen[f] {
				seen[f] = true
				forms = append(forms, f)
			}
		}
	}
	return forms
}

// encodings are secret raw, URL-escaped (upper- and lower-case hex), hex
// (both cases) and base64 (standard and URL alphabets, padded and raw, and
// the cores of its three alignments inside a longer text).
func encodings(secret string) []string {
	b := []byte(secret)
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)}
	for _, f := range forms[1:3] {
		forms = append(forms, lowerHex(f))
	}
	forms = append(forms, hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b)))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for offset := range 3 {
			if core := base64Core(enc, b, offset); len(core) >= MinLen {
				forms = append(forms, core)
			}
		}
	}
	return forms
}

// base64Core is the part of the base64 of any text holding secret at a byte
// offset ≡ offset (mod 3) that secret alone decides: the characters of the
// 3-byte groups it fills whole. A server that echoes a whole header, or the
// key after a prefix, as base64 shifts it off the alignment the plain
// encodings assume; the characters each side of the core also hold bits of
// what surrounds it, and stay.
func base64Core(enc *base64.Encoding, secret []byte, offset int) string {
	shifted := append(make([]byte, offset), secret...)
	whole := len(shifted) / 3 * 4  // the characters of whole groups
	skip := []int{0, 2, 3}[offset] // those that hold bits of the bytes before
	if whole <= skip {
		return ""
	}
	return enc.EncodeToString(shifted)[skip:whole]
}

// jsonForms are the JSON-escaped forms of secret as encoders write them:
// Go's (<, >, & as \u003c…), with '/' as '\/' (PHP's), and with every
// character but letters and digits as \u00xx, in lower and upper case.
func jsonForms(secret string) []string {
	b, _ := json.Marshal(secret)
	goForm := string(b[1 : len(b)-1])
	var lower, upper strings.Builder
	for _, r := range secret {
		if isAlnum(r) {
			lower.WriteRune(r)
			upper.WriteRune(r)
			continue
		}
		fmt.Fprintf(&lower, `\u%04x`, r)
		fmt.Fprintf(&upper, `\u%04X`, r)
	}
	return []string{goForm, strings.ReplaceAll(goForm, "/", `\/`), lower.String(), upper.String()}
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// escapedPattern matches secret with each character raw or JSON-escaped
// (\uXXXX in either case; '/' also as '\/'), in any mix.
func escapedPattern(secret string) string {
	var b strings.Builder
	for _, r := range secret {
		alts := []string{regexp.QuoteMeta(string(r)), fmt.Sprintf(`\\u(?i:%04x)`, r)}
		if r == '/' {
			alts = append(alts, `\\/`)
		}
		b.WriteString("(?:" + strings.Join(alts, "|") + ")")
	}
	return b.String()
}

var escapeHex = regexp.MustCompile(`%[0-9A-F]{2}`)

func lowerHex(s string) string { return escapeHex.ReplaceAllStringFunc(s, strings.ToLower) }

func newMasker(secrets []string) *masker {
	sorted := append([]string(nil), secrets...)
	sort.Slice(sorted, func(i, j int) bool { return len(sorted[i]) > len(sorted[j]) })
	var patterns []string
	for _, s := range sorted {
		for _, e := range encodings(s) {
			patterns = append(patterns, escapedPattern(e))
		}
	}
	return &masker{replacer: newReplacer(secrets), escaped: regexp.MustCompile(strings.Join(patterns, "|"))}
}

func newReplacer(secrets []string) *strings.Replacer {
	seen := map[string]bool{}
	var forms []string
	for _, s := range secrets {
		for _, f := range Forms(s) {
			if !seen[f] {
				seen[f] = true
				forms = append(forms, f)
			}
		}
	}
	// Longest first: a padded base64 form before its raw prefix.
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mask)
	}
	return strings.NewReplacer(pairs...)
}

// Active tells whether any secret is configured.
func Active() bool { return current() != nil }

// String masks every secret in s.
func String(s string) string { return current().mask(s) }

// Bytes masks every secret in b (b itself is left as it was).
func Bytes(b []byte) []byte {
	in := string(b)
	if s := current().mask(in); s != in {
		return []byte(s)
	}
	return b
}

// Value masks every secret in the strings reachable from v, a pointer (to a
// struct, slice, array or map of them), in place.
// Credentials in a URL are masked even when no secret is registered, as
// String masks them.
func Value(v any) {
	walk(reflect.ValueOf(v), current())
}

func walk(v reflect.Value, r *masker) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), r)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(r.mask(v.String()))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), r)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			if v.CanSet() {
				v.SetBytes([]byte(r.mask(string(v.Bytes()))))
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), r)
		}
	case reflect.Map:
		walkMap(v, r)
	}
}

func walkMap(v reflect.Value, r *masker) {
	if v.Type().Elem().Kind() != reflect.String {
		return // values of a map are not addressable; the row types hold none
	}
	for _, k := range v.MapKeys() {
		v.SetMapIndex(k, reflect.ValueOf(r.mask(v.MapIndex(k).String())).Convert(v.Type().Elem()))
	}
}

// Handler masks secrets in a log record's message and attributes before
// next sees it.
func Handler(next slog.Handler) slog.Handler { return handler{next} }

type handler struct{ next slog.Handler }

func (h handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = attr(a)
	}
	return handler{h.next.WithAttrs(clean)}
}

func (h handler) WithGroup(name string) slog.Handler { return handler{h.next.WithGroup(name)} }

// attr masks one attribute: strings, and anything else through its text
// (errors, Stringers, URLs), which is how the text handler prints it anyway.
func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, String(v.String()))
	case slog.KindAny:
		return slog.String(a.Key, String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, x := range g {
			clean[i] = attr(x)
		}
		return slog.Group(a.Key, clean...)
	}
	return a
}
