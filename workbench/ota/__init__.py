"""OTA (OpenTravel 2003B) and B.XML messages: one module per message, namespaces in ``ns.py``."""
