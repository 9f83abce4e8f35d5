// params: group_id, source_id
MATCH (e:Episode {group_id: $group_id, source_id: $source_id})
RETURN e.id AS id, e.group_id AS group_id, e.content AS content, e.speaker AS speaker,
       e.source AS source, e.source_id AS source_id, e.reference_time AS reference_time,
       e.created_at AS created_at
LIMIT 1
