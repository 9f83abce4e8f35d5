// How many fact rows of a group were valid at $valid_time as believed at $known_at, without reading
// the group: its current rows valid then (current_valid_count.cypher), less those recorded after
// $known_at, plus the rows believed then and expired since.
// Per relation type the planner reads the changed rows from the type's group_id, created_at or
// expired_at index, whichever its statistics say is smallest.
// params: group_id, start_key, end_key, valid_time, known_at
// placeholders: types
// include: current_valid_count
CALL () {
  CALL () {
    // each type of {{types}}, joined by UNION ALL
    MATCH ()-[r:{{type}}]->()
    WHERE r.group_id = $group_id AND r.expired_at IS NULL AND r.fact_id IS NOT NULL
      // include: recorded_since
      // include: valid_at
    RETURN -1 AS change
    UNION ALL
    MATCH ()-[r:{{type}}]->()
    WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
      // include: expired_since
      // include: valid_at
    RETURN 1 AS change
    // end each
  }
  RETURN coalesce(sum(change), 0) AS changed
}
RETURN current_valid + changed AS n
