"""`avatar serve`, `avatar migrate` and `avatar worker`.

The service is imported inside the commands: every other command (a client of a server, above all)
starts without loading the HTTP app, the adapters and the migrations.
"""

import os
from typing import Any

import typer


def serve(host: str = typer.Option("127.0.0.1", help="Address to listen on."),
          port: int = typer.Option(8000, help="Port to listen on."),
          workers: int = typer.Option(1, help="Worker processes (PostgreSQL only; jobs then need AVATAR_WORKER)."),
          ) -> None:
    """Run the HTTP API (applies migrations first; runs background jobs in-process unless AVATAR_WORKER=external)."""
    import uvicorn

    from avatar_service.entrypoints.cli import runtime
    from avatar_service.entrypoints.http.app import create_app

    config = runtime.settings(public_url=None)
    if "AVATAR_PUBLIC_URL" not in os.environ:
        config = runtime.settings(public_url=f"http://{host}:{port}")
    runtime.share_metrics(config)
    runtime.run(lambda: runtime.migrate_and_close(config))
    runtime.tell(config, f"avatar_service on http://{host}:{port}  (API under /v1, docs at /schema)")
    runtime.tell(config, "No key yet? In another shell: avatar keys create --name me --scopes '*'")
    # No access log: at the warning level it is never printed, but uvicorn would still format every line.
    # log_config=None: uvicorn's loggers keep the format set up by runtime.settings() (entrypoints/logs.py).
    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "access_log": False,
                               "log_config": None}
    if workers == 1:
        uvicorn.run(create_app(runtime.container(config)), **options)
        return
    if not config.database_url.startswith("postgresql"):
        raise typer.BadParameter("more than one process needs PostgreSQL (AVATAR_DATABASE_URL=postgresql+asyncpg://"
                                 "...): SQLite's writers would queue in SQLite's busy handler", param_hint="--workers")
    # Each process builds its own app from the environment (uvicorn imports the factory by name in each).
    os.environ["AVATAR_PUBLIC_URL"] = config.public_url
    uvicorn.run(f"{__name__}:app_from_environment", factory=True, workers=workers, **options)


def app_from_environment() -> Any:
    """One API process of `avatar serve --workers N`."""
    from avatar_service.entrypoints.cli import runtime
    from avatar_service.entrypoints.http.app import create_app

    return create_app(runtime.container(runtime.settings()))


def migrate() -> None:
    """Apply the database migrations and exit."""
    from avatar_service.entrypoints.cli import runtime

    config = runtime.settings()
    runtime.run(lambda: runtime.migrate_and_close(config))
    runtime.tell(config, "database is up to date")


def room_worker(container: Any, config: Any) -> Any:
    """This process's RoomWorker (AVATAR_ROOM_CAPACITY > 0): its rooms, internal server and heartbeat."""
    import secrets

    from avatar_service.adapters.room_workers.host import RoomWorker
    from avatar_service.core.services.rooms import Rooms
    from avatar_service.ports.rooms import RoomProvider

    rooms = container.resolve(RoomProvider)
    return RoomWorker(rooms, f"rh_{secrets.token_hex(8)}", config.worker_url or "http://127.0.0.1:0",
                      config.room_capacity, config.room_lease_seconds, config.signing_secret(),
                      container.resolve(Rooms).say_in_room, bind_url=config.worker_bind)


def worker(once: bool = typer.Option(False, help="Run the work that is due now, then exit.")) -> None:
    """Run background jobs (knowledge, renders, deliveries, timers) without serving HTTP; with
    AVATAR_ROOM_CAPACITY > 0 also host that many rooms (PostgreSQL), which the API places here."""
    import signal

    import anyio
    import msgspec

    from avatar_service.entrypoints import bootstrap
    from avatar_service.entrypoints.cli import runtime
    from avatar_service.ports.jobs import JobRunner

    config = runtime.settings()
    runtime.share_metrics(config)
    hosts_rooms = config.room_capacity > 0 and not once
    if hosts_rooms:
        if not config.database_url.startswith("postgresql"):
            raise typer.BadParameter("room workers need PostgreSQL (on SQLite `avatar serve` hosts its rooms)",
                                     param_hint="AVATAR_ROOM_CAPACITY")
        config = msgspec.structs.replace(config, room_placement="workers")

    async def stop_on_sigterm(scope: anyio.CancelScope) -> None:
        """SIGTERM (systemd, Kubernetes) stops the worker as Ctrl-C does: the running passes end, the pools
        close, exit status 0. Without it the process died at once, its pool and sockets left to the kernel."""
        with anyio.open_signal_receiver(signal.SIGTERM) as signals:
            async for _ in signals:
                scope.cancel()
                return

    async def work() -> None:
        container = await runtime.migrated(config)
        jobs: JobRunner = container.resolve(JobRunner)
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(stop_on_sigterm, group.cancel_scope)
                if hosts_rooms:
                    group.start_soon(room_worker(container, config).run)
                if once:
                    await jobs.drain()
                else:
                    await jobs.run()
                group.cancel_scope.cancel()
        finally:
            await bootstrap.shut_down(container)

    runtime.run(work)


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(migrate)
    app.command()(worker)
