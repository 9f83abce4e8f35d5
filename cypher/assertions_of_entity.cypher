// Every assertion with one entity as subject or object (each side through its own index).
// params: group_id, entity_id
MATCH (a:Assertion {group_id: $group_id, subject_id: $entity_id})
USING INDEX SEEK a:Assertion(group_id, subject_id, relation)
WHERE a.relation IS NOT NULL
// include: assertion_return
UNION
MATCH (a:Assertion {group_id: $group_id, object_id: $entity_id})
USING INDEX SEEK a:Assertion(group_id, object_id)
// include: assertion_return
