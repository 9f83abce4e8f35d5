// Upgrade: the list of relation types of each group written before the list was kept.
// scope: admin
// params:
MATCH (g:MemoryGroup)
WHERE g.relations IS NULL
CALL (g) {
  OPTIONAL MATCH (:Entity {group_id: g.group_id})-[r]->(:Entity {group_id: g.group_id})
  WHERE r.group_id = g.group_id AND r.fact_id IS NOT NULL
  RETURN collect(DISTINCT type(r)) AS relations
}
SET g.relations = relations
RETURN count(g) AS upgraded
