"""Items and results as files other tools read: JSON Lines or parquet, one row per item or attempt,
in a layout `datasets.load_dataset("json" | "parquet", data_files=PATH)` reads as it is.

Nested parts whose keys differ between suites and items (`reference`, `meta`, `params`,
`protocol_data`) are stored as JSON text, so every row has the same columns and types.
"""
