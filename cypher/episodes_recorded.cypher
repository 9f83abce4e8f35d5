// The transaction time each of a group's episodes was recorded at, by id: a read as known at a
// time cuts a fact row's citations to the episodes recorded by then (core/citations.py).
// params: group_id, ids
UNWIND $ids AS id
MATCH (e:Episode {group_id: $group_id, id: id})
USING INDEX SEEK e:Episode(id)
RETURN e.id AS id, e.created_at.epochMillis * 1000 + e.created_at.microsecond % 1000 AS created_at
