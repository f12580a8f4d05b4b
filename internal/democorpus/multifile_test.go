package democorpus

import (
	"io/fs"
	"maps"
	"strings"
	"testing"

	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/soltext"
)

// shanghai is the timestamp mainnet activated Shanghai (PUSH0) at.
const shanghai = 1_681_338_455

// Every multi-file contract but the proxy has a chain count (the size
// filter's) of 1 to 20; they build on an OpenZeppelin 4.x and a 5.x release
// and cover what the benchmark meets on 2023 mainnet.
func TestMultiFileContractsFitTheSizeBound(t *testing.T) {
	releases := map[string]bool{}
	var linked, proxied bool
	for _, spec := range Specs() {
		if !spec.MultiFile() {
			continue
		}
		releases[spec.OZ[:1]] = true
		linked = linked || len(spec.Libraries) > 0
		proxied = proxied || spec.Implementation != ""
		files, root, err := spec.Files()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := files[root]; !ok || len(files) < 2 {
			t.Errorf("%s: %d files, root %s among them: %v", spec.Name, len(files), root, ok)
		}
		n, err := soltext.ChainCount(files, spec.Name)
		if err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		if spec.Implementation == "" && (n < 1 || n > 20) {
			t.Errorf("%s: chain count %d, want 1-20", spec.Name, n)
		}
	}
	if !releases["4"] || !releases["5"] || !linked || !proxied {
		t.Errorf("OpenZeppelin majors %v, a linked library %v, a proxy %v: want 4 and 5, true, true", releases, linked, proxied)
	}
}

// Only the OpenZeppelin files some contract imports are committed.
func TestOnlyTheOpenZeppelinFilesUsed(t *testing.T) {
	used := map[string]bool{}
	for _, spec := range Specs() {
		if !spec.MultiFile() {
			continue
		}
		files, _, err := spec.Files()
		if err != nil {
			t.Fatal(err)
		}
		for name := range files {
			if rel, ok := strings.CutPrefix(name, ozImport); ok {
				used[ozDir+"/"+spec.OZ+"/"+rel] = true
			}
		}
	}
	err := fs.WalkDir(Sources, ozDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".sol") && !used[p] {
			t.Errorf("%s is committed but no demo contract imports it", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Sources.ReadFile(ozDir + "/LICENSE"); err != nil {
		t.Errorf("OpenZeppelin's licence is not committed: %v", err)
	}
}

// A multi-file record is what Etherscan answers for a contract verified
// from its standard-JSON input: SourceCode is that input between double
// braces, and it holds exactly the contract's files; a proxy carries
// Etherscan's flag and its implementation. OpenZeppelin 5 needs PUSH0: its
// histories run after Shanghai unless the input targets paris.
func TestMultiFileRecordsAreStandardJSON(t *testing.T) {
	_, recs, _ := generated(t)
	for i, spec := range Specs() {
		if !spec.MultiFile() {
			continue
		}
		r := recs[i]
		code := r.Source.SourceCode
		if !strings.HasPrefix(code, "{{\r\n  \"language\": \"Solidity\"") || !strings.HasSuffix(code, "}}") {
			t.Errorf("%s: SourceCode starts %q", spec.Name, code[:min(40, len(code))])
		}
		sf, err := etherscan.ParseSource(&esapi.ContractSource{SourceCode: code, ContractName: spec.Name})
		if err != nil || sf.Format != "standard_json" {
			t.Fatalf("%s: %v (%+v)", spec.Name, err, sf)
		}
		files, _, _ := spec.Files()
		if !maps.Equal(sf.Files, files) {
			t.Errorf("%s: the recorded sources are not the contract's files", spec.Name)
		}
		if (r.Source.Proxy == "1") != (spec.Implementation != "") || (r.Source.Proxy == "1") == (r.Source.Implementation == "") {
			t.Errorf("%s: Proxy %q, Implementation %q", spec.Name, r.Source.Proxy, r.Source.Implementation)
		}
		if spec.OZ[0] == '5' && spec.EVMVersion != "paris" && atoi(t, r.Txs[0].TimeStamp) < shanghai {
			t.Errorf("%s: OpenZeppelin %s created at %s, before Shanghai", spec.Name, spec.OZ, r.Txs[0].TimeStamp)
		}
	}
}
