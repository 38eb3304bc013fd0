DROP TABLE retention_run_figures;
DROP TABLE retention_runs;
DROP TABLE erasure_receipts;
