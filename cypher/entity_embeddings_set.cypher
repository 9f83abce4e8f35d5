// params: group_id, rows
UNWIND $rows AS row
MATCH (n:Entity {group_id: $group_id, id: row.id})
USING INDEX SEEK n:Entity(id)
SET n.embedding = row.vector
