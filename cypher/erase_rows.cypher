// Erase, step 1: fact versions removed for good, by row id (a current one out of the group's counts).
// params: group_id, ids
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->()
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.id IN $ids
WITH r, r.id AS row_id
DELETE r
WITH row_id
OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, row_id: row_id})
WITH c, c.ends AS ends
DELETE c
WITH count(*) AS removed, count(c) AS current_removed, count(ends) AS ended_removed
OPTIONAL MATCH (g:MemoryGroup {group_id: $group_id})
SET g.current_rows = g.current_rows - current_removed, g.current_ended = g.current_ended - ended_removed
RETURN removed
