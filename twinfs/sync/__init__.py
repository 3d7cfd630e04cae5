"""Sync: one end user's vault shared by machines through any git remote; git is the engine. remote.py: which
remotes, fetch and push, what the last sync noted; encrypted.py: remotes that cannot read the memory (gcrypt);
merge.py: the merge rule; run.py: one sync, step by step."""
