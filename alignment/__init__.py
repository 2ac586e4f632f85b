"""Instance-based schema alignment of the ERB sources, exported as SSSOM.

`align(path)` returns an `Alignment` of pandas frames (profiles, one mapping frame per selection method,
the per-pair summary); `mapping_set(frame, description)` turns a mapping frame into sssom-py's
`MappingSetDataFrame`.
"""

from alignment.pipeline import Alignment, align, align_corpus
from alignment.sssom_io import mapping_set

__all__ = ["Alignment", "align", "align_corpus", "mapping_set"]
