// Fact rows of one subject (the subject's relationships, any type).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, limit, ids
MATCH (s:Entity {group_id: $group_id, id: $subject_id})-[r]->(o:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
  AND ($relation IS NULL OR type(r) = $relation)
  AND ($subject_id IS NULL OR s.id = $subject_id)
  AND ($object_id IS NULL OR o.id = $object_id)
  AND ($fact_id IS NULL OR r.fact_id = $fact_id)
  AND ($ids IS NULL OR r.id IN $ids)
  // valid time: half-open [valid_at, invalid_at); a missing valid_at means since forever
  AND ($valid_time IS NULL
       OR ((r.valid_at IS NULL OR r.valid_at <= $valid_time)
           AND (r.invalid_at IS NULL OR r.invalid_at > $valid_time)))
  // transaction time: current rows, or what was believed at $known_at, or every version
  AND ($all_versions
       OR ($known_at IS NULL AND r.expired_at IS NULL)
       OR (r.created_at <= $known_at AND (r.expired_at IS NULL OR r.expired_at > $known_at)))
RETURN r.id AS id, r.fact_id AS fact_id, r.group_id AS group_id,
       s.id AS subject_id, s.name AS subject, type(r) AS relation,
       o.id AS object_id, o.name AS object, r.text AS text,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at,
       r.created_at AS created_at, r.expired_at AS expired_at,
       r.episode_ids AS episode_ids, r.confidence AS confidence, r.importance AS importance,
       r.attributes_json AS attributes_json
// valid_at with unknown starts first, then transaction time, then row id
ORDER BY r.valid_at IS NOT NULL, r.valid_at, r.created_at, r.id
LIMIT $limit
