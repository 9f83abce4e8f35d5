// New insight versions, stored as given (expired ones too), each with an (:InsightEvidence) node
// per record it cites, so a write finds the insights of the rows it expires through an index.
// params: group_id, rows
UNWIND $rows AS row
CREATE (i:Insight {id: row.id, group_id: $group_id})
SET i.text = row.text, i.subject_ids = row.subject_ids, i.subjects = row.subjects,
    i.derived_from = row.derived_from, i.importance = row.importance, i.valid_at = row.valid_at,
    i.invalid_at = row.invalid_at, i.created_at = row.created_at, i.expired_at = row.expired_at,
    i.replaces = row.replaces, i.producer = row.producer, i.pattern = row.pattern
FOREACH (cited IN row.derived_from |
  CREATE (:InsightEvidence {group_id: $group_id, cited_id: cited, insight_id: row.id}))
RETURN count(i) AS written
