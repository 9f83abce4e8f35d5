// The fact row of a :CurrentFact node c: its relationship, looked up by element id (kept by the
// node and checked against the row id), and the row's columns.
// Its ends are matched bare (r.group_id pins the row to the group): matched by label and group,
// the planner may seek every entity of the group and expand each instead of seeking r by its
// element id (30 search candidates read 29,000 relationships at 1,000 facts: 0.4 s).
// params: group_id
MATCH (s)-[r]->(o)
WHERE elementId(r) = c.rel AND r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
// include: fact_return
