DROP TABLE contacts;
