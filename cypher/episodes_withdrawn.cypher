// The episodes of a group withdrawn (retract_episode) after $after, by reference time then
// insertion order, through the index on (group_id, retracted_at): a node never withdrawn is not in
// it. No hint: a connect makes the index on a database written before it, and a hint on an index
// still being filled fails, where the planner falls back to the group's episodes.
// params: group_id, after
MATCH (e:Episode {group_id: $group_id})
WHERE e.retracted_at > $after
// include: episode_return
ORDER BY e.reference_time, e.seq, e.id
