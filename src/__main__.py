"""`python -m avatar_service` is the `avatar` command."""

from avatar_service.entrypoints.cli import main

main()
