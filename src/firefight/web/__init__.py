"""The GM's web tracker (``firefight serve``): a thin layer over :mod:`firefight.encounter`.

- :mod:`~firefight.web.store`: encounters in a database (SQLite by default), one record each;
- :mod:`~firefight.web.tracker`: the operations (create, act, undo, redo, watch), no HTTP;
- :mod:`~firefight.web.views`: what the GM's and the players' pages may see;
- :mod:`~firefight.web.api`: the FastAPI app (JSON API under ``/api``, pages, live updates);
- :mod:`~firefight.web.limits`: request size and rate bounds.
"""
