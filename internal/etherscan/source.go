package etherscan

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	esapi "github.com/nanmu42/etherscan-api"
)

// ErrUnverified marks a contract whose source Etherscan does not hold.
var ErrUnverified = errors.New("source not verified (empty SourceCode)")

// SourceFiles are the source files of a verified contract, in one of
// Etherscan's three forms.
type SourceFiles struct {
	Files        map[string]string // file name -> content
	StandardJSON []byte            // the whole standard-JSON input, when Etherscan recorded one
	Format       string            // flat, standard_json, sources_map
}

// ParseSource reads SourceCode: a single flattened file, Etherscan's
// `{{ ... }}` standard-JSON input, or a plain `{ "file": {"content": ...} }` map.
func ParseSource(src *esapi.ContractSource) (*SourceFiles, error) {
	code := strings.TrimSpace(src.SourceCode)
	if code == "" {
		return nil, ErrUnverified
	}
	if strings.HasPrefix(code, "{{") && strings.HasSuffix(code, "}}") {
		return parseStandardJSON([]byte(code[1 : len(code)-1]))
	}
	if strings.HasPrefix(code, "{") {
		if sf, err := parseSourcesMap([]byte(code)); err == nil {
			return sf, nil
		}
	}
	name := src.ContractName
	if name == "" {
		name = "Contract"
	}
	return &SourceFiles{Files: map[string]string{name + ".sol": src.SourceCode}, Format: "flat"}, nil
}

type sourceEntry struct {
	Content string `json:"content"`
}

func parseStandardJSON(b []byte) (*SourceFiles, error) {
	var in struct {
		Language string                 `json:"language"`
		Sources  map[string]sourceEntry `json:"sources"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("standard-JSON source: %w", err)
	}
	if len(in.Sources) == 0 {
		return nil, errors.New("standard-JSON source has no sources")
	}
	if in.Language != "" && in.Language != "Solidity" {
		return nil, fmt.Errorf("unsupported source language %q", in.Language)
	}
	return &SourceFiles{Files: contents(in.Sources), StandardJSON: b, Format: "standard_json"}, nil
}

func parseSourcesMap(b []byte) (*SourceFiles, error) {
	var m map[string]sourceEntry
	if err := json.Unmarshal(b, &m); err != nil || len(m) == 0 {
		return nil, errors.New("not a sources map")
	}
	return &SourceFiles{Files: contents(m), Format: "sources_map"}, nil
}

func contents(m map[string]sourceEntry) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v.Content
	}
	return out
}
