"""What the product knows about tasks, with no storage, no HTTP and no agent: due dates and
zones, repeat rules, reminder times, title words, list names, and the errors a user can be
told. Imports only backend.core."""
