// rows_of_key.cypher, latest start first (an unknown start last).
// params: group_id, subject_id, object_id, since, before, ending_after, limit
// placeholders: rel
MATCH (s:Entity {group_id: $group_id, id: $subject_id})-[r:{{rel}}]->(o:Entity {group_id: $group_id})
// include: key_rows_filters
// include: fact_return
ORDER BY r.valid_at IS NULL, r.valid_at DESC
LIMIT $limit
