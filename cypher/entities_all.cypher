// Every entity of a group, in insertion order.
// params: group_id
MATCH (n:Entity {group_id: $group_id})
RETURN n.id AS id, n.group_id AS group_id, n.name AS name, n.type AS type,
       n.aliases AS aliases, n.summary AS summary,
       n.created_at.epochMillis * 1000 + n.created_at.microsecond % 1000 AS created_at
ORDER BY n.seq, n.id
