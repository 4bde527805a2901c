"""The avatar as a participant of a LiveKit room: the rooms' own conversation pipeline over LiveKit's media."""
