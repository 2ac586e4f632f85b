"""The answer page: a question in a browser, its answer, its citations as links to the artifacts, the proof
when it abstains, and a drawing of the evidence subgraph.

Server-neutral: `views` holds functions of (question or artifact id, the token's readable graphs, an
`Answerer` over any backend) that return a `Page` (status + HTML); `evidence` draws the evidence subgraph
with Graphviz, as SVG made on the server (no script, no CDN: the page works offline);
`app.ask_routes(answerer)` mounts the three routes, in one line, on any aiohttp application that keeps the
endpoint's access table in `app[kg.grants.GRANTS]`.
"""
