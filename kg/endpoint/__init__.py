"""`kg serve`: the store as a read-only SPARQL 1.1 endpoint, with per-product bearer-token access.

- access: tokens, names and grants (`access.py`);
- policy: limits on raw text, the SERVICE refusal, the dataset each query runs on (`policy.py`);
- engine: worker processes with the store open read-only, no network, supervised (`engine.py`);
- http: the aiohttp server, routes, CORS, the query page, request logs (`http.py`);
- the service description (`service_description.py`) and the page assets (`static/`);
- server: checking the settings and running the server until a signal stops it (`server.py`).
"""

from kg.endpoint.http import Settings
from kg.endpoint.policy import Limits
from kg.endpoint.server import serve

__all__ = ["Limits", "Settings", "serve"]
