// assertions_of_key.cypher for one object ($object_key: its id, or '' for the endings of
// whatever held), through the key's index by object, kind and moment.
// params: group_id, subject_id, relation, object_key, kinds, at_from, at_through
MATCH (a:Assertion {group_id: $group_id, subject_id: $subject_id, relation: $relation})
USING INDEX SEEK a:Assertion(group_id, subject_id, relation, object_key, kind, at_key)
WHERE a.object_key = $object_key AND a.kind IN $kinds AND a.at_key >= $at_from AND a.at_key <= $at_through
// include: assertion_return
