// params: group_id, ids
UNWIND $ids AS id
MATCH (e:Episode {group_id: $group_id, id: id})
USING INDEX SEEK e:Episode(id)
// include: episode_return
ORDER BY e.reference_time, e.seq, e.id
