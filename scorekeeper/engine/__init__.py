"""What a change, a sheet, a print, the statistics and a backup need, without a request:
the write path (``ledger``), the sheet cache (``sheets``), the worker's caches, printing,
the history's wording, the statistics and their charts, backups. Nothing here names a game:
what a game adds is handed in by the caller."""
