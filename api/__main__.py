"""``python -m api``: the production server (:mod:`api.serving`), as ``make serve`` runs it.

Started this way, the processes that compute each request (forked by multiprocessing's fork
server) do not import the server's own module again, as they would its ``__main__``.
"""

from api.serving import main

main()
