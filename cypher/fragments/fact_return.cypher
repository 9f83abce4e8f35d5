// The columns of a fact row (r from s to o), as the stores' record decoder reads them
// (temporal_graph/core/stores/records.py).
RETURN r.id AS id, r.fact_id AS fact_id, r.group_id AS group_id,
       s.id AS subject_id, s.name AS subject, type(r) AS relation,
       o.id AS object_id, o.name AS object, r.text AS text,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at,
       r.created_at AS created_at, r.expired_at AS expired_at,
       r.episode_ids AS episode_ids, r.confidence AS confidence, r.importance AS importance,
       r.attributes_json AS attributes
