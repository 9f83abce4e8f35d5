// Close current rows in transaction time: the only change a fact row ever receives.
// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
WHERE r.group_id = $group_id AND r.expired_at IS NULL
SET r.expired_at = row.expired_at
RETURN count(r) AS written
