// Close current rows in transaction time: the only change a fact row ever receives (its
// :CurrentFact node goes with it).
// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
USING INDEX SEEK r:{{rel}}(id)
WHERE r.group_id = $group_id AND r.expired_at IS NULL
SET r.expired_at = row.expired_at, r.search_group = null
WITH r
OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, row_id: r.id})
DELETE c
RETURN count(DISTINCT r) AS written
