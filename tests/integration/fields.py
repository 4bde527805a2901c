"""The fields of each resource the API answers with, once for every test that checks a body or the OpenAPI
document: the spec's fields and the contract's additions (section 8)."""

API_KEY = {"id", "object", "name", "key_prefix", "scopes", "created_at", "last_used_at", "rate_limit_per_minute"}
WEBHOOK = {"id", "object", "url", "events", "created_at", "enabled"}
DELIVERY = {"id", "object", "webhook_id", "event_id", "event_type", "status", "attempt", "response_status",
            "duration_ms", "error", "next_retry_at", "created_at", "delivered_at"}
USER = {"id", "object", "created_at", "updated_at", "external_id", "metadata", "settings"}
MEMORY = {"id", "object", "user_id", "personality_id", "content", "created_at", "category", "confidence", "source",
          "last_used_at"}
PERSONALITY = {"id", "object", "name", "created_at", "updated_at", "description", "system_prompt", "voice",
               "appearance", "traits", "metadata", "tools"}
KNOWLEDGE_ITEM = {"id", "object", "type", "status", "created_at", "name", "source_url", "content_preview",
                  "chunk_count", "token_count", "error", "updated_at", "refresh_interval"}
CONVERSATION = {"id", "object", "personality_id", "status", "created_at", "user_id", "mode", "room_url", "room_token",
                "duration", "transcript", "ended_at", "end_reason", "recording_url"}
VIDEO = {"id", "object", "status", "created_at", "personality_id", "progress", "video_url", "thumbnail_url",
         "duration", "error", "completed_at"}
GAME_SESSION = {"id", "object", "game_id", "personality_id", "status", "created_at", "user_id", "current_turn",
                "state", "winner", "move_count", "personality_commentary", "updated_at"}
MOVE_RESULT = {"session", "user_move_valid", "user_move_error", "personality_move", "personality_message"}
