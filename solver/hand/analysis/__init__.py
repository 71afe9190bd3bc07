"""One Hand game examined: the review of a played game (:mod:`.review`)."""
