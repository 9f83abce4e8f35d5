// Upgrade, a batch at a time: current rows of one type that have no :CurrentFact node.
// scope: admin
// params: batch
// placeholders: rel
MATCH (s:Entity)-[r:{{rel}}]->(o:Entity)
WHERE r.fact_id IS NOT NULL AND r.expired_at IS NULL AND NOT EXISTS { MATCH (:CurrentFact {row_id: r.id}) }
WITH s, r, o LIMIT $batch
// include: fact_return
