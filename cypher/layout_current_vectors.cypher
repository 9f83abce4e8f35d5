// Upgrade (layout 3), a batch at a time: the vectors of current rows of one type onto their
// :CurrentFact nodes, which the one vector index of facts covers.
// scope: admin
// params: batch
// placeholders: rel
MATCH ()-[r:{{rel}}]->()
WHERE r.expired_at IS NULL AND r.embedding IS NOT NULL
MATCH (c:CurrentFact {row_id: r.id})
WHERE c.embedding IS NULL
WITH r, c LIMIT $batch
SET c.embedding = r.embedding
RETURN count(c) AS upgraded
