"""The deterministic rule engine: plain functions from (message, context, tool results) to
the next tool call or the final reply."""
