// Every episode of a group, by reference time then insertion order.
// params: group_id
MATCH (e:Episode {group_id: $group_id})
// include: episode_return
ORDER BY e.reference_time, e.seq, e.id
