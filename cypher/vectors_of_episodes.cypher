// The stored vectors of episodes by id (copying a memory between stores).
// params: group_id, ids
UNWIND $ids AS episode_id
MATCH (n:Episode {group_id: $group_id, id: episode_id})
USING INDEX SEEK n:Episode(id)
WHERE n.embedding IS NOT NULL
RETURN n.id AS id, n.embedding AS vector
