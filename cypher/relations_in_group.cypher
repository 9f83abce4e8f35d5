// Relation names that have fact rows (any version) in a group.
// params: group_id
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
RETURN DISTINCT type(r) AS relation
ORDER BY relation
