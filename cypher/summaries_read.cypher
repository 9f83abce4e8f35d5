// Every entity's summary versions in a group (one entity's: summaries_of_entity): the current
// versions, those believed at $known_at, or every version ($all_versions).
// params: group_id, known_at, all_versions
MATCH (s:EntitySummary {group_id: $group_id})
WHERE s.group_id = $group_id
  // include: believed_at(s)
RETURN s.id AS id, s.group_id AS group_id, s.entity_id AS entity_id, s.entity AS entity,
       s.text AS text, s.method AS method, s.fact_ids AS fact_ids,
       s.created_at.epochMillis * 1000 + s.created_at.microsecond % 1000 AS created_at,
       s.expired_at.epochMillis * 1000 + s.expired_at.microsecond % 1000 AS expired_at
