"""OpenGray planning suite: OpenKBP anatomy, a pencil-beam dose model, goals, proven tasks, a harness."""
