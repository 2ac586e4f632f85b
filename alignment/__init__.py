"""Instance-based schema alignment of the ERB sources, exported as SSSOM.

`alignment.pipeline.align(path)` returns an `Alignment` of pandas frames (profiles, one mapping frame per
selection method, the per-pair summary); `alignment.sssom_io.mapping_set(frame, description)` turns a mapping
frame into sssom-py's `MappingSetDataFrame`. The package itself imports nothing, so `alignment.defaults` reads
without the [align] extra (pandas, sssom).
"""
