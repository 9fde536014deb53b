process.env.TEST_APP_DB = 'sqlite';
