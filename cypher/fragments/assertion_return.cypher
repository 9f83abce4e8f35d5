// The columns of an assertion a, as the stores' record decoder reads them
// (temporal_graph/core/stores/records.py). Moments go as integer microseconds (episode_return.cypher).
RETURN a.id AS id, a.group_id AS group_id, a.subject_id AS subject_id, a.relation AS relation,
       a.object_id AS object_id, a.kind AS kind,
       a.at.epochMillis * 1000 + a.at.microsecond % 1000 AS at,
       a.until.epochMillis * 1000 + a.until.microsecond % 1000 AS until,
       a.created_at.epochMillis * 1000 + a.created_at.microsecond % 1000 AS created_at,
       a.seq AS seq, a.episode_id AS episode_id, a.text AS text,
       a.confidence AS confidence, a.importance AS importance,
       a.attributes_json AS attributes
