DROP TABLE account_settings;
