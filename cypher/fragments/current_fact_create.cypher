// The :CurrentFact node of a current fact row r of the group (row: its subject and object ids,
// and row.current its keys; see Neo4jStore's module docstring). The row carries its group's
// search token while it is current, so the full-text index finds a group's current rows alone.
// params: group_id, search_group
CREATE (:CurrentFact {group_id: $group_id, row_id: r.id, rel: elementId(r), relation: type(r),
                      subject_id: row.subject_id, object_id: row.object_id, key_start: row.current.key_start,
                      newest: row.current.newest, ends: row.current.ends})
SET r.search_group = $search_group
