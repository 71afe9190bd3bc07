"""One Hanabi game examined: the review of a played game (:mod:`.review`), the solution
graph of a position (:mod:`.graph`) and plain-text views of positions (:mod:`.render`)."""
