// Assertions of one (subject, relation) that a write can change the reading of: of some kinds, of
// one object (or, with $endings_of_all, the endings of whatever held: no object), told for a
// moment in [$since, $through]. An undated one counts as the earliest; a null bound is no bound.
// params: group_id, subject_id, relation, kinds, object_id, endings_of_all, since, through
MATCH (a:Assertion {group_id: $group_id, subject_id: $subject_id, relation: $relation})
WHERE a.kind IN $kinds
  AND ($object_id IS NULL OR a.object_id = $object_id)
  AND (NOT $endings_of_all OR a.object_id IS NULL)
  AND ($since IS NULL OR a.at >= $since)
  AND ($through IS NULL OR a.at IS NULL OR a.at <= $through)
// include: assertion_return
