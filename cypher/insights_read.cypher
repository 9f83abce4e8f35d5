// Insight versions of a group: those about $subject_id (null: all); the current versions, those
// believed at $known_at, or every version ($all_versions); in the order they were written (then by id).
// params: group_id, subject_id, known_at, all_versions
MATCH (i:Insight {group_id: $group_id})
WHERE ($subject_id IS NULL OR $subject_id IN i.subject_ids)
  // include: believed_at(i)
RETURN i.id AS id, i.group_id AS group_id, i.text AS text, i.subject_ids AS subject_ids,
       i.subjects AS subjects, i.derived_from AS derived_from, i.importance AS importance,
       i.valid_at.epochMillis * 1000 + i.valid_at.microsecond % 1000 AS valid_at,
       i.invalid_at.epochMillis * 1000 + i.invalid_at.microsecond % 1000 AS invalid_at,
       i.created_at.epochMillis * 1000 + i.created_at.microsecond % 1000 AS created_at,
       i.expired_at.epochMillis * 1000 + i.expired_at.microsecond % 1000 AS expired_at,
       i.replaces AS replaces, i.producer AS producer, i.pattern AS pattern
ORDER BY i.created_at, i.id
