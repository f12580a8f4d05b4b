package sqlviews_test

import (
	"fmt"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// graph writes one extractor's valid graph of contract c: its relations by
// type and its events (function name, role).
func graph(f *fixture, c string, types []string, events [][2]string) {
	f.t.Helper()
	g := schemas.DCRGraph{ContractID: c, Extractor: "static", Status: "ok", Events: int64(len(events)), Relations: int64(len(types))}
	put(f, "dcr_graphs", c, g)
	var rels []schemas.DCRRelation
	for i, ty := range types {
		rels = append(rels, schemas.DCRRelation{ContractID: c, Extractor: "static", RelationIndex: int64(i), Type: ty})
	}
	if len(rels) > 0 {
		put(f, "dcr_relations", c, rels...)
	}
	var evs []schemas.DCREvent
	for i, e := range events {
		evs = append(evs, schemas.DCREvent{ContractID: c, Extractor: "static", EventID: fmt.Sprintf("e%d", i), Function: e[0], Role: e[1]})
	}
	put(f, "dcr_events", c, evs...)
}

// dcr_stats over three valid graphs and a rejected one: 9 relations over 3
// graphs, 18 events, an ownership-transferring event on A (by its name) and on
// B (a function Algorithm 1 sent at a sequence's end), none on C.
func TestDCRStatsPerExtractor(t *testing.T) {
	f := newFixture(t)
	graph(f, "A", []string{"condition", "response"}, [][2]string{{"transferOwnership", "owner"}, {"f", "any"}, {"g", "any"}, {"h", "any"}})
	graph(f, "B", []string{"condition", "condition", "condition", "include", "exclude", "exclude"},
		[][2]string{{"setOwner", "owner"}, {"mint", "owner"}, {"a", "any"}, {"b", "any"}, {"c", "any"}, {"d", "any"}, {"e", "any"}, {"f", "any"}})
	graph(f, "C", []string{"condition"}, [][2]string{{"a", "any"}, {"b", "any"}, {"c", "any"}, {"d", "any"}, {"e", "any"}, {"f", "any"}})
	put(f, "dcr_graphs", "D", schemas.DCRGraph{ContractID: "D", Extractor: "static", Status: "rejected"})
	put(f, "sequence_calls", "B", schemas.SequenceCall{ContractID: "B", Extractor: "static", Function: "setOwner", Priority: "final"},
		schemas.SequenceCall{ContractID: "B", Extractor: "static", Function: "mint", Priority: "ucb"})
	db := f.open("dcr_stats")
	got := stagetest.QueryMaps(t, db, `SELECT extractor, contracts, graphs, relations_per_graph, events_per_contract,
		round(condition_share, 4) AS condition, round(response_share, 4) AS response, round(include_share, 4) AS include, round(exclude_share, 4) AS exclude,
		round(ownership_events_per_contract, 4) AS ownership, round(no_ownership_rate, 4) AS none FROM dcr_stats`)
	want := `[{"condition":0.5556,"contracts":4,"events_per_contract":6,"exclude":0.2222,"extractor":"static","graphs":3,"include":0.1111,` +
		`"none":0.3333,"ownership":0.6667,"relations_per_graph":3,"response":0.1111}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("dcr_stats %s\nwant %s", stagetest.JSON(got), want)
	}
	ci := stagetest.QueryMaps(t, db, `SELECT relations_per_graph_ci_low AS lo, relations_per_graph_ci_high AS hi FROM dcr_stats`)
	if lo, hi := ci[0]["lo"].(float64), ci[0]["hi"].(float64); !(lo >= 1 && lo < 3 && hi > 3 && hi <= 6) {
		t.Errorf("relations per graph interval [%v, %v], want one around 3 within [1, 6] (the graphs have 1, 2 and 6)", lo, hi)
	}
}

// o3_reach over three kept contracts: O3 alone calls f2 on A (owner-only in
// the graph) and g2 on B (open to anyone); nothing ran on C. Two of four
// functions only O3 reaches; one contract of three has an owner-only one, two
// of three one history never called, whatever its role.
func TestO3ReachCountsFunctionsAndOwnerOnlyContracts(t *testing.T) {
	f := newFixture(t)
	for c, n := range map[string]int64{"A": 2, "B": 2, "C": 1} {
		put(f, "contracts", c, schemas.Contract{ContractID: c, Kept: true, NStateChangingABI: n})
	}
	put(f, "coverage", "A", coverage("A", "O2", "", "f1", true), coverage("A", "O2", "", "f2", false),
		coverage("A", "O3", "static", "f1", true), coverage("A", "O3", "static", "f2", true))
	put(f, "coverage", "B", coverage("B", "O2", "", "g1", true), coverage("B", "O2", "", "g2", false),
		coverage("B", "O3", "static", "g1", false), coverage("B", "O3", "static", "g2", true))
	put(f, "dcr_events", "A", schemas.DCREvent{ContractID: "A", Extractor: "static", EventID: "f2", Function: "f2", Role: "owner"})
	put(f, "dcr_events", "B", schemas.DCREvent{ContractID: "B", Extractor: "static", EventID: "g2", Function: "g2", Role: "any"})
	db := f.open("o3_reach")
	got := stagetest.QueryMaps(t, db, `SELECT extractor, profile, reference, contracts, functions, functions_o3_only, o3_only_function_rate,
		owner_only_contracts, round(owner_only_contract_rate, 4) AS owner_rate, unused_reach_contracts, round(unused_reach_contract_rate, 4) AS unused_rate FROM o3_reach`)
	want := `[{"contracts":3,"extractor":"static","functions":4,"functions_o3_only":2,"o3_only_function_rate":0.5,"owner_only_contracts":1,` +
		`"owner_rate":0.3333,"profile":"paper","reference":true,"unused_rate":0.6667,"unused_reach_contracts":2}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("o3_reach %s\nwant %s", stagetest.JSON(got), want)
	}
}

// Table II's rates carry their interval over contracts: a model compiling
// one sample of two on each of 20 contracts raw and every sample repaired.
func TestTable2IntervalsOverContracts(t *testing.T) {
	f := newFixture(t)
	for i := range 20 {
		c := fmt.Sprintf("c%02d", i)
		put(f, "contracts", c, schemas.Contract{ContractID: c, Kept: true})
		put(f, "samples", c, schemas.Sample{ContractID: c, Model: "m", Sample: 0, CompiledRaw: i%2 == 0, CompiledRepaired: true},
			schemas.Sample{ContractID: c, Model: "m", Sample: 1, CompiledRaw: false, CompiledRepaired: true})
	}
	got := stagetest.QueryMaps(t, f.open("table2_compile"), `SELECT compile_raw_rate AS raw, compile_raw_rate_ci_low AS lo, compile_raw_rate_ci_high AS hi,
		compile_repaired_rate_ci_low AS rlo, compile_repaired_rate_ci_high AS rhi FROM table2_compile`)
	g := got[0]
	if g["raw"].(float64) != 0.25 || !(g["lo"].(float64) < 0.2 && g["lo"].(float64) > 0.05 && g["hi"].(float64) > 0.3 && g["hi"].(float64) < 0.45) {
		t.Errorf("raw Compile@2 %v in [%v, %v], want 0.25 in about [0.125, 0.375]", g["raw"], g["lo"], g["hi"])
	}
	if g["rlo"].(float64) != 1 || g["rhi"].(float64) != 1 {
		t.Errorf("repaired interval [%v, %v], want [1, 1]", g["rlo"], g["rhi"])
	}
}

// Spearman's rho over four models whose divergent contracts are nested (m_k
// diverges on the first k of 10 contracts under both oracles) is 1, and so is
// every resample's: the interval is [1, 1].
func TestOracleAgreementRhoInterval(t *testing.T) {
	f := newFixture(t)
	for i := range 10 {
		c := fmt.Sprintf("c%02d", i)
		var rows []schemas.ReplayCall
		for k := range 4 {
			m := fmt.Sprintf("m%d", k)
			for _, o := range []string{"O2", "O3"} {
				r := call(c, m, 0, i >= k, false)
				r.Oracle = o
				if o == schemas.OracleO3 {
					r.GraphSetting, r.Profile = "fixed", "paper"
				}
				rows = append(rows, r)
			}
		}
		put(f, "replay_calls", c, rows...)
	}
	got := stagetest.QueryMaps(t, f.open("oracle_agreement"), `SELECT models, round(spearman_rho, 9) AS spearman_rho, round(spearman_rho_ci_low, 9) AS lo, round(spearman_rho_ci_high, 9) AS hi FROM oracle_agreement`)
	if want := `[{"hi":1,"lo":1,"models":4,"spearman_rho":1}]`; stagetest.JSON(got) != want {
		t.Fatalf("oracle_agreement %s\nwant %s", stagetest.JSON(got), want)
	}
}
