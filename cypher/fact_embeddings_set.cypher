// The vectors of fact rows of one type, by row id; a current row's :CurrentFact node gets it too
// (the vector index of facts is over those nodes).
// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
USING INDEX SEEK r:{{rel}}(id)
WHERE r.group_id = $group_id
SET r.embedding = row.vector
WITH r, row
OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, row_id: r.id})
SET c.embedding = row.vector
RETURN count(r) AS written
