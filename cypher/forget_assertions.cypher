// Forget, step 2 of 5: the group's assertions.
// params: group_id
MATCH (a:Assertion {group_id: $group_id})
DETACH DELETE a
RETURN count(*) AS removed
