// The latest $limit episodes with reference_time before $before, not withdrawn nor erased (the
// store returns them oldest first).
// params: group_id, before, limit
MATCH (e:Episode {group_id: $group_id})
WHERE e.reference_time < $before AND e.retracted_at IS NULL AND e.erased_at IS NULL
// include: episode_return
ORDER BY e.reference_time DESC, e.seq DESC, e.id DESC
LIMIT $limit
