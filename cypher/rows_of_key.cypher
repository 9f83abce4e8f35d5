// Current rows of one (subject, relation), of one object when $object_id is set, starting in
// [$since, $before) and, with $ending_after, still holding after it: the stretch of a timeline
// a write can change. An unknown start counts as the earliest; a null bound is no bound.
// Earliest start first.
// params: group_id, subject_id, object_id, since, before, ending_after, limit
// placeholders: rel
MATCH (s:Entity {group_id: $group_id, id: $subject_id})-[r:{{rel}}]->(o:Entity {group_id: $group_id})
// include: key_rows_filters
// include: fact_return
ORDER BY r.valid_at IS NOT NULL, r.valid_at
LIMIT $limit
