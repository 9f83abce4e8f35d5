// Forget, step 3 of 5: the group's episodes.
// params: group_id
MATCH (e:Episode {group_id: $group_id})
DETACH DELETE e
RETURN count(*) AS removed
