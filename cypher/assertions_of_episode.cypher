// Every assertion citing one episode: its statements and withdrawals of it.
// params: group_id, episode_id
MATCH (a:Assertion {group_id: $group_id, episode_id: $episode_id})
// include: assertion_return
