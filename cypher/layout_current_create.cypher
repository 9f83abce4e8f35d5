// Upgrade: the :CurrentFact nodes of current rows written before they were kept.
// scope: admin
// params: group_id, search_group, rows
// placeholders: rel
UNWIND $rows AS row
MATCH ()-[r:{{rel}} {id: row.id}]->()
USING INDEX SEEK r:{{rel}}(id)
WHERE r.group_id = $group_id AND r.expired_at IS NULL
// include: current_fact_create
RETURN count(r) AS created
