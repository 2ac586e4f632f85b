"""Question answering: deterministic parsing -> intent + slots -> parameterised SPARQL -> answer or proof."""
