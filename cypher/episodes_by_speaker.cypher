// The ids of the group's episodes whose speaker is exactly one of $speakers, in the order told.
// params: group_id, speakers
MATCH (e:Episode {group_id: $group_id})
WHERE e.speaker IN $speakers
RETURN e.id AS id
ORDER BY e.reference_time, e.seq, e.id
