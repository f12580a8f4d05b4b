package config

import (
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/pflag"
)

// notFingerprinted are the keys that change where or how a run runs, not
// what it produces: manifests do not record them, `status --explain` never
// names them, and publish does not call two of their values mixing. Every
// other key is a fingerprinted parameter, including each flag a stage adds.
var notFingerprinted = map[string]bool{
	// where: the corpus's content is digested into runs.corpus_digest
	"corpus": true, "data": true, "llm-cache": true, "out-corpus": true, "dcr-annotations": true,
	// how: parallelism, logging, recomputation, sharding
	"jobs": true, "quiet": true, "force": true, "shard": true,
	// the engine and its Temporal settings
	"engine": true, "temporal": true, "namespace": true, "task-queue": true, "temporal-tls": true,
	"temporal-tls-cert": true, "temporal-tls-key": true, "generate-queue": true, "fanout": true,
	"heartbeat": true, "unit-attempts": true,
	// wall-clock guards: past one a unit fails (retried), so no row depends on them
	"o1-timeout": true, "vuln-budget": true,
	// clients: timeouts, retries, concurrency, mirrors
	"llm-timeout": true, "llm-retries": true, "llm-concurrency": true,
	"etherscan-rate": true, "etherscan-url": true, "block-batch": true,
	// what a release says of itself (publish)
	"title": true, "creators": true, "release-version": true, "license": true,
}

// SeparatesRows lists the parameters whose values separate rows by design
// (a generator's samples, an extractor's graphs, an ablation's runs): one
// dataset may hold several of their values without being a mix of runs.
// Add a flag here when a stage adds such a setting.
var SeparatesRows = []string{
	"generator",           // generator / model
	"extractor",           // DCR extractor
	"reference-extractor", // O3 graph setting (fixed: judged by one extractor's sequences)
	"graph-setting",       // O3 graph setting, where a flag names it
	"o3-profile",          // O3 profile
	"ablation",            // vuln ablation
}

// Fingerprinted tells whether a key is a parameter of what a run produces.
func Fingerprinted(key string) bool { return !notFingerprinted[key] }

// SeparatesRowsByDesign tells whether a key is in SeparatesRows.
func SeparatesRowsByDesign(key string) bool {
	for _, k := range SeparatesRows {
		if k == key {
			return true
		}
	}
	return false
}

// Binder is what binds flags: every pipeline stage is one.
type Binder interface {
	Name() string
	BindFlags(fs *pflag.FlagSet)
}

// StageKeys lists, per stage, the keys its flags define, from fresh stages
// (binding flags sets a stage's fields to their defaults).
func StageKeys(fresh []Binder) map[string][]string {
	out := map[string][]string{}
	for _, s := range fresh {
		fs := pflag.NewFlagSet(s.Name(), pflag.ContinueOnError)
		s.BindFlags(fs)
		fs.VisitAll(func(f *pflag.Flag) { out[s.Name()] = append(out[s.Name()], f.Name) })
		sort.Strings(out[s.Name()])
	}
	return out
}

// Params are the fingerprinted parameters among keys, with their effective
// values as text (credentials in URLs removed), plus the seed.
func (c *Config) Params(keys []string) map[string]string {
	out := map[string]string{"seed": c.String("seed")}
	for _, k := range keys {
		if Fingerprinted(k) && c.keys.Lookup(k) != nil {
			out[k] = Redact(c.String(k))
		}
	}
	return out
}

// Parameters is every key's effective value, credentials in URLs removed:
// what `solbehave config --format json` prints and the runs dataset records.
func (c *Config) Parameters() map[string]any {
	out := map[string]any{}
	for _, k := range c.Keys() {
		v := c.Get(k)
		if s, ok := v.(string); ok {
			v = Redact(s)
		}
		out[k] = v
	}
	return out
}

// Redact drops the user info and query of a URL value (where API keys
// hide); other values pass unchanged.
func Redact(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return v
	}
	if u.User != nil || u.RawQuery != "" {
		u.User, u.RawQuery = nil, ""
		return u.String() + credentialsRemoved
	}
	return v
}

// credentialsRemoved marks a URL value Redact changed (ApplyParams skips it:
// it is not the value that ran).
const credentialsRemoved = " (credentials removed)"

// Localless shows each local path in a value by its last element only: a
// path ("…/demo"), one inside a generator spec ("import:…/bench") or a list
// ("mutant,import:…/bench"), so a release names no folder of the machine
// that made it; URLs and other values pass.
func Localless(v string) string {
	return absPath.ReplaceAllStringFunc(v, func(m string) string {
		lead := ""
		if m[0] != '/' {
			lead, m = m[:1], m[1:]
		}
		return lead + "…/" + filepath.Base(m)
	})
}

// absPath is an absolute path at the start of a value or after a list or
// spec separator; "//" (a URL's authority) is not one.
var absPath = regexp.MustCompile(`(?:^|[\[\s,:=])/[^/\s,\]][^\s,\]]*`)

// Resolved are the keys whose unset value a stage resolves (no generator:
// the controls; no extractor: each generator's default): manifests record
// the resolved value, older ones recorded "", which stood for that value.
var Resolved = map[string]bool{"generator": true, "extractor": true}

// DiffParams names the parameters whose values differ between was and now,
// as "key was → now", sorted; keys on one side only count too. A Resolved
// key recorded as "" is not named: it meant the default, now written out.
func DiffParams(was, now map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	for k, v := range now {
		seen[k] = true
		if old, ok := was[k]; ok && old == "" && Resolved[k] {
			continue
		} else if !ok {
			out = append(out, k+" (not recorded) → "+quoteEmpty(v))
		} else if old != v {
			out = append(out, k+" "+quoteEmpty(old)+" → "+quoteEmpty(v))
		}
	}
	for k, v := range was {
		if !seen[k] {
			out = append(out, k+" "+quoteEmpty(v)+" → (no longer a parameter)")
		}
	}
	sort.Strings(out)
	return out
}

func quoteEmpty(v string) string {
	if v == "" || strings.ContainsAny(v, " \t") {
		return `"` + v + `"`
	}
	return v
}

// LocallessCommand shows a recorded command line without local paths
// (each --flag=value through Localless).
func LocallessCommand(cmdline string) string {
	parts := strings.Fields(cmdline)
	for i, p := range parts {
		if name, val, ok := strings.Cut(p, "="); ok && strings.HasPrefix(name, "--") {
			parts[i] = name + "=" + Localless(val)
		}
	}
	return strings.Join(parts, " ")
}
