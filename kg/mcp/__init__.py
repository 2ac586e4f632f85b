"""`kg mcp`: the graph for agents, over the Model Context Protocol (the official `mcp` SDK).

- service: who calls and what they read, granted as `kg serve` grants it (`service.py`);
- slots: the named inputs of `run_intent`, checked against the graph's vocabulary (`slots.py`);
- tools: what each tool returns, plain functions (`tools.py`);
- guard: the Host allow-list, the token checked before a session is made, sessions per client (`guard.py`);
- server: the MCPServer, its tools, resources and transports (`server.py`). docs/mcp.md is the user's guide.
"""
