package dcr

import (
	"encoding/json"
	"strings"

	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/schemas"
)

// llmSource marks provenance the LLM extractor does not explain.
const llmSource = "llm"

func eventRows(contractID, extractor string, g *dcrgraph.Graph, res *dcrextract.Result) []schemas.DCREvent {
	rows := make([]schemas.DCREvent, 0, len(g.Events))
	for _, e := range g.Events {
		args, _ := json.Marshal(e.Args)
		if len(e.Args) == 0 {
			args = []byte("[]")
		}
		row := schemas.DCREvent{ContractID: contractID, Extractor: extractor, EventID: e.ID, EventKey: dcrextract.EventKey(e),
			Function: e.Function, Branch: e.Branch, Role: string(e.Role), Once: e.Once, Included: e.Included,
			Pending: e.Pending, Args: string(args), Value: e.Value}
		switch {
		case res != nil:
			info := res.Events[e.ID]
			row.ArgSources, row.ValueSource = strings.Join(info.ArgSources, ","), info.ValueSource
		default:
			row.ArgSources = strings.TrimSuffix(strings.Repeat(llmSource+",", len(e.Args)), ",")
			if e.Value != "" {
				row.ValueSource = llmSource
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func relationRows(contractID, extractor string, g *dcrgraph.Graph, res *dcrextract.Result) []schemas.DCRRelation {
	keys := map[string]string{}
	for _, e := range g.Events {
		keys[e.ID] = dcrextract.EventKey(e)
	}
	rules := map[string]string{}
	if res != nil {
		for i, r := range res.Graph.Relations {
			rules[relationKey(r)] = res.Relations[i].Rule
		}
	}
	rows := make([]schemas.DCRRelation, 0, len(g.Relations))
	for i, r := range g.Relations {
		consts := []byte("{}")
		if len(r.Constants) > 0 {
			consts, _ = json.Marshal(r.Constants)
		}
		row := schemas.DCRRelation{ContractID: contractID, Extractor: extractor, RelationIndex: int64(i),
			Type: string(r.Type), Source: r.Source, Target: r.Target, SourceKey: keys[r.Source], TargetKey: keys[r.Target],
			Guard: r.Guard, Constants: string(consts), GuardCompiles: guardCompiles(r), Rule: llmSource}
		if rule, ok := rules[relationKey(r)]; ok {
			row.Rule = rule
		}
		rows = append(rows, row)
	}
	return rows
}

func guardCompiles(r dcrgraph.Relation) bool {
	if strings.TrimSpace(r.Guard) == "" {
		return true
	}
	_, err := dcrgraph.CompileGuard(r.Guard, r.Constants)
	return err == nil
}

func relationKey(r dcrgraph.Relation) string {
	return string(r.Type) + "\x00" + r.Source + "\x00" + r.Target
}
