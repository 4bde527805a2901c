"""Rooms on `avatar worker` processes: placement (PlacedRooms), the workers' signaling server, the hosting loop."""
