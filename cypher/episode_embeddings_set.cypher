// params: group_id, rows
UNWIND $rows AS row
MATCH (e:Episode {group_id: $group_id, id: row.id})
USING INDEX SEEK e:Episode(id)
SET e.embedding = row.vector
