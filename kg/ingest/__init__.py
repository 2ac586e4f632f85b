"""Ingest: HERB records -> declarative mapping + named rules -> quads -> a store on disk, then SHACL validation."""
