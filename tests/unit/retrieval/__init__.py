"""Tests of the retrieval engines: embedders, vector index, chunking, text and memory extraction."""
