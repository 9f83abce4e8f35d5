// facts_newest.cypher for several entities at once (a write refreshing the summaries of the
// entities it changed reads them together): for each of $entity_ids, its current rows not ended
// at $at_micros, newest first, $limit of them after $skip, with the entity they were read for.
// params: group_id, entity_ids, at_micros, skip, limit
UNWIND $entity_ids AS entity_id
CALL (entity_id) {
  CALL (entity_id) {
    MATCH (c:CurrentFact {group_id: $group_id, subject_id: entity_id})
    USING INDEX SEEK c:CurrentFact(group_id, subject_id, newest)
    WHERE c.newest >= ''
    RETURN c ORDER BY c.group_id, c.subject_id, c.newest LIMIT $skip + $limit
    UNION
    MATCH (c:CurrentFact {group_id: $group_id, object_id: entity_id})
    USING INDEX SEEK c:CurrentFact(group_id, object_id, newest)
    WHERE c.newest >= ''
    RETURN c ORDER BY c.group_id, c.object_id, c.newest LIMIT $skip + $limit
    UNION
    MATCH (c:CurrentFact {group_id: $group_id, subject_id: entity_id})
    USING INDEX SEEK c:CurrentFact(group_id, subject_id, ends)
    WHERE c.ends > $at_micros
    RETURN c
    UNION
    MATCH (c:CurrentFact {group_id: $group_id, object_id: entity_id})
    USING INDEX SEEK c:CurrentFact(group_id, object_id, ends)
    WHERE c.ends > $at_micros
    RETURN c
  }
  MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id})
  WHERE elementId(r) = c.rel AND r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
  WITH r, s, o
  ORDER BY coalesce(r.valid_at, r.created_at) DESC, r.created_at DESC, type(r), s.id, o.id, r.id
  SKIP $skip
  LIMIT $limit
  // include: fact_return
}
RETURN entity_id AS for_entity, id, fact_id, group_id, subject_id, subject, relation, object_id, object,
       text, valid_at, invalid_at, created_at, expired_at, episode_ids, confidence, importance, attributes
