// Close current rows in transaction time: the only change a fact row ever receives (its
// :CurrentFact node goes with it, and out of the group's counts).
// params: group_id, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
USING INDEX SEEK r:{{rel}}(id)
WHERE r.group_id = $group_id AND r.expired_at IS NULL
SET r.expired_at = row.expired_at, r.search_group = null
WITH r
OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, row_id: r.id})
WITH r, c, c.ends AS ends
DELETE c
WITH count(DISTINCT r) AS written, count(c) AS current_removed, count(ends) AS ended_removed
OPTIONAL MATCH (g:MemoryGroup {group_id: $group_id})
SET g.current_rows = g.current_rows - current_removed, g.current_ended = g.current_ended - ended_removed
RETURN written
