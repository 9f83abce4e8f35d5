// The relation type of fact rows known only by id (rare: rows not read in this transaction).
// params: group_id, ids
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity)
WHERE r.group_id = $group_id AND r.id IN $ids
RETURN r.id AS id, type(r) AS relation
