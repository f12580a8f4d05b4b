package schemas

import _ "embed"

// DCRGraphSchema is schemas/dcr_graph.schema.json, the JSON schema of an
// extracted DCR graph (internal/dcrgraph reads it; the LLM extractor sends it).
//
//go:embed dcr_graph.schema.json
var DCRGraphSchema string
