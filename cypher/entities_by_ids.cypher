// params: group_id, ids
UNWIND $ids AS id
MATCH (n:Entity {group_id: $group_id, id: id})
USING INDEX SEEK n:Entity(id)
RETURN n.id AS id, n.group_id AS group_id, n.name AS name, n.type AS type,
       n.aliases AS aliases, n.summary AS summary,
       n.created_at.epochMillis * 1000 + n.created_at.microsecond % 1000 AS created_at
ORDER BY n.seq, n.id
