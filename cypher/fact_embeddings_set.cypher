// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
USING INDEX r:{{rel}}(id)
WHERE r.group_id = $group_id
SET r.embedding = row.vector
RETURN count(r) AS written
