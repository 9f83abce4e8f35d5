// Texts and vectors of the embedded versions of some facts (a new version of a fact with the
// same text re-uses its vector). {{types}}: the group's relations.
// params: group_id, fact_ids
// placeholders: types
MATCH (:Entity {group_id: $group_id})-[r:{{types}}]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IN $fact_ids AND r.embedding IS NOT NULL
RETURN r.text AS text, r.embedding AS vector
