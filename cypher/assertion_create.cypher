// The append-only input rows of the temporal rules, linked to their subject entity.
// params: group_id, rows
UNWIND $rows AS row
CREATE (a:Assertion {id: row.id, group_id: $group_id})
SET a.subject_id = row.subject_id, a.relation = row.relation, a.object_id = row.object_id,
    a.kind = row.kind, a.at = row.at, a.until = row.until, a.created_at = row.created_at,
    a.seq = row.seq, a.episode_id = row.episode_id, a.text = row.text,
    a.confidence = row.confidence, a.importance = row.importance,
    a.attributes_json = row.attributes_json
WITH a, row
MATCH (s:Entity {group_id: $group_id, id: row.subject_id})
CREATE (a)-[:ABOUT]->(s)
