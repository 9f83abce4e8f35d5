// What rows_of_key* and rows_of_pair* check beyond their index seek: with $ending_after (in
// microseconds), only rows still holding after it (c.ends: the end of a row that has one).
// params: ending_after
  AND ($ending_after IS NULL OR c.ends IS NULL OR c.ends > $ending_after)
