// The fact row of a :CurrentFact node c: its relationship, looked up by element id (kept by the
// node and checked against the row id), and the row's columns.
// params: group_id
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id})
WHERE elementId(r) = c.rel AND r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
// include: fact_return
