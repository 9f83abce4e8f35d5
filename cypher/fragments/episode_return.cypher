// The columns of an episode e, as the stores' record decoder reads them
// (temporal_graph/core/stores/records.py).
RETURN e.id AS id, e.group_id AS group_id, e.content AS content, e.speaker AS speaker,
       e.source AS source, e.source_id AS source_id, e.reference_time AS reference_time,
       e.created_at AS created_at, e.retracted_at AS retracted_at, e.erased_at AS erased_at
