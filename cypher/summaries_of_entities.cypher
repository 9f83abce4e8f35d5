// summaries_of_entity.cypher for several entities at once (a write refreshing the summaries of
// the entities it changed reads them together): each entity's current summary versions, those
// believed at $known_at, or every version ($all_versions).
// params: group_id, entity_ids, known_at, all_versions
UNWIND $entity_ids AS entity_id
MATCH (s:EntitySummary {group_id: $group_id, entity_id: entity_id})
USING INDEX s:EntitySummary(group_id, entity_id)
WHERE s.entity_id = entity_id
  // include: believed_at(s)
RETURN s.id AS id, s.group_id AS group_id, s.entity_id AS entity_id, s.entity AS entity,
       s.text AS text, s.method AS method, s.fact_ids AS fact_ids, s.created_at AS created_at,
       s.expired_at AS expired_at
