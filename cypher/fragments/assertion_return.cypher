// The columns of an assertion a, as the stores' record decoder reads them
// (temporal_graph/core/stores/records.py).
RETURN a.id AS id, a.group_id AS group_id, a.subject_id AS subject_id, a.relation AS relation,
       a.object_id AS object_id, a.kind AS kind, a.at AS at, a.until AS until,
       a.created_at AS created_at, a.seq AS seq, a.episode_id AS episode_id, a.text AS text,
       a.confidence AS confidence, a.importance AS importance,
       a.attributes_json AS attributes
