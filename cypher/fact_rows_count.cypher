// How many fact rows (every version) a group holds (benchmarks, admin).
// params: group_id
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->()
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
RETURN count(r) AS rows
