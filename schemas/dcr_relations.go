package schemas

import _ "embed"

//go:embed dcr_relations.md
var dcrRelationsDoc string

// DCRRelation is one row of the `dcr_relations` dataset: one relation of
// an extracted DCR graph.
type DCRRelation struct {
	ContractID    string `parquet:"contract_id"`
	Extractor     string `parquet:"extractor"`
	RelationIndex int64  `parquet:"relation_index"`
	Type          string `parquet:"type"`
	Source        string `parquet:"source"`
	Target        string `parquet:"target"`
	SourceKey     string `parquet:"source_key"`
	TargetKey     string `parquet:"target_key"`
	Guard         string `parquet:"guard"`
	Constants     string `parquet:"constants"`
	GuardCompiles bool   `parquet:"guard_compiles"`
	Rule          string `parquet:"rule"`
}

// DCRRelations is the dcr_relations dataset: rows of DCRRelation.
var DCRRelations = Define[DCRRelation](Dataset{Name: "dcr_relations", Partitions: []string{"contract"}, Doc: dcrRelationsDoc})
