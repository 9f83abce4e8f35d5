// The append-only input rows of the temporal rules. They name their entities by id: a link to the
// subject would show in every exploring `MATCH (a)-[r]->(b)` and grow the entity's degree.
// at_key and object_key are the moment and object as the key indexes hold them (schema.cypher).
// params: group_id, rows
UNWIND $rows AS row
CREATE (a:Assertion {id: row.id, group_id: $group_id})
SET a.subject_id = row.subject_id, a.relation = row.relation, a.object_id = row.object_id,
    a.kind = row.kind, a.at = row.at, a.until = row.until, a.created_at = row.created_at,
    a.seq = row.seq, a.episode_id = row.episode_id, a.text = row.text,
    a.confidence = row.confidence, a.importance = row.importance,
    a.attributes_json = row.attributes_json, a.at_key = row.at_key, a.object_key = row.object_key
