"""The distributed shape (MARSA_RUN_IN=workers): a run queue in PostgreSQL, `marsa worker`
processes that research runs, API replicas that hold no run state, Redis for live events."""
