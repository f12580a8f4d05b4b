-- o3_graphs: dataset helper, solbehave paper §V-C/§V-D (one reference extractor judges every model in O3's fixed setting): the DCR graph each model's O3 rows were replayed from
-- depends: replay_calls, dcr_graphs
-- columns: contract_id, model, graph_setting, profile, extractor, graph_sha256, rows
CREATE OR REPLACE VIEW o3_graphs AS
SELECT
    r.contract_id,
    r.model,
    r.graph_setting,
    r.profile,
    r.extractor,
    g.graph_sha256,
    count(*) AS rows
FROM replay_calls r
LEFT JOIN dcr_graphs g ON g.contract_id = r.contract_id AND g.extractor = r.extractor AND g.status = 'ok'
WHERE r.oracle = 'O3'
GROUP BY ALL
ORDER BY ALL;

COMMENT ON VIEW o3_graphs IS 'Per contract, model, O3 graph setting and profile: the extractor whose graph the O3 rows replayed and that graph''s sha256 (dcr_graphs.graph_sha256; an O3 unit''s fingerprint covers the sequences built from it, so current rows always name the current graph), and how many rows. In the fixed setting every model of a contract names one extractor and one graph: the evaluation''s pinned reference extractor (§V-C).';
