// Append episodes that support an existing row (ids already present are skipped).
// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
USING INDEX SEEK r:{{rel}}(id)
WHERE r.group_id = $group_id
SET r.episode_ids = coalesce(r.episode_ids, []) + [e IN row.episode_ids WHERE NOT e IN coalesce(r.episode_ids, [])]
RETURN count(r) AS written
