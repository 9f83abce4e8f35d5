// How many current fact rows of a group are valid at the moment $at_key (every one when null),
// counted on their :CurrentFact nodes (half the time of expanding every relationship of the
// group; search weighs its graph ranking by this count). This is the valid_at fragment over the
// nodes' keys, in microseconds (current_fact_create): an unknown start's key_start sorts before
// every date, and ends is null for a row with no end.
// params: group_id, at_key
MATCH (c:CurrentFact {group_id: $group_id})
WHERE $at_key IS NULL OR (c.key_start <= $at_key AND (c.ends IS NULL OR c.ends > $at_key))
RETURN count(c) AS n
