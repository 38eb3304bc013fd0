DROP TABLE login_sendouts;
