// Whether the group still has a fact row of one relationship type: the first entry of the type's
// group index (the group lists the types it has written; an erasure can leave a type empty).
// params: group_id
// placeholders: rel
MATCH ()-[r:{{rel}}]->()
USING INDEX SEEK r:{{rel}}(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
RETURN type(r) AS relation
LIMIT 1
