"""Ingestion: episodes → extracted facts → resolved entities and times → writes to the memory."""
