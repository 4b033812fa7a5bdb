"""The research graph: planner → researcher → fact-checker → synthesizer, with refinement."""
