"""The pipeline's steps, one module each, each a class that takes an end user's Space and says its lane and the
phase it marks: land (Landing: items filed, cut into passages, indexed; `landed`), read (Reading: windows read
into records; `read`), fold (Folding: records into pages; `folded`), and tidy (Mending: hand edits committed and
indexed again first; Tidying: what landing left for later). Their order is jobs.STEPS's."""
