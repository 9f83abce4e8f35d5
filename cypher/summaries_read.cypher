// Entity summary versions of a group: one entity's ($entity_id) or every entity's (null); the
// current versions, those believed at $known_at, or every version ($all_versions).
// params: group_id, entity_id, known_at, all_versions
MATCH (s:EntitySummary {group_id: $group_id})
WHERE ($entity_id IS NULL OR s.entity_id = $entity_id)
  // include: believed_at(s)
RETURN s.id AS id, s.group_id AS group_id, s.entity_id AS entity_id, s.entity AS entity,
       s.text AS text, s.method AS method, s.fact_ids AS fact_ids, s.created_at AS created_at,
       s.expired_at AS expired_at
