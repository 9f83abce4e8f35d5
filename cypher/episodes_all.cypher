// Every episode of a group, by reference time then insertion order.
// params: group_id
MATCH (e:Episode {group_id: $group_id})
RETURN e.id AS id, e.group_id AS group_id, e.content AS content, e.speaker AS speaker,
       e.source AS source, e.source_id AS source_id, e.reference_time AS reference_time,
       e.created_at AS created_at
ORDER BY e.reference_time, e.seq, e.id
