// What a summary refresh reads of the entities of the list summary_ids, as the statement that
// includes this leaves them: each entity (entities_read), its current summary (summaries_read),
// and its current rows not ended at $at_micros, newest first (facts_newest.cypher), the first
// $newest_limit of them (newest_read). Times as microseconds since the epoch (the driver decodes
// a DATETIME in Python, ~50 µs each).
// params: group_id, at_micros, newest_limit
CALL (summary_ids) {
  UNWIND summary_ids AS entity_id
  MATCH (n:Entity {group_id: $group_id, id: entity_id})
  USING INDEX SEEK n:Entity(id)
  RETURN collect({id: n.id, group_id: n.group_id, name: n.name, type: n.type, aliases: n.aliases,
                  summary: n.summary, created_at: n.created_at.epochMillis * 1000 + n.created_at.microsecond % 1000, seq: n.seq}) AS entities_read
}
CALL (summary_ids) {
  UNWIND summary_ids AS entity_id
  MATCH (s:EntitySummary {group_id: $group_id, entity_id: entity_id})
  USING INDEX SEEK s:EntitySummary(group_id, entity_id)
  WHERE s.entity_id = entity_id AND s.expired_at IS NULL
  RETURN collect(s {.id, .group_id, .entity_id, .entity, .text, .method, .fact_ids,
                    created_at: s.created_at.epochMillis * 1000 + s.created_at.microsecond % 1000,
                    expired_at: s.expired_at.epochMillis * 1000 + s.expired_at.microsecond % 1000}) AS summaries_read
}
CALL (summary_ids) {
  UNWIND summary_ids AS entity_id
  CALL (entity_id) {
    CALL (entity_id) {
      MATCH (c:CurrentFact {group_id: $group_id, subject_id: entity_id})
      USING INDEX SEEK c:CurrentFact(group_id, subject_id, newest)
      WHERE c.newest >= ''
      RETURN c ORDER BY c.group_id, c.subject_id, c.newest LIMIT $newest_limit
      UNION
      MATCH (c:CurrentFact {group_id: $group_id, object_id: entity_id})
      USING INDEX SEEK c:CurrentFact(group_id, object_id, newest)
      WHERE c.newest >= ''
      RETURN c ORDER BY c.group_id, c.object_id, c.newest LIMIT $newest_limit
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
    MATCH ()-[r]->()
    WHERE elementId(r) = c.rel
    WITH entity_id, c, r, startNode(r) AS s, endNode(r) AS o
    WHERE r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
    WITH entity_id, r, s, o
    ORDER BY coalesce(r.valid_at, r.created_at) DESC, r.created_at DESC, type(r), s.id, o.id, r.id
    LIMIT $newest_limit
    RETURN collect({for_entity: entity_id, id: r.id, fact_id: r.fact_id, group_id: r.group_id,
                    subject_id: s.id, subject: s.name, relation: type(r), object_id: o.id,
                    object: o.name, text: r.text,
                    valid_at: r.valid_at.epochMillis * 1000 + r.valid_at.microsecond % 1000,
                    invalid_at: r.invalid_at.epochMillis * 1000 + r.invalid_at.microsecond % 1000,
                    created_at: r.created_at.epochMillis * 1000 + r.created_at.microsecond % 1000,
                    expired_at: r.expired_at.epochMillis * 1000 + r.expired_at.microsecond % 1000, episode_ids: r.episode_ids,
                    confidence: r.confidence, importance: r.importance,
                    attributes: r.attributes_json}) AS newest
  }
  RETURN collect(newest) AS newest_read
}
