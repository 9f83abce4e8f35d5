// One entity's summary versions: the current ones, those believed at $known_at, or every version
// ($all_versions). A statement of its own so the plan seeks the (group_id, entity_id) index: with
// "$entity_id IS NULL OR ..." it scanned every summary of the group, once per entity a bulk load
// summarised.
// params: group_id, entity_id, known_at, all_versions
MATCH (s:EntitySummary {group_id: $group_id, entity_id: $entity_id})
USING INDEX SEEK s:EntitySummary(group_id, entity_id)
WHERE s.entity_id = $entity_id
  // include: believed_at(s)
RETURN s.id AS id, s.group_id AS group_id, s.entity_id AS entity_id, s.entity AS entity,
       s.text AS text, s.method AS method, s.fact_ids AS fact_ids,
       s.created_at.epochMillis * 1000 + s.created_at.microsecond % 1000 AS created_at,
       s.expired_at.epochMillis * 1000 + s.expired_at.microsecond % 1000 AS expired_at
