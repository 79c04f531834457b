"""The labelled corpora the assistant is measured on, and their readers (see README.md).

Tests, benchmarks and the intent model's training script import it; the service never does.
"""
