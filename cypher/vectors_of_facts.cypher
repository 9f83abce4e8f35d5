// The stored vectors of fact rows by row id, every version (copying a memory between stores).
// {{types}}: the group's relations.
// params: group_id, ids
// placeholders: types
UNWIND $ids AS row_id
MATCH (:Entity {group_id: $group_id})-[r:{{types}} {id: row_id}]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.embedding IS NOT NULL
RETURN r.id AS id, r.embedding AS vector
