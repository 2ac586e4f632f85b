"""Hybrid evidence search: BM25 + dense retrieval fused by RRF, reranked by Personalized PageRank.

Per product scope the pipeline is:

1. facets (kind, channel, author, role, dates) -> the admitted artifacts, by SPARQL over the product's graph;
2. retrievers, each a rank list over artifacts read in context (a message with its whole conversation):
   BM25 (`bm25_context`) and, when asked for (`use_dense`, needs the `[dense]` extra), cosine over MiniLM
   embeddings (`dense_context`). Artifact-level lists (`bm25`, `dense`) are computed for comparison only;
3. RRF of the retriever lists; its top `seed_top` hits, plus the question's anchor nodes (the product,
   document kind, people, customers, components … it names), seed a PPR walk over the typed edges;
4. the final order is RRF over the retriever lists plus the PPR list (`ppr`), so every hit carries each
   signal's rank and its 1/(k + rank) contribution.

Dense is off by default: on HERB's dev questions it lowered recall (docs/search.md has the table).

Every query's signals go to a JSONL log, so a ranking change is measured, never guessed.
"""
