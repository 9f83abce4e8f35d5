// How many fact rows of a group a fact read would return (search weighs the graph ranking by it).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, ids
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id})
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
RETURN count(r) AS n
