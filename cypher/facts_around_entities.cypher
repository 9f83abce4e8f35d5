// The graph neighbourhood of some entities, as facts_by_subject / facts_by_object read it for
// each (valid at $valid_time, believed at $known_at): per entity and side, how many rows and the
// first $limit of them (unknown starts first, then valid time, transaction time, row id).
// params: group_id, entity_ids, valid_time, known_at, all_versions, limit
UNWIND $entity_ids AS entity_id
CALL (entity_id) {
  MATCH (s:Entity {group_id: $group_id, id: entity_id})-[r]->(o:Entity {group_id: $group_id})
  USING INDEX SEEK s:Entity(id)
  WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
    // include: valid_at
    // include: believed_at
  WITH s, r, o
  ORDER BY r.valid_at IS NOT NULL, r.valid_at, r.created_at, r.id
  // include: fact_map
  RETURN count(r) AS as_subject, collect(row)[..$limit] AS subject_rows
}
CALL (entity_id) {
  MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id, id: entity_id})
  USING INDEX SEEK o:Entity(id)
  WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
    // include: valid_at
    // include: believed_at
  WITH s, r, o
  ORDER BY r.valid_at IS NOT NULL, r.valid_at, r.created_at, r.id
  // include: fact_map
  RETURN count(r) AS as_object, collect(row)[..$limit] AS object_rows
}
RETURN entity_id, as_subject + as_object AS near, subject_rows + object_rows AS rows
