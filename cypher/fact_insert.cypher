// New fact rows of one relation type: (subject)-[:REL {...}]->(object), each current one with its
// :CurrentFact node (row.current: its keys; null for a row written already expired, a copied
// version). The group keeps the list of the relation types it has written, and its counts of
// current rows (changes_write.cypher).
// params: group_id, search_group, relation, rows
// placeholders: rel
UNWIND $rows AS row
MATCH (s:Entity {group_id: $group_id, id: row.subject_id})
USING INDEX SEEK s:Entity(id)
MATCH (o:Entity {group_id: $group_id, id: row.object_id})
USING INDEX SEEK o:Entity(id)
CREATE (s)-[r:{{rel}} {id: row.id, group_id: $group_id}]->(o)
SET r.fact_id = row.fact_id, r.relation = row.relation, r.text = row.text,
    r.valid_at = row.valid_at, r.invalid_at = row.invalid_at,
    r.created_at = row.created_at, r.expired_at = row.expired_at,
    r.episode_ids = row.episode_ids, r.confidence = row.confidence, r.importance = row.importance,
    r.attributes_json = row.attributes_json
FOREACH (_ IN CASE WHEN row.current IS NULL THEN [] ELSE [1] END |
  // include: current_fact_create
)
WITH count(r) AS written, count(row.current) AS current_added, count(row.current.ends) AS ended_added
MATCH (g:MemoryGroup {group_id: $group_id})
SET g.relations = CASE WHEN $relation IN coalesce(g.relations, []) THEN g.relations
                       ELSE coalesce(g.relations, []) + $relation END,
    g.current_rows = g.current_rows + current_added, g.current_ended = g.current_ended + ended_added
RETURN written
