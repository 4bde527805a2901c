"""The delivery connection pool: httpcore's, with request assignment rewritten to run in linear time."""

import time

import httpcore


class DeliveryPool(httpcore.AsyncConnectionPool):
    """httpcore's pool with request assignment in linear time, and idle sockets polled lazily.

    httpcore 1.0's ``_assign_requests_to_connections`` counts the idle connections once per idle
    connection, scans every connection for every queued request and polls every idle socket each time:
    with the few dozen keep-alive connections of a delivery burst that was a third of the worker's CPU.
    Here an idle connection is checked (keep-alive expiry, closed by the server) when it is about to be
    reused, and all of them at most once a second; the decisions are httpcore's. If a future httpcore
    renames the method, this override is simply never called.
    """

    _SWEEP_SECONDS = 1.0
    _swept_at = 0.0

    def _assign_requests_to_connections(self) -> list[httpcore.AsyncConnectionInterface]:
        closing: list[httpcore.AsyncConnectionInterface] = []
        now = time.monotonic()
        # Closed and expired connections are dropped once a second, or at once when the pool is full; in
        # between they are merely unavailable (a closed connection never is; an idle one is checked below).
        if now - self._swept_at >= self._SWEEP_SECONDS or len(self._connections) >= self._max_connections:
            self._swept_at = now
            idle = 0
            for connection in list(self._connections):
                if connection.is_closed():
                    self._connections.remove(connection)
                elif connection.has_expired() or (
                    connection.is_idle() and idle >= self._max_keepalive_connections
                ):
                    self._connections.remove(connection)
                    closing.append(connection)
                elif connection.is_idle():
                    idle += 1
        queued = [request for request in self._requests if request.is_queued()]
        available: dict[tuple[bytes, bytes, int], list[httpcore.AsyncConnectionInterface]] = {}
        for pool_request in queued:
            origin = pool_request.request.url.origin
            key = (origin.scheme, origin.host, origin.port)  # Origin itself is not hashable
            if key not in available:
                available[key] = [c for c in self._connections if c.can_handle_request(origin) and c.is_available()]
            reusable = available[key]
            while reusable and reusable[0].is_idle() and reusable[0].has_expired():  # checked before reuse
                self._connections.remove(reusable[0])
                closing.append(reusable.pop(0))
            if reusable:
                pool_request.assign_to_connection(reusable.pop(0))
                continue
            if len(self._connections) >= self._max_connections:
                idle_connections = [c for c in self._connections if c.is_idle()]
                if not idle_connections:
                    continue  # stays queued until a connection frees up
                self._connections.remove(idle_connections[0])
                closing.append(idle_connections[0])
            connection = self.create_connection(origin)
            self._connections.append(connection)
            pool_request.assign_to_connection(connection)
        return closing
