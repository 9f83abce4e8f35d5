// Fact rows of one subject (the subject's relationships, any type).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, limit, ids
MATCH (s:Entity {group_id: $group_id, id: $subject_id})-[r]->(o:Entity {group_id: $group_id})
USING INDEX SEEK s:Entity(id)
// include: fact_filters
// include: fact_return
// valid_at with unknown starts first, then transaction time, then row id
ORDER BY r.valid_at IS NOT NULL, r.valid_at, r.created_at, r.id
LIMIT $limit
