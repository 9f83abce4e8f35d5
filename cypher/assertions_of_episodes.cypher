// Every assertion some episodes made: their statements, and withdrawals of them.
// params: group_id, episode_ids
UNWIND $episode_ids AS episode_id
MATCH (a:Assertion {group_id: $group_id, episode_id: episode_id})
// include: assertion_return
