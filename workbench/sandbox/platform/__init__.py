"""The platform stand-in: a Starlette app answering the platform's operations as the spec says
(docs/sandbox.md). Its layers, top to bottom (checked by lint-imports):

- ``server`` (HTTPS on loopback), ``app`` (routes; the families assembled) and ``admin`` (``/_sandbox/``);
- ``pipeline`` (the state object and the checks every call goes through) beside ``families`` (one
  handler module per operation family);
- ``calls`` (the types handlers work with: Call, Reply, Handler, PlatformState, Family);
- the rules and the state (``rate_rules``, ``rooms_rules``, ``content_rules``, ``store``, ...);
- ``protocol`` (bodies and header checks), ``endpoints`` (the endpoint type, version constants),
  ``issues`` (Issue, Misuse).

The public names are at :mod:`workbench.sandbox`.
"""
