"""Imports: a person's past chats brought into their memory. Each format reads its export as a stream of
conversations (`source.Conversation`), never whole; `run.import_file` adds them in batches through the same
Memory.add the API uses, so what was imported before a failure stays, and a second import of the same file adds
nothing (each message keeps the export's own id)."""
