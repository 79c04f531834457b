"""The assistant.

`rules/` is pure: intent detection, extraction, replies and plans over plain data, with no
I/O. The rest wires it into the OpenAI Agents SDK: a `Model` over the rules, the in-process
MCP connection, and the runner that turns a chat turn into tool calls and a reply.
"""
