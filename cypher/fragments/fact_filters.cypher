// The WHERE clause of every fact read: a fact row r of the group (from s to o), narrowed by the
// optional filters (a null parameter filters nothing), valid at $valid_time, believed at $known_at.
// params: group_id, relation, subject_id, object_id, fact_id, ids
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
  AND ($relation IS NULL OR type(r) = $relation)
  AND ($subject_id IS NULL OR s.id = $subject_id)
  AND ($object_id IS NULL OR o.id = $object_id)
  AND ($fact_id IS NULL OR r.fact_id = $fact_id)
  AND ($ids IS NULL OR r.id IN $ids)
  // include: valid_at
  // include: believed_at
