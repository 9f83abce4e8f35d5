// The columns of a fact row (r from s to o) as one map `row` (fact_return.cypher's columns), for
// statements that collect rows (moments as integer microseconds, as fact_return.cypher says).
WITH s, r, o, {id: r.id, fact_id: r.fact_id, group_id: r.group_id, subject_id: s.id, subject: s.name,
               relation: type(r), object_id: o.id, object: o.name, text: r.text,
               valid_at: r.valid_at.epochMillis * 1000 + r.valid_at.microsecond % 1000, invalid_at: r.invalid_at.epochMillis * 1000 + r.invalid_at.microsecond % 1000,
               created_at: r.created_at.epochMillis * 1000 + r.created_at.microsecond % 1000, expired_at: r.expired_at.epochMillis * 1000 + r.expired_at.microsecond % 1000,
               episode_ids: r.episode_ids, confidence: r.confidence,
               importance: r.importance, attributes: r.attributes_json} AS row
