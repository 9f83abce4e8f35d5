// current_row.cypher without the row's provenance (episode_ids is an empty list): what a write
// reads of a key's rows (rows_of_key*, rows_of_pair*), so a fact confirmed N times does not hand
// its N episode ids back on every confirmation; fact_add_provenance skips the ids a row cites.
// Its ends are matched bare (r.group_id pins the row to the group): matched by label and group,
// the planner may seek every entity of the group and expand each instead of seeking r by its
// element id (30 search candidates read 29,000 relationships at 1,000 facts: 0.4 s).
// params: group_id
MATCH (s)-[r]->(o)
WHERE elementId(r) = c.rel AND r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
RETURN r.id AS id, r.fact_id AS fact_id, r.group_id AS group_id,
       s.id AS subject_id, s.name AS subject, type(r) AS relation,
       o.id AS object_id, o.name AS object, r.text AS text,
       r.valid_at.epochMillis * 1000 + r.valid_at.microsecond % 1000 AS valid_at,
       r.invalid_at.epochMillis * 1000 + r.invalid_at.microsecond % 1000 AS invalid_at,
       r.created_at.epochMillis * 1000 + r.created_at.microsecond % 1000 AS created_at,
       r.expired_at.epochMillis * 1000 + r.expired_at.microsecond % 1000 AS expired_at,
       [] AS episode_ids, r.confidence AS confidence, r.importance AS importance,
       r.attributes_json AS attributes
