"""What the product does with stored data, for every edge alike (REST, MCP, chat, backups):
tasks, lists, users, conversations, the calendar feed. Below the chat turn and the agent;
above models, domain and core."""
