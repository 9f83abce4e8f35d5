// Assertions of one (subject, relation) that a write can change the reading of: of some kinds,
// told for a moment in [$at_from, $at_through] (at_key: microseconds, an undated one before every
// date), through the key's index by kind and moment.
// params: group_id, subject_id, relation, kinds, at_from, at_through
MATCH (a:Assertion {group_id: $group_id, subject_id: $subject_id, relation: $relation})
USING INDEX SEEK a:Assertion(group_id, subject_id, relation, kind, at_key)
WHERE a.kind IN $kinds AND a.at_key >= $at_from AND a.at_key <= $at_through
// include: assertion_return
