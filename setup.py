"""Maps src/ onto the import name avatar_service (pyproject.toml holds everything else)."""

from setuptools import find_packages, setup

setup(
    packages=["avatar_service", *(f"avatar_service.{name}" for name in find_packages("src"))],
    package_dir={"avatar_service": "src"},
)
