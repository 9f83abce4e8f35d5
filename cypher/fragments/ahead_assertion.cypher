// An assertion a as one map, the columns assertion_return.cypher gives (moments as integer
// microseconds), for the lists write_read_ahead.cypher collects.
a {.id, .group_id, .subject_id, .relation, .object_id, .kind,
   at: a.at.epochMillis * 1000 + a.at.microsecond % 1000,
   until: a.until.epochMillis * 1000 + a.until.microsecond % 1000,
   created_at: a.created_at.epochMillis * 1000 + a.created_at.microsecond % 1000,
   .seq, .episode_id, .text, .confidence, .importance, attributes: a.attributes_json}
