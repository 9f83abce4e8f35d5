// params: group_id, search_group, rows
UNWIND $rows AS row
CREATE (e:Episode {id: row.id, group_id: $group_id})
SET e.content = row.content, e.speaker = row.speaker, e.source = row.source,
    e.source_id = row.source_id, e.reference_time = row.reference_time,
    e.created_at = row.created_at, e.seq = row.seq, e.search_group = $search_group
