package solc

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrUnknownVersion wraps every failure to map a requested compiler version
// to an installable npm release.
var ErrUnknownVersion = errors.New("solc: unknown compiler version")

// WrapperPackage is the solc-js package whose wrapper.js drives every
// soljson.js, old or new (see doc.go).
const WrapperPackage = "solc@0.8.26"

// oldestWrapped is the oldest soljson the modern wrapper loads; older
// requests get substituteOld, the newest 0.4.x release.
var (
	oldestWrapped = semver{0, 4, 9}
	substituteOld = semver{0, 4, 26}
)

// releases lists the solc releases this package installs, oldest first.
var releases = buildReleases([][3]int{
	{0, 4, 9}, {0, 4, 26}, // 0.4.9 .. 0.4.26
	{0, 5, 0}, {0, 5, 17},
	{0, 6, 0}, {0, 6, 12},
	{0, 7, 0}, {0, 7, 6},
	{0, 8, 0}, {0, 8, 30},
})

// ancientReleases were published before 0.4.9; they are recognized (so they
// are not "unknown") but substituted, as they crash in the modern wrapper.
var ancientReleases = setOf(buildReleases([][3]int{
	{0, 1, 1}, {0, 1, 7},
	{0, 2, 0}, {0, 2, 2},
	{0, 3, 0}, {0, 3, 6},
	{0, 4, 0}, {0, 4, 8},
}))

func setOf(vs []semver) map[semver]bool {
	m := make(map[semver]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// npmOverrides maps releases whose plain npm package is wrong or missing.
// solc@0.8.7 on npm carries a 0.7.5 soljson; the -fixed packages report the
// right version (0.8.14 and 0.8.23 have -fixed re-publications as well).
var npmOverrides = map[semver]string{
	{0, 8, 7}:  "0.8.7-fixed",
	{0, 8, 14}: "0.8.14-fixed",
	{0, 8, 23}: "0.8.23-fixed",
}

// npmMissing maps releases npm does not carry to the release used instead.
var npmMissing = map[semver]semver{
	{0, 8, 1}:  {0, 8, 2},  // solc@0.8.1 on npm carries a 0.8.0 soljson (its version() says so); 0.8.2 accepts every 0.8.1 source
	{0, 4, 12}: {0, 4, 13}, // no solc@0.4.12 on npm; 0.4.13 is its bug-fix release
}

type semver struct{ Major, Minor, Patch int }

func (v semver) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

func (v semver) less(w semver) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

func buildReleases(ranges [][3]int) []semver {
	var out []semver
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for p := lo[2]; p <= hi[2]; p++ {
			out = append(out, semver{lo[0], lo[1], p})
		}
	}
	return out
}

func isRelease(v semver) bool {
	for _, r := range releases {
		if r == v {
			return true
		}
	}
	return false
}

// Releases returns the known installable releases, oldest first.
func Releases() []string {
	out := make([]string, len(releases))
	for i, r := range releases {
		out[i] = r.String()
	}
	return out
}

// versionPattern accepts Etherscan's CompilerVersion ("v0.4.18+commit.9cf6e91f",
// "v0.4.20-nightly.2018.1.29+commit.a668b9de"), version() strings
// ("0.4.24+commit.e67f0147.Emscripten.clang"), bare "0.8.19" and npm's
// "0.8.7-fixed", optionally wrapped as "soljson-v....js".
var versionPattern = regexp.MustCompile(`^v?(\d+)\.(\d+)\.(\d+)(?:-(nightly|develop|fixed)[0-9A-Za-z.]*)?(?:\+commit\.[0-9a-f]+(?:\.[0-9A-Za-z._-]+)?)?$`)

// Release is the npm release chosen for a requested compiler version.
type Release struct {
	Requested   string // as given
	Version     string // release used, e.g. "0.4.18"
	Package     string // npm spec, e.g. "solc@0.8.7-fixed"
	Substituted string // why Version differs from the requested release; "" if it does not
}

// ResolveRelease maps a requested version to the npm release to run. It does
// no I/O. Rules (documented in doc.go):
//   - a release runs as itself (npm package overrides for 0.8.7/0.8.14/0.8.23);
//   - a nightly X.Y.Z-nightly.* runs as release X.Y.Z, the release it led up
//     to; a nightly of a never-released X.Y.Z runs as the newest release before it;
//   - releases before 0.4.9 run as 0.4.26;
//   - 0.4.12, absent from npm, runs as 0.4.13.
func ResolveRelease(requested string) (Release, error) {
	v, tag, err := parseVersion(requested)
	if err != nil {
		return Release{}, err
	}
	rel := Release{Requested: requested}
	target, why, err := chooseRelease(v, tag)
	if err != nil {
		return Release{}, err
	}
	rel.Version = target.String()
	rel.Substituted = why
	npmVersion := target.String()
	if o, ok := npmOverrides[target]; ok {
		npmVersion = o
	}
	rel.Package = "solc@" + npmVersion
	return rel, nil
}

func parseVersion(s string) (semver, string, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "soljson-"), ".js")
	m := versionPattern.FindStringSubmatch(t)
	if m == nil {
		return semver{}, "", fmt.Errorf("%w: %q is not a solc version", ErrUnknownVersion, s)
	}
	var nums [3]int
	for i := range nums {
		n, err := strconv.Atoi(m[i+1])
		if err != nil || n > 1000 {
			return semver{}, "", fmt.Errorf("%w: %q is not a solc version", ErrUnknownVersion, s)
		}
		nums[i] = n
	}
	return semver{nums[0], nums[1], nums[2]}, m[4], nil
}

func chooseRelease(v semver, tag string) (semver, string, error) {
	if tag == "nightly" || tag == "develop" {
		return nightlyRelease(v)
	}
	switch {
	case ancientReleases[v]:
		return substituteOld, fmt.Sprintf("solc %s predates %s and crashes in the solc-js wrapper; using %s, the newest 0.4.x release", v, oldestWrapped, substituteOld), nil
	case npmMissing[v] != semver{}:
		to := npmMissing[v]
		return to, fmt.Sprintf("npm has no working solc@%s package; using %s", v, to), nil
	case isRelease(v):
		return v, "", nil
	}
	return semver{}, "", fmt.Errorf("%w: %s is not a known solc release", ErrUnknownVersion, v)
}

// nightlyRelease: a nightly of X.Y.Z is a development build towards X.Y.Z,
// so its features are (a subset of) those of X.Y.Z and sources that pin
// `^X.Y.Z` compile only there: run it as X.Y.Z. A nightly built after the
// last release of a series (X.Y.Z never released) runs as X.Y.(Z-1).
func nightlyRelease(v semver) (semver, string, error) {
	target := v
	if !isRelease(v) && !ancientReleases[v] && v.Patch > 0 {
		prev := semver{v.Major, v.Minor, v.Patch - 1}
		if !isRelease(prev) {
			return semver{}, "", fmt.Errorf("%w: nightly of %s, which is not a known release series", ErrUnknownVersion, v)
		}
		target = prev
	}
	t, why, err := chooseRelease(target, "")
	if err != nil {
		return semver{}, "", fmt.Errorf("%w (nightly of %s)", err, v)
	}
	reason := fmt.Sprintf("nightly builds are not on npm; a nightly of %s runs as release %s", v, t)
	if why != "" {
		reason += "; " + why
	}
	return t, reason, nil
}

// refineAncient narrows the substitute of a pre-0.4.9 release to the newest
// 0.4.x release the sources' pragmas admit (0.4.26 unless they cap it).
func refineAncient(rel Release, sources map[string]string) Release {
	v, tag, err := parseVersion(rel.Requested)
	if err != nil || tag != "" || !ancientReleases[v] {
		return rel
	}
	var all []versionRange
	for _, src := range sources {
		if ranges, err := pragmaRanges(src); err == nil {
			all = append(all, ranges...)
		}
	}
	for i := len(releases) - 1; i >= 0; i-- {
		r := releases[i]
		if r.Major == 0 && r.Minor == 4 && allAdmit(all, r) {
			if r.String() != rel.Version {
				rel.Version, rel.Package = r.String(), "solc@"+r.String()
				rel.Substituted = fmt.Sprintf("solc %s predates %s and crashes in the solc-js wrapper; using %s, the newest 0.4.x release the pragmas admit", v, oldestWrapped, r)
			}
			return rel
		}
	}
	return rel
}
