// params: group_id, source_id
MATCH (e:Episode {group_id: $group_id, source_id: $source_id})
// include: episode_return
LIMIT 1
