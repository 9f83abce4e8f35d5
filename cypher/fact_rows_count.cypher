// How many fact rows (every version) a group holds (benchmarks, admin).
// params: group_id
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
RETURN count(r) AS rows
