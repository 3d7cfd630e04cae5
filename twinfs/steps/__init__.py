"""The pipeline's steps, one module each: land (items filed, cut into passages, indexed), read (windows read into
records), fold (records into pages), and tidy (what a person edited by hand, committed and indexed again). Their
order is jobs.STEPS's."""
