"""Plain-English text handling the core needs: sentence splitting, follow-up detection and word lists."""
