// The columns of an episode e, as the stores' record decoder reads them
// (temporal_graph/core/stores/records.py). Moments go as integer microseconds since the epoch,
// as in fact_return.cypher: the driver's DateTime objects cost some 100 µs each to decode.
RETURN e.id AS id, e.group_id AS group_id, e.content AS content, e.speaker AS speaker,
       e.source AS source, e.source_id AS source_id,
       e.reference_time.epochMillis * 1000 + e.reference_time.microsecond % 1000 AS reference_time,
       e.created_at.epochMillis * 1000 + e.created_at.microsecond % 1000 AS created_at,
       e.retracted_at.epochMillis * 1000 + e.retracted_at.microsecond % 1000 AS retracted_at,
       e.erased_at.epochMillis * 1000 + e.erased_at.microsecond % 1000 AS erased_at
