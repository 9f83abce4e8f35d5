// The columns of a fact row (r from s to o) as one map `row` (fact_return.cypher's columns), for
// statements that collect rows.
WITH s, r, o, {id: r.id, fact_id: r.fact_id, group_id: r.group_id, subject_id: s.id, subject: s.name,
               relation: type(r), object_id: o.id, object: o.name, text: r.text,
               valid_at: r.valid_at, invalid_at: r.invalid_at, created_at: r.created_at,
               expired_at: r.expired_at, episode_ids: r.episode_ids, confidence: r.confidence,
               importance: r.importance, attributes: r.attributes_json} AS row
