// Fact rows of a whole group, any relation.
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, limit, ids
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->(o)
USING INDEX SEEK s:Entity(group_id)
// include: fact_filters
// include: fact_return
// valid_at with unknown starts first, then transaction time, then row id
ORDER BY r.valid_at IS NOT NULL, r.valid_at, r.created_at, r.id
LIMIT $limit
