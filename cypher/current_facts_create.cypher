// The :CurrentFact nodes of rows of one type that are current (row.current: their keys, see
// Neo4jStore's module docstring), made right after the rows (and by an upgrade, for rows
// written before they were kept).
// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
WHERE r.group_id = $group_id AND r.expired_at IS NULL
CREATE (:CurrentFact {group_id: $group_id, row_id: row.id, rel: elementId(r), relation: row.relation,
                      subject_id: row.subject_id, object_id: row.object_id, key_start: row.current.key_start,
                      newest: row.current.newest, ends: row.current.ends})
RETURN count(r) AS created
