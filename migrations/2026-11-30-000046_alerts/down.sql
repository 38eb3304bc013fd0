DROP TABLE alert_emails;
DROP TABLE alerts;
