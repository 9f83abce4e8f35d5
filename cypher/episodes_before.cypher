// The latest $limit episodes with reference_time before $before (the store returns them oldest first).
// params: group_id, before, limit
MATCH (e:Episode {group_id: $group_id})
WHERE e.reference_time < $before
RETURN e.id AS id, e.group_id AS group_id, e.content AS content, e.speaker AS speaker,
       e.source AS source, e.source_id AS source_id, e.reference_time AS reference_time,
       e.created_at AS created_at
ORDER BY e.reference_time DESC, e.seq DESC, e.id DESC
LIMIT $limit
