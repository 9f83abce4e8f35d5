// How many current fact rows of a group are valid at a moment (current_valid_count.cypher): the
// graph weight of each search that names an entity. Every current row: $start_key after every
// date, $end_key before every date.
// params: group_id, start_key, end_key
// include: current_valid_count
RETURN current_valid AS n
