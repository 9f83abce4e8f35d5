// Mark entities whose summary waits for refresh_summaries (a write without summaries changed
// their facts), or clear the mark once it is refreshed.
// params: group_id, rows
UNWIND $rows AS row
MATCH (e:Entity {group_id: $group_id, id: row.id})
USING INDEX SEEK e:Entity(id)
WHERE coalesce(e.summary_due, false) <> row.due
SET e.summary_due = row.due
RETURN count(e) AS written
