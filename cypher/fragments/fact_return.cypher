// The columns of a fact row (r from s to o), as the stores' record decoder reads them
// (temporal_graph/core/stores/records.py). Moments go as integer microseconds since the epoch
// (epochMillis rounds down before 1970, epochSeconds toward zero): the driver made each a
// DateTime object and the decoder a Python one from it, some 35 µs a moment, most of the time of a
// search's few hundred rows. Never sort on them here: sort on the stored moments.
RETURN r.id AS id, r.fact_id AS fact_id, r.group_id AS group_id,
       s.id AS subject_id, s.name AS subject, type(r) AS relation,
       o.id AS object_id, o.name AS object, r.text AS text,
       r.valid_at.epochMillis * 1000 + r.valid_at.microsecond % 1000 AS valid_at,
       r.invalid_at.epochMillis * 1000 + r.invalid_at.microsecond % 1000 AS invalid_at,
       r.created_at.epochMillis * 1000 + r.created_at.microsecond % 1000 AS created_at,
       r.expired_at.epochMillis * 1000 + r.expired_at.microsecond % 1000 AS expired_at,
       r.episode_ids AS episode_ids, r.confidence AS confidence, r.importance AS importance,
       r.attributes_json AS attributes
